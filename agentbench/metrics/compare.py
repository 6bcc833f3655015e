"""Comparing runs on the same tasks: paired differences and ratios with 95% intervals.

Pairing is by task id. Each task contributes one value per run, the mean over its repeats, so a run
with 3 repeats and one with 1 still pair task for task. Tasks present in only one run are left out
and counted. Every difference carries a verdict (docs/design.md#per-run-figures): "resolved" only
when its 95% interval excludes 0 (differences) or 1 (ratios), else "unresolved at this sample
size".

Each metric's paired interval and verdict is metrics.paired's; this module pairs the runs and
their tasks. Reports render these records; they never recompute them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from agentbench.metrics.paired import (
    NOT_COMPARED,
    SPEED_NOTE,
    MetricComparison,
    outcomes,
    paired_metrics,
)
from agentbench.metrics.power import PowerFigures, power_figures
from agentbench.metrics.stats import paired_ratio_ci, pareto_front
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
    "paired_ratio_ci",
    "pareto_front",
    "task_figures",
]

RunEpisodes = tuple[RunRecord, list[EpisodeResult]]


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


def compare_pair(
    a: RunEpisodes, b: RunEpisodes, *, seed: int = 0, effect: float | None = None
) -> PairComparison:
    """Run B against run A on the tasks both ran; `effect` asks for a plan for that difference."""
    ta, tb = task_figures(a[1]), task_figures(b[1])
    common = sorted(set(ta) & set(tb))
    oa, ob = outcomes(a[1]), outcomes(b[1])
    scored = [t for t in common if oa.get(t) and ob.get(t)]
    metrics = paired_metrics(ta, tb, common, oa, ob, scored, seed=seed)
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
