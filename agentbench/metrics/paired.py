"""One metric of two runs, paired task by task: its 95% interval and its verdict.

Each metric is a difference (B - A, mean over tasks) or a ratio (mean B / mean A), read off the
per-task figures (metrics.tasks) of the tasks both runs have it for. The success rate takes the
Bonett-Price interval on per-task differences (metrics.intervals), every other metric a paired
bootstrap over tasks (metrics.stats). "resolved" only when the interval excludes 0
(differences) or 1 (ratios); "not compared" when no task has the figure in both runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field

from agentbench.metrics.intervals import paired_rate_difference
from agentbench.metrics.stats import Interval, paired_diff_ci, paired_ratio_ci, verdict
from agentbench.metrics.tasks import TaskFigures
from agentbench.records import EpisodeResult

NOT_COMPARED = "not compared"


class MetricComparison(BaseModel):
    """One metric, run B against run A (the baseline), over the tasks both have a value for."""

    metric: str = Field(description="Stable key, e.g. success_rate.")
    label: str = Field(description="What it is, with its unit.")
    kind: Literal["difference", "ratio"] = Field(
        description="difference: mean over tasks of B - A; ratio: mean(B) / mean(A)."
    )
    a: float | None = Field(description="Mean over the paired tasks, run A.")
    b: float | None
    value: float | None = Field(description="The difference or ratio.")
    ci: list[float] | None = Field(
        default=None,
        description="95% paired interval: Bonett-Price for the success rate "
        "(metrics.intervals), a paired bootstrap over tasks otherwise.",
    )
    n_tasks: int = Field(description="Tasks paired for this metric.")
    verdict: str = Field(
        description="'resolved', 'unresolved at this sample size', or 'not "
        "compared' when no task has the figure in both runs."
    )
    higher_is_better: bool
    better: Literal["a", "b"] | None = Field(
        default=None, description="The better run, only when the verdict is resolved."
    )
    note: str | None = None


Getter = Callable[[TaskFigures], float | None]

# metric key, label, kind, higher is better, getter
_METRICS: list[tuple[str, str, Literal["difference", "ratio"], bool, Getter]] = [
    (
        "success_rate",
        "success rate (share of episodes)",
        "difference",
        True,
        lambda t: t.success_rate,
    ),
    ("mean_score", "mean score (0-1)", "difference", True, lambda t: t.mean_score),
    (
        "tokens_per_solved_task",
        "output tokens per solved task",
        "ratio",
        False,
        lambda t: t.output_tokens_solved,
    ),
    (
        "thinking_tokens_per_step",
        "thinking tokens per step",
        "ratio",
        False,
        lambda t: t.thinking_tokens_per_step,
    ),
    (
        "time_to_done_s",
        "time-to-done (s, mean per task)",
        "ratio",
        False,
        lambda t: t.time_to_done_s,
    ),
    (
        "decode_tok_s",
        "decode speed (tok/s, median per task)",
        "ratio",
        True,
        lambda t: t.decode_tok_s_median,
    ),
    ("cost_usd", "cost per episode (USD)", "difference", False, lambda t: t.cost_usd),
]

SPEED_NOTE = (
    "decode speed: the CI covers task-to-task variation within these two runs, not "
    "run-to-run variation (about 6% with speculative decoding, seed 000); repeat each "
    "configuration before ranking them on speed"
)


def _metric(
    key: str,
    label: str,
    kind: Literal["difference", "ratio"],
    higher: bool,
    getter: Getter,
    ta: dict[str, TaskFigures],
    tb: dict[str, TaskFigures],
    common: list[str],
    seed: int,
) -> MetricComparison:
    pairs = [(getter(ta[t]), getter(tb[t])) for t in common]
    kept = [(x, y) for x, y in pairs if x is not None and y is not None]
    xs, ys = [p[0] for p in kept], [p[1] for p in kept]
    note = None
    interval: Interval | None
    if key == "success_rate":
        interval = None  # replaced by the paired score interval in compare_pair
    elif kind == "ratio":
        interval = paired_ratio_ci(xs, ys, seed=seed)
        if interval is None and kept:
            # No ratio when A is all zeros (e.g. a model that never thinks): fall back to B - A.
            kind, interval = "difference", paired_diff_ci(xs, ys, seed=seed)
            note = "run A is zero on every task: difference shown instead of ratio"
    else:
        interval = paired_diff_ci(xs, ys, seed=seed) if kept else None
    null = 1.0 if kind == "ratio" else 0.0
    # Nothing to pair (e.g. unpriced runs) is not the same as too few tasks to tell.
    said = verdict(interval, null) if kept else NOT_COMPARED
    better: Literal["a", "b"] | None = None
    if said == "resolved" and interval is not None:
        b_higher = interval.low > null
        better = "b" if b_higher == higher else "a"
    if key == "cost_usd" and not kept:
        note = "unpriced: at least one run has calls without a price"
    if key == "tokens_per_solved_task":
        note = f"over the {len(kept)} task(s) both runs solved at least once"
    return MetricComparison(
        metric=key,
        label=label,
        kind=kind,
        a=sum(xs) / len(xs) if xs else None,
        b=sum(ys) / len(ys) if ys else None,
        value=interval.value if interval else None,
        ci=[interval.low, interval.high] if interval else None,
        n_tasks=len(kept),
        verdict=said,
        higher_is_better=higher,
        better=better,
        note=note,
    )


def outcomes(episodes: list[EpisodeResult]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for e in episodes:
        if e.score is not None:
            out.setdefault(e.task_id, []).append(1.0 if e.success else 0.0)
    return out


def _success(
    metric: MetricComparison,
    a: dict[str, list[float]],
    b: dict[str, list[float]],
    common: list[str],
) -> MetricComparison:
    """Success rate by the adjusted Wald interval on per-task differences (metrics.intervals)."""
    ga = [a.get(t, []) for t in common]
    gb = [b.get(t, []) for t in common]
    interval = paired_rate_difference(ga, gb) if common else None
    if interval is None:
        return metric
    said = verdict(interval)
    better: Literal["a", "b"] | None = None
    if said == "resolved":
        better = "b" if interval.low > 0 else "a"
    return metric.model_copy(
        update={
            "value": interval.value,
            "ci": [interval.low, interval.high],
            "n_tasks": interval.n,
            "verdict": said,
            "better": better,
            "note": "95% Bonett-Price interval on per-task differences (paired, clustered by task)",
        }
    )


def paired_metrics(
    ta: dict[str, TaskFigures],
    tb: dict[str, TaskFigures],
    common: list[str],
    oa: dict[str, list[float]],
    ob: dict[str, list[float]],
    scored: list[str],
    *,
    seed: int = 0,
) -> list[MetricComparison]:
    """Every metric of `_METRICS` over the `common` tasks; the success rate over the tasks
    scored in both runs (`scored`), from their per-episode outcomes (`outcomes`)."""
    metrics = [_metric(*m, ta=ta, tb=tb, common=common, seed=seed) for m in _METRICS]
    return [_success(m, oa, ob, scored) if m.metric == "success_rate" else m for m in metrics]
