"""Run-level figures from episode records (docs/design.md#per-run-figures). Reports render these
only."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from agentbench.metrics.intervals import rate_interval, small_sample_note, wilson
from agentbench.metrics.routing import escalation_stats
from agentbench.metrics.stats import median, pass_hat_k, percentile, spread
from agentbench.records import EpisodeResult, StepRecord, ToolResultRecord
from router import LOCAL


class RunSummary(BaseModel):
    """Aggregate figures of a run (or of one category of it)."""

    tasks: int
    episodes: int
    scored_episodes: int = Field(description="Episodes with a score (backend errors excluded).")
    success_rate: float | None
    success_rate_ci: list[float] | None = Field(
        default=None,
        description="95% Wilson interval; with repeats, on the task-clustered effective sample "
        "size (metrics.intervals).",
    )
    mean_score: float | None
    mean_score_ci: list[float] | None = Field(
        default=None, description="95% score interval on the task-clustered mean (0-1 scores)."
    )
    interval_note: str | None = Field(
        default=None, description="Set when fewer than 10 episodes were scored."
    )
    pass_k: dict[str, float] = Field(default_factory=dict, description="pass^k, k = 1..repeats.")
    pass_k_ci: dict[str, list[float]] = Field(
        default_factory=dict,
        description="95% Wilson interval of each pass^k over the tasks with at least k repeats "
        "(a mean of per-task values in [0, 1] spreads at most like a coin: conservative).",
    )
    statuses: dict[str, int] = Field(default_factory=dict)
    steps: int = 0
    thinking_tokens_per_step: float | None = None
    thinking_tokens_method: str | None = None
    output_tokens_per_step: float | None = None
    tokens_per_solved_task: float | None = None
    tokens_method: dict[str, int] = Field(default_factory=dict, description="Steps per method.")
    time_to_done_s_median: float | None = None
    time_to_done_s_p90: float | None = None
    ttft_s_median: float | None = None
    decode_tok_s_median: float | None = None
    decode_tok_s_min: float | None = None
    decode_tok_s_max: float | None = None
    decode_tok_s_spread: float | None = None
    decode_steps: int = Field(default=0, description="Steps with a decode rate (>= 2 tokens).")
    server_decode_tok_s_median: float | None = None
    prefill_tok_s_median: float | None = None
    escalation_rate_calls: float | None = None
    escalation_rate_episodes: float | None = None
    escalation_share_tokens: float | None = Field(
        default=None, description="Frontier calls' prompt+output tokens / all calls'."
    )
    escalation_share_dollars: float | None = Field(
        default=None, description="Frontier dollars / all dollars; None when unpriced."
    )
    cost_usd: float | None = Field(default=None, description="None when any call is unpriced.")
    cost_usd_per_episode: float | None = None
    cost_usd_per_solved_task: float | None = Field(
        default=None, description="Total cost / solved episodes (failed attempts are paid too)."
    )
    unpriced_steps: int = Field(default=0, description="Model calls without a price.")
    cost_note: str | None = Field(default=None, description="Why cost_usd is None, if it is.")
    truncated_steps: int = 0
    tool_calls: int = Field(default=0, description="Tool calls the environment answered.")
    off_script_calls: int = Field(
        default=0,
        description="Tool calls no simulator and no rule answered (the tool's unmatched text).",
    )
    off_script_share: float | None = Field(
        default=None,
        description="off_script_calls / tool_calls: how often the environment, not the model, "
        "limited what the model could learn; None without tool calls.",
    )
    off_script_by_task: dict[str, float] = Field(
        default_factory=dict, description="Task id -> its off-script share, tasks with any."
    )
    simulator_errors: int = Field(
        default=0,
        description="Calls the simulator could not answer (not simulated, or its exception).",
    )
    simulator_errors_by_kind: dict[str, int] = Field(
        default_factory=dict,
        description="What they were ('not simulated: jq `limit/2`', an exception's type) -> "
        "how many calls, most frequent first.",
    )
    tool_call_methods: dict[str, int] = Field(
        default_factory=dict,
        description="Steps with tool calls, by how the calls were read: native (the server's "
        "tool_calls), text_parsed (left as text by the server, read by agentbench), prompt.",
    )



def _method(methods: Counter[Any]) -> str | None:
    if not methods:
        return None
    if len(methods) == 1:
        return next(iter(methods))
    return "mixed: " + ", ".join(f"{m} {n}" for m, n in methods.most_common())


def summarize(episodes: Iterable[EpisodeResult], *, seed: int = 0) -> RunSummary:
    eps = list(episodes)
    scored = [e for e in eps if e.score is not None]
    # Per-step figures count every model call, a discarded (escalated) answer included: it was
    # generated, timed and paid for (docs/design.md#timing-and-tokens).
    steps = [s for e in eps for s in e.steps]
    by_task: dict[str, list[bool]] = defaultdict(list)
    score_groups: dict[str, list[float]] = defaultdict(list)
    for e in scored:
        by_task[e.task_id].append(e.success)
        score_groups[e.task_id].append(float(e.score or 0.0))
    s_ci = rate_interval([[1.0 if ok else 0.0 for ok in v] for v in by_task.values()])
    m_ci = rate_interval(list(score_groups.values()))
    max_n = max((len(v) for v in by_task.values()), default=0)
    counts = [(sum(v), len(v)) for v in by_task.values()]
    pass_k = {str(k): v for k in range(1, max_n + 1) if (v := pass_hat_k(counts, k)) is not None}
    pass_k_ci = {
        k: list(wilson(v * n, n)) for k, v in pass_k.items() if (n := _tasks_with(counts, int(k)))
    }
    reasoning = [s.reasoning_tokens for s in steps if s.reasoning_tokens is not None]
    r_methods = Counter(s.reasoning_method for s in steps if s.reasoning_tokens is not None)
    outputs = [s.output_tokens for s in steps if s.output_tokens is not None]
    solved_tokens = [sum(s.output_tokens or 0 for s in e.steps) for e in eps if e.success]
    decode = [s.decode_tok_s for s in steps if s.decode_tok_s is not None]
    ttd = [e.time_to_done_s for e in eps if e.time_to_done_s is not None]
    costs = [e.cost_usd for e in eps]
    escalation = escalation_stats(eps)
    return RunSummary(
        tasks=len({e.task_id for e in eps}),
        episodes=len(eps),
        scored_episodes=len(scored),
        success_rate=s_ci.value if s_ci else None,
        success_rate_ci=[s_ci.low, s_ci.high] if s_ci else None,
        mean_score=m_ci.value if m_ci else None,
        mean_score_ci=[m_ci.low, m_ci.high] if m_ci else None,
        interval_note=small_sample_note(len(scored)) if scored else None,
        pass_k=pass_k,
        pass_k_ci=pass_k_ci,
        statuses=dict(Counter(e.status for e in eps)),
        steps=len(steps),
        thinking_tokens_per_step=sum(reasoning) / len(reasoning) if reasoning else None,
        thinking_tokens_method=_method(r_methods),
        output_tokens_per_step=sum(outputs) / len(outputs) if outputs else None,
        tokens_per_solved_task=sum(solved_tokens) / len(solved_tokens) if solved_tokens else None,
        tokens_method=dict(Counter(s.tokens_method for s in steps)),
        time_to_done_s_median=median(ttd),
        time_to_done_s_p90=percentile(ttd, 90),
        ttft_s_median=median([s.ttft_s for s in steps if s.ttft_s is not None]),
        decode_tok_s_median=median(decode),
        decode_tok_s_min=min(decode) if decode else None,
        decode_tok_s_max=max(decode) if decode else None,
        decode_tok_s_spread=spread(decode),
        decode_steps=len(decode),
        server_decode_tok_s_median=median(
            [s.server_decode_tok_s for s in steps if s.server_decode_tok_s is not None]
        ),
        prefill_tok_s_median=median([s.prefill_tok_s for s in steps if s.prefill_tok_s]),
        escalation_rate_calls=escalation.rate_calls,
        escalation_rate_episodes=escalation.rate_episodes,
        escalation_share_tokens=escalation.share_tokens,
        escalation_share_dollars=escalation.share_dollars,
        cost_usd=None
        if not costs or any(c is None for c in costs)
        else sum(c for c in costs if c is not None),
        cost_usd_per_episode=_cost_per(costs, len(eps)),
        cost_usd_per_solved_task=_cost_per(costs, sum(1 for e in eps if e.success)),
        unpriced_steps=sum(1 for s in steps if s.cost_usd is None),
        cost_note=_cost_note(steps),
        truncated_steps=sum(1 for s in steps if s.truncated),
        **off_script(eps),
        **simulator_errors(eps),
        tool_call_methods=dict(Counter(s.tool_call_method for s in steps if s.tool_call_method)),
    )


def _tasks_with(counts: list[tuple[int, int]], k: int) -> int:
    return sum(1 for _, n in counts if n >= k)


def _off_script(result: ToolResultRecord) -> bool:
    # records from before sources were kept: the unmatched fallback was kind "unmatched"
    return result.source == "fallback" or result.kind == "unmatched"


def simulator_errors(episodes: list[EpisodeResult]) -> dict[str, Any]:
    """How many calls the simulator could not answer, and what they were."""
    kinds: Counter[str] = Counter()
    for e in episodes:
        for entry in e.simulator_errors:
            # an exception entry is "tool(args): Type: message": its type names the kind
            kinds[entry if entry.startswith("not simulated:") else _exception_kind(entry)] += 1
    return {
        "simulator_errors": sum(kinds.values()),
        "simulator_errors_by_kind": dict(kinds.most_common()),
    }


def _exception_kind(entry: str) -> str:
    parts = entry.rsplit("): ", 1)
    return "error: " + (parts[-1].split(":", 1)[0] if len(parts) == 2 else entry[:80])


def off_script(episodes: list[EpisodeResult]) -> dict[str, Any]:
    """Tool calls, off-script calls, their share, and the share per task that had any."""
    calls: Counter[str] = Counter()
    off: Counter[str] = Counter()
    for e in episodes:
        for step in e.steps:
            calls[e.task_id] += len(step.tool_results)
            off[e.task_id] += sum(1 for r in step.tool_results if _off_script(r))
    total, missed = sum(calls.values()), sum(off.values())
    return {
        "tool_calls": total,
        "off_script_calls": missed,
        "off_script_share": missed / total if total else None,
        "off_script_by_task": {t: off[t] / calls[t] for t in sorted(off) if off[t]},
    }


def _cost_note(steps: list[StepRecord]) -> str | None:
    local = sum(1 for s in steps if s.cost_usd is None and s.target == LOCAL)
    other = sum(1 for s in steps if s.cost_usd is None and s.target != LOCAL)
    if not local and not other:
        return None
    parts = []
    if local:
        parts.append(f"{local} local call(s) unpriced (declare --local-usd-per-hour)")
    if other:
        parts.append(f"{other} frontier call(s) without a price or token usage (see --prices)")
    return f"cost unpriced: {'; '.join(parts)} of {len(steps)} calls"


def _cost_per(costs: list[float | None], n: int) -> float | None:
    if not costs or n == 0 or any(c is None for c in costs):
        return None
    return sum(c for c in costs if c is not None) / n


def by_category(episodes: Iterable[EpisodeResult]) -> dict[str, RunSummary]:
    groups: dict[str, list[EpisodeResult]] = defaultdict(list)
    for e in episodes:
        groups[e.category].append(e)
    return {c: summarize(v) for c, v in sorted(groups.items())}


def episode_figures(steps: list[StepRecord]) -> dict[str, Any]:
    """Per-episode token totals and thinking tokens per step."""
    outputs = [s.output_tokens for s in steps if s.output_tokens is not None]
    reasoning = [s.reasoning_tokens for s in steps if s.reasoning_tokens is not None]
    return {
        "output_tokens": sum(outputs) if outputs else None,
        "reasoning_tokens": sum(reasoning) if reasoning else None,
        "thinking_tokens_per_step": sum(reasoning) / len(reasoning) if reasoning else None,
        "model_time_s": sum(s.duration_s or 0.0 for s in steps),
        "tool_time_s": sum(s.tool_time_s for s in steps),
    }
