"""Intervals for rates and means that are right at 0 and at n, with repeats clustered by task.

- A success rate (or any share of 0/1 outcomes) gets a Wilson score interval. With repeats, the
  outcomes of one task are correlated, so the interval uses the effective sample size of the
  task-clustered estimate (the design effect), between the number of tasks and the number of
  episodes. Without repeats it is the textbook Wilson interval.
- A mean of scores in [0, 1] gets the same score interval on the clustered mean (a [0, 1] value
  spreads at most like a coin, so p(1-p) / var is its effective size). On simulated runs a
  task-clustered percentile bootstrap covered 89-91% near a mean of 1; this one 94-95%.
- A paired difference of two runs' success rates, task by task, gets Bonett and Price's adjusted
  Wald interval on the per-task differences (clustered by task with repeats). It does not
  collapse to [0, 0] when nothing differed; Newcombe's hybrid score interval, tried first, gave
  +-8 pp for two identical 8-task runs.

`benchmarks/interval_coverage.py` measures each interval's coverage on simulated runs with a known
true value; tests/metrics/test_intervals.py keeps it near 95%.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from agentbench.metrics.stats import Interval

SMALL_N = 10
SMALL_N_NOTE = f"n < {SMALL_N}: the interval is wide and the figure is indicative only"


def z_value(confidence: float = 0.95) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for successes out of n (n may be an effective, non-integer size)."""
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, successes / n))
    z = z_value(confidence)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _weighted(groups: Sequence[Sequence[float]], by_task: bool) -> tuple[float, float, int, int]:
    """(point, variance of the point, tasks, episodes) of the clustered mean of 0/1 outcomes.

    The point weighs each task by its repeats (by_task False: the share of all episodes) or
    equally (by_task True: the mean of per-task rates, as paired comparisons use). The variance
    is the cluster-robust (sandwich) estimate over tasks."""
    kept = [g for g in groups if g]
    m, episodes = len(kept), sum(len(g) for g in kept)
    rates = [sum(g) / len(g) for g in kept]
    weights = [1.0 if by_task else float(len(g)) for g in kept]
    total = sum(weights)
    p = sum(w * r for w, r in zip(weights, rates, strict=True)) / total
    if m < 2:
        return p, 0.0, m, episodes
    var = sum(w * w * (r - p) ** 2 for w, r in zip(weights, rates, strict=True)) / total**2
    return p, var * m / (m - 1), m, episodes


def effective_n(groups: Sequence[Sequence[float]], by_task: bool = False) -> float:
    """Effective sample size of the clustered mean of values in [0, 1]: p(1-p) / var(p), at
    least the number of tasks. For 0/1 outcomes without repeats it is the number of episodes;
    for partial scores it can be larger (a [0, 1] value spreads less than a coin). At p = 0 or 1,
    or with no spread, nothing can be estimated and the number of tasks counts."""
    p, var, m, _ = _weighted(groups, by_task)
    if m < 2 or p in (0.0, 1.0) or var == 0:
        return float(m)
    return max(float(m), p * (1 - p) / var)


def rate_interval(
    groups: Sequence[Sequence[float]], confidence: float = 0.95, *, by_task: bool = False
) -> Interval | None:
    """Wilson interval of a success rate from 0/1 outcomes grouped by task (one group per task,
    one value per repeat), with the clustered effective sample size; also the interval of a
    mean of scores in [0, 1]. None if empty."""
    if not any(groups):
        return None
    p, _, _, episodes = _weighted(groups, by_task)
    n_eff = effective_n(groups, by_task)
    low, high = wilson(p * n_eff, n_eff, confidence)
    return Interval(p, min(low, p), max(high, p), episodes)


def paired_rate_difference(
    a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], confidence: float = 0.95
) -> Interval | None:
    """Interval of rate(B) - rate(A) over tasks paired by position (each a list of 0/1 repeats).

    Bonett and Price's adjusted Wald interval for paired proportions, on per-task differences
    d_i = rate_B,i - rate_A,i: one pseudo-task with d = +1 and one with d = -1 are added, each
    weighing one repeat (for single repeats this is their +1 to each discordant cell), then
    mean(d) +- z sd(d) / sqrt(n + 2w) with the plug-in variance. With repeats, d_i is the
    difference of the task's repeat means, so the interval is clustered by task. It does not
    collapse to [0, 0] when no task differed. Tasks missing from either run are skipped.
    """
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x and y]
    n = len(pairs)
    if n == 0:
        return None
    diffs = [sum(y) / len(y) - sum(x) / len(x) for x, y in pairs]
    point = sum(diffs) / n
    # the pseudo-tasks weigh one repeat each: one discordant episode each way
    w = 1.0 / (sum(min(len(x), len(y)) for x, y in pairs) / n)
    total = n + 2 * w
    centre = sum(diffs) / total
    var = (sum(d * d for d in diffs) + 2 * w) / total - centre * centre
    half = z_value(confidence) * math.sqrt(max(var, 0.0) / total)
    low, high = max(-1.0, centre - half), min(1.0, centre + half)
    return Interval(point, min(low, point), max(high, point), n)


def small_sample_note(n: int) -> str | None:
    """The note every figure over fewer than SMALL_N observations carries."""
    return SMALL_N_NOTE if n < SMALL_N else None
