"""Per-task figures of one run: each task's repeats averaged (and the same per category).

The comparison of runs (metrics.compare) pairs these task by task; reports draw them.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, Field

from agentbench.records import EpisodeResult


class TaskFigures(BaseModel):
    """One task of one run: its repeats averaged (None where no repeat had the figure)."""

    task_id: str
    category: str
    difficulty: str = ""
    episodes: int
    scored: int
    success_rate: float | None = Field(description="Share of scored repeats with status ok.")
    mean_score: float | None
    steps_mean: float | None = None
    thinking_tokens_per_step: float | None = Field(
        default=None, description="Mean over repeats of the episode's reasoning tokens / steps."
    )
    reasoning_tokens: float | None = Field(default=None, description="Mean per episode.")
    output_tokens: float | None = Field(default=None, description="Mean per episode.")
    output_tokens_solved: float | None = Field(
        default=None, description="Mean output tokens of the successful repeats only."
    )
    reasoning_tokens_solved: float | None = None
    time_to_done_s: float | None = None
    model_time_s: float | None = None
    tool_time_s: float | None = None
    router_time_s: float | None = None
    decode_tok_s_median: float | None = Field(
        default=None, description="Median over every step of every repeat."
    )
    cost_usd: float | None = Field(default=None, description="Mean per episode; None if unpriced.")
    statuses: dict[str, int] = Field(default_factory=dict)


def mean_known(values: Sequence[float | int | None]) -> float | None:
    """Mean of the values that were measured; None when none was."""
    kept = [float(v) for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def _task(eps: list[EpisodeResult]) -> TaskFigures:
    scored = [e for e in eps if e.score is not None]
    solved = [e for e in eps if e.success]
    decode = [s.decode_tok_s for e in eps for s in e.steps if s.decode_tok_s is not None]
    statuses: dict[str, int] = defaultdict(int)
    for e in eps:
        statuses[e.status] += 1
    costs = [e.cost_usd for e in eps]
    return TaskFigures(
        task_id=eps[0].task_id,
        category=eps[0].category,
        difficulty=eps[0].difficulty,
        episodes=len(eps),
        scored=len(scored),
        success_rate=mean_known([1.0 if e.success else 0.0 for e in scored]),
        mean_score=mean_known([e.score for e in scored]),
        steps_mean=mean_known([len(e.steps) for e in eps]),
        thinking_tokens_per_step=mean_known([e.thinking_tokens_per_step for e in eps]),
        reasoning_tokens=mean_known([e.reasoning_tokens for e in eps]),
        output_tokens=mean_known([e.output_tokens for e in eps]),
        output_tokens_solved=mean_known([e.output_tokens for e in solved]),
        reasoning_tokens_solved=mean_known([e.reasoning_tokens for e in solved]),
        time_to_done_s=mean_known([e.time_to_done_s for e in eps]),
        model_time_s=mean_known([e.model_time_s for e in eps]),
        tool_time_s=mean_known([e.tool_time_s for e in eps]),
        router_time_s=mean_known([e.router_time_s for e in eps]),
        decode_tok_s_median=statistics.median(decode) if decode else None,
        cost_usd=None if any(c is None for c in costs) else mean_known(costs),
        statuses=dict(statuses),
    )


def task_figures(episodes: Sequence[EpisodeResult]) -> dict[str, TaskFigures]:
    """Per task id (sorted), the run's repeats averaged."""
    groups: dict[str, list[EpisodeResult]] = defaultdict(list)
    for e in episodes:
        groups[e.task_id].append(e)
    return {t: _task(v) for t, v in sorted(groups.items())}


def category_figures(episodes: Sequence[EpisodeResult]) -> dict[str, TaskFigures]:
    """Per category (sorted): the same figures averaged over the category's episodes; the
    record's task_id holds the category name."""
    groups: dict[str, list[EpisodeResult]] = defaultdict(list)
    for e in episodes:
        groups[e.category].append(e)
    return {
        c: _task(v).model_copy(update={"task_id": c, "difficulty": ""})
        for c, v in sorted(groups.items())
    }
