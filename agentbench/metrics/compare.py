"""Comparing runs on the same tasks: paired differences and ratios with 95% intervals.

Pairing is by task id. Each task contributes one value per run, the mean over its repeats, so a run
with 3 repeats and one with 1 still pair task for task. Tasks present in only one run are left out
and counted. Every difference carries a verdict (docs/design.md#per-run-figures): "resolved" only
when its 95% interval excludes 0 (differences) or 1 (ratios), else "unresolved at this sample
size".

Reports render these records; they never recompute them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from agentbench.metrics.intervals import paired_rate_difference
from agentbench.metrics.power import PowerFigures, power_figures
from agentbench.metrics.stats import (
    Interval,
    paired_diff_ci,
    paired_ratio_ci,
    pareto_front,
    verdict,
)
from agentbench.metrics.summary import RunSummary, summarize
from agentbench.metrics.tasks import TaskFigures, category_figures, mean_known, task_figures
from agentbench.records import EpisodeResult, RunRecord

__all__ = [
    "NOT_COMPARED",
    "Comparison",
    "MetricComparison",
    "PairComparison",
    "RunEpisodes",
    "RunOverview",
    "TaskComparison",
    "TaskFigures",
    "category_figures",
    "compare_pair",
    "compare_runs",
    "task_figures",
]

RunEpisodes = tuple[RunRecord, list[EpisodeResult]]
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


class TaskComparison(BaseModel):
    """One task in both runs: did each solve it, and with how many thinking tokens."""

    task_id: str
    category: str
    success_a: float | None
    success_b: float | None
    reasoning_tokens_a: float | None = Field(description="Mean per episode, all repeats.")
    reasoning_tokens_b: float | None
    output_tokens_a: float | None
    output_tokens_b: float | None
    thinking_ratio: float | None = Field(
        default=None, description="B / A reasoning tokens per episode; None if A had none."
    )
    output_ratio: float | None = None
    time_to_done_s_a: float | None = None
    time_to_done_s_b: float | None = None
    outcome: str = Field(description="both solved | only A solved | only B solved | neither")
    fewer_tokens: Literal["a", "b", "same"] | None = Field(
        default=None, description="When both solved: which spent fewer output tokens."
    )


class PairComparison(BaseModel):
    run_a: str
    run_b: str
    label_a: str
    label_b: str
    common_tasks: int
    only_a: list[str] = Field(default_factory=list)
    only_b: list[str] = Field(default_factory=list)
    metrics: list[MetricComparison]
    tasks: list[TaskComparison]
    power: PowerFigures | None = None
    notes: list[str] = Field(default_factory=list)


class RunOverview(BaseModel):
    run_id: str
    label: str
    model: str | None
    server: str | None
    router: str | None
    repeats: int | None
    summary: RunSummary
    output_tokens_per_episode: float | None = None
    cost_usd_per_episode: float | None = Field(default=None, description="None if unpriced.")


class Comparison(BaseModel):
    """Runs side by side; every run after the first is paired against the first."""

    runs: list[RunOverview]
    pairs: list[PairComparison]
    pareto: list[bool] = Field(default_factory=list, description="Per run, on cost vs accuracy.")
    pareto_axis: str = Field(
        default="cost_usd_per_episode",
        description="The cost axis used: dollars if every run is priced, "
        "else output tokens per episode.",
    )
    cost_axis_values: list[float | None] = Field(
        default_factory=list, description="Per run, on that axis."
    )


def run_label(run: RunRecord) -> str:
    """Model, router when not always-local, the user's note, and the id's last 6 characters."""
    model = run.server.model if run.server else str(run.config.get("model", "?"))
    router = run.config.get("router")
    extra = f" [{router}]" if router and router != "always-local" else ""
    note = run.config.get("note") or (run.server.note if run.server else None)
    if note:
        extra += f" · {note if len(note) <= 32 else note[:31] + '…'}"
    return f"{model}{extra} ({run.run_id[-6:]})"


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


def _ratio(a: float | None, b: float | None) -> float | None:
    return b / a if a and b is not None else None


def _task_row(a: TaskFigures, b: TaskFigures) -> TaskComparison:
    solved_a = (a.success_rate or 0.0) > 0
    solved_b = (b.success_rate or 0.0) > 0
    outcome = {
        (True, True): "both solved",
        (True, False): "only A solved",
        (False, True): "only B solved",
        (False, False): "neither",
    }[(solved_a, solved_b)]
    fewer: Literal["a", "b", "same"] | None = None
    if (
        solved_a
        and solved_b
        and a.output_tokens_solved is not None
        and b.output_tokens_solved is not None
    ):
        diff = b.output_tokens_solved - a.output_tokens_solved
        fewer = "same" if diff == 0 else ("b" if diff < 0 else "a")
    return TaskComparison(
        task_id=a.task_id,
        category=a.category,
        success_a=a.success_rate,
        success_b=b.success_rate,
        reasoning_tokens_a=a.reasoning_tokens,
        reasoning_tokens_b=b.reasoning_tokens,
        output_tokens_a=a.output_tokens,
        output_tokens_b=b.output_tokens,
        thinking_ratio=_ratio(a.reasoning_tokens, b.reasoning_tokens),
        output_ratio=_ratio(a.output_tokens, b.output_tokens),
        time_to_done_s_a=a.time_to_done_s,
        time_to_done_s_b=b.time_to_done_s,
        outcome=outcome,
        fewer_tokens=fewer,
    )


def _outcomes(episodes: list[EpisodeResult]) -> dict[str, list[float]]:
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


def compare_pair(
    a: RunEpisodes, b: RunEpisodes, *, seed: int = 0, effect: float | None = None
) -> PairComparison:
    """Run B against run A on the tasks both ran; `effect` asks for a plan for that difference."""
    ta, tb = task_figures(a[1]), task_figures(b[1])
    common = sorted(set(ta) & set(tb))
    metrics = [_metric(*m, ta=ta, tb=tb, common=common, seed=seed) for m in _METRICS]
    oa, ob = _outcomes(a[1]), _outcomes(b[1])
    scored = [t for t in common if oa.get(t) and ob.get(t)]
    metrics = [_success(m, oa, ob, scored) if m.metric == "success_rate" else m for m in metrics]
    notes = [SPEED_NOTE]
    if not common:
        notes.insert(0, "the runs share no task: nothing to pair")
    return PairComparison(
        run_a=a[0].run_id,
        run_b=b[0].run_id,
        label_a=run_label(a[0]),
        label_b=run_label(b[0]),
        common_tasks=len(common),
        only_a=sorted(set(ta) - set(tb)),
        only_b=sorted(set(tb) - set(ta)),
        metrics=metrics,
        tasks=[_task_row(ta[t], tb[t]) for t in common],
        power=power_figures(oa, ob, scored, effect) if scored else None,
        notes=notes,
    )


def cost_axis(runs: Sequence[RunOverview]) -> tuple[str, list[float | None]]:
    """The cost axis for cost-accuracy plots: USD per episode when every run is priced, else
    output tokens per episode (a stand-in, labelled as such)."""
    usd = [r.cost_usd_per_episode for r in runs]
    if runs and all(u is not None for u in usd):
        return "cost_usd_per_episode", usd
    return "output_tokens_per_episode", [r.output_tokens_per_episode for r in runs]


def overview(run: RunRecord, episodes: list[EpisodeResult], *, seed: int = 0) -> RunOverview:
    summary = summarize(episodes, seed=seed)
    return RunOverview(
        run_id=run.run_id,
        label=run_label(run),
        model=run.server.model if run.server else run.config.get("model"),
        server=run.server.kind if run.server else None,
        router=run.config.get("router"),
        repeats=run.config.get("repeats"),
        summary=summary,
        output_tokens_per_episode=mean_known([e.output_tokens for e in episodes]),
        cost_usd_per_episode=summary.cost_usd / summary.episodes
        if summary.cost_usd is not None and summary.episodes
        else None,
    )


def compare_runs(
    runs: Sequence[RunEpisodes], *, seed: int = 0, effect: float | None = None
) -> Comparison:
    """Every run after the first paired against the first; Pareto front over all of them."""
    overviews = [overview(r, eps, seed=seed) for r, eps in runs]
    axis, costs = cost_axis(overviews)
    front = pareto_front(
        [(c, o.summary.success_rate) for c, o in zip(costs, overviews, strict=True)]
    )
    return Comparison(
        runs=overviews,
        pairs=[compare_pair(runs[0], other, seed=seed, effect=effect) for other in runs[1:]],
        pareto=front,
        pareto_axis=axis,
        cost_axis_values=costs,
    )
