"""Statistics every report shares: bootstrap intervals, pass^k, percentiles, resolution verdicts.

Bootstraps are seeded: the same results always print the same interval.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

RESOLVED = "resolved"
UNRESOLVED = "unresolved at this sample size"


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float | int]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def bootstrap_ci(
    values: Sequence[float],
    stat: Callable[[Sequence[float]], float] = mean,
    *,
    resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Interval | None:
    """Percentile bootstrap interval of `stat`; None for an empty sample."""
    if not values:
        return None
    point = stat(values)
    if len(values) == 1:
        return Interval(point, point, point, 1)
    n = len(values)
    if stat is mean:
        draws = _mean_draws(values, resamples, seed)
    else:
        rng = random.Random(seed)
        draws = sorted(stat([values[rng.randrange(n)] for _ in range(n)]) for _ in range(resamples))
    tail = (1 - confidence) / 2
    low = draws[math.floor(tail * (resamples - 1))]
    high = draws[math.ceil((1 - tail) * (resamples - 1))]
    return Interval(point, low, high, n)


def _mean_draws(values: Sequence[float], resamples: int, seed: int) -> list[float]:
    """Sorted bootstrap means, vectorised (the reports compute dozens of these per page: the
    pure-Python loop took ~0.5 s for one 69-episode run). Resampled in blocks to bound memory."""
    import numpy as np

    gen = np.random.default_rng(seed)
    data = np.asarray(values, dtype=float)
    n = len(data)
    block = max(1, min(resamples, 2_000_000 // n))
    parts = []
    for start in range(0, resamples, block):
        rows = min(block, resamples - start)
        parts.append(data[gen.integers(0, n, size=(rows, n))].mean(axis=1))
    return sorted(float(x) for x in np.concatenate(parts))


def paired_diff_ci(
    a: Sequence[float], b: Sequence[float], *, resamples: int = 2000, seed: int = 0
) -> Interval | None:
    """Bootstrap CI of mean(b - a) over paired observations (same tasks)."""
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    return bootstrap_ci(diffs, resamples=resamples, seed=seed)


def ratio_ci(
    a: Sequence[float], b: Sequence[float], *, resamples: int = 2000, seed: int = 0
) -> Interval | None:
    """Bootstrap CI of median(b) / median(a), resampling each side independently."""
    if not a or not b:
        return None
    rng = random.Random(seed)
    point = statistics.median(b) / statistics.median(a)
    draws = []
    for _ in range(resamples):
        ra = statistics.median([a[rng.randrange(len(a))] for _ in a])
        rb = statistics.median([b[rng.randrange(len(b))] for _ in b])
        draws.append(rb / ra if ra else math.inf)
    draws.sort()
    return Interval(
        point,
        draws[int(0.025 * (resamples - 1))],
        draws[math.ceil(0.975 * (resamples - 1))],
        min(len(a), len(b)),
    )


def verdict(interval: Interval | None, null: float = 0.0) -> str:
    """'resolved' only when the interval excludes the null value (0 for differences, 1 ratios)."""
    if interval is None or interval.n < 2:
        return UNRESOLVED
    return RESOLVED if interval.low > null or interval.high < null else UNRESOLVED


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated percentile, q in [0, 100]."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def spread(values: Sequence[float]) -> float | None:
    """(max - min) / median: the run-to-run spread."""
    if len(values) < 2:
        return None
    mid = statistics.median(values)
    return (max(values) - min(values)) / mid if mid else None


def pass_hat_k(successes_per_task: Sequence[tuple[int, int]], k: int) -> float | None:
    """pass^k: mean over tasks of C(c, k) / C(n, k) (k-of-k successes); tasks with n < k skipped."""
    terms = [math.comb(c, k) / math.comb(n, k) for c, n in successes_per_task if n >= k]
    return mean(terms) if terms else None


def pareto_front(points: Sequence[tuple[float | None, float | None]]) -> list[bool]:
    """For (cost, accuracy) points: True where no other point is at most as costly and at least
    as accurate while strictly better in one. Points missing either figure are never on it."""
    out = []
    for i, (c, acc) in enumerate(points):
        if c is None or acc is None:
            out.append(False)
            continue
        dominated = any(
            c2 is not None and a2 is not None and c2 <= c and a2 >= acc and (c2 < c or a2 > acc)
            for j, (c2, a2) in enumerate(points) if j != i
        )
        out.append(not dominated)
    return out


def paired_ratio_ci(a: Sequence[float], b: Sequence[float], *, resamples: int = 2000,
                    seed: int = 0) -> Interval | None:
    """Bootstrap CI of mean(b) / mean(a) over paired tasks (tasks resampled together).

    None when a sums to zero (no ratio exists); resamples whose a-sum is zero are dropped.
    """
    n = len(a)
    if n == 0 or len(b) != n or sum(a) <= 0:
        return None
    point = sum(b) / sum(a)
    if n == 1:
        return Interval(point, point, point, 1)
    import numpy as np

    gen = np.random.default_rng(seed)
    xa, xb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    idx = gen.integers(0, n, size=(resamples, n))  # tasks resampled together, vectorised
    sa, sb = xa[idx].sum(axis=1), xb[idx].sum(axis=1)
    keep = sa > 0
    draws = sorted(float(x) for x in sb[keep] / sa[keep])
    m = len(draws)
    low = draws[math.floor(0.025 * (m - 1))]
    high = draws[math.ceil(0.975 * (m - 1))]
    return Interval(point, low, high, n)
