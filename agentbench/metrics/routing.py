"""Routing economics: how often a router escalated, what that cost, and what it bought back.

Definitions (docs/router.md says the same for users):

- A *call* is one model request; an escalation after review makes two calls for one step (the
  discarded local answer and the frontier's), and both are paid for.
- `rate_calls`: frontier calls / all calls (discarded ones included). This is the results
  contract's `escalation_rate_calls`.
- `rate_steps`: kept steps answered by the frontier / kept steps: the share of *decisions* sent
  up, the x-axis of APGR (RouteLLM counts queries, each answered by one model).
- `rate_episodes`: episodes with at least one frontier call / episodes.
- Shares of tokens (prompt + output, every call) and of dollars (None when a call is unpriced).
- Trigger: the part of the router's reason before the first ':' (router/policies.py).
- Rescue (escalations after review only, where the local answer is known): the frontier's answer
  *changed* the step (other tool calls or another final answer) and its outcome was good (valid
  call, every tool result ok, not truncated) -> rescued; changed but bad -> not rescued; the same
  answer -> unchanged (the escalation bought nothing at this step).

Comparing runs on cost and accuracy (PGR, APGR, the Pareto front) is metrics.routes.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from agentbench.records import EpisodeResult, StepRecord
from router import LOCAL

POSITION_CAP = 6  # positions >= this are pooled as "6+"


def trigger_of(reason: str | None) -> str:
    if not reason:
        return "unknown"
    return reason.split(":", 1)[0].strip() or "unknown"


def _tokens(step: StepRecord) -> int | None:
    if step.prompt_tokens is None and step.output_tokens is None:
        return None
    return (step.prompt_tokens or 0) + (step.output_tokens or 0)


def same_answer(a: StepRecord, b: StepRecord) -> bool:
    calls_a = [(c.name, c.parsed if c.parsed is not None else c.arguments) for c in a.tool_calls]
    calls_b = [(c.name, c.parsed if c.parsed is not None else c.arguments) for c in b.tool_calls]
    if calls_a or calls_b:
        return calls_a == calls_b
    return " ".join(a.content.split()) == " ".join(b.content.split())


def _good_outcome(step: StepRecord) -> bool:
    if step.truncated or step.invalid_tool_call or step.error:
        return False
    if step.tool_calls:
        return all(r.ok for r in step.tool_results) and len(step.tool_results) == len(
            step.tool_calls
        )
    return bool(step.content.strip())


class EscalationStats(BaseModel):
    """Escalation figures of one run."""

    calls: int = 0
    frontier_calls: int = 0
    discarded_calls: int = 0
    rate_calls: float | None = None
    steps: int = Field(default=0, description="Kept steps (one per decision).")
    frontier_steps: int = 0
    rate_steps: float | None = None
    episodes: int = 0
    episodes_escalated: int = 0
    rate_episodes: float | None = None
    tokens: int | None = None
    frontier_tokens: int | None = None
    share_tokens: float | None = None
    cost_usd: float | None = None
    frontier_cost_usd: float | None = None
    share_dollars: float | None = Field(default=None, description="None when a call is unpriced.")
    unpriced_calls: int = 0
    by_position: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Kept step position (1-based) -> steps, frontier, rate."
    )
    triggers: dict[str, int] = Field(
        default_factory=dict, description="Frontier calls per trigger of the reason."
    )
    review_escalations: int = 0
    rescued: int = 0
    not_rescued: int = 0
    unchanged: int = 0
    success_escalated: float | None = Field(
        default=None, description="Success rate of episodes with a frontier call."
    )
    success_not_escalated: float | None = None


def escalation_stats(episodes: Iterable[EpisodeResult]) -> EscalationStats:
    eps = list(episodes)
    out = EscalationStats(episodes=len(eps))
    token_total = token_frontier = 0
    tokens_known = True
    costs: list[float | None] = []
    frontier_costs: list[float | None] = []
    positions: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    triggers: Counter[str] = Counter()
    succ_esc: list[float] = []
    succ_not: list[float] = []
    for e in eps:
        position = 0
        pending_local: StepRecord | None = None
        escalated = False
        for step in e.steps:
            frontier = step.target != LOCAL
            out.calls += 1
            out.frontier_calls += frontier
            out.discarded_calls += step.discarded
            escalated |= frontier
            n = _tokens(step)
            if n is None:
                tokens_known = False
            else:
                token_total += n
                token_frontier += n if frontier else 0
            costs.append(step.cost_usd)
            if frontier:
                frontier_costs.append(step.cost_usd)
                triggers[trigger_of(step.router.reason if step.router else None)] += 1
            if step.discarded:
                pending_local = step if not frontier else None
                continue
            position += 1
            slot = positions[min(position, POSITION_CAP)]
            slot[0] += 1
            slot[1] += frontier
            out.steps += 1
            out.frontier_steps += frontier
            if pending_local is not None and frontier:
                out.review_escalations += 1
                if same_answer(pending_local, step):
                    out.unchanged += 1
                elif _good_outcome(step):
                    out.rescued += 1
                else:
                    out.not_rescued += 1
            pending_local = None
        out.episodes_escalated += escalated
        if e.score is not None:
            (succ_esc if escalated else succ_not).append(1.0 if e.success else 0.0)
    out.rate_calls = out.frontier_calls / out.calls if out.calls else None
    out.rate_steps = out.frontier_steps / out.steps if out.steps else None
    out.rate_episodes = out.episodes_escalated / len(eps) if eps else None
    if tokens_known and out.calls:
        out.tokens, out.frontier_tokens = token_total, token_frontier
        out.share_tokens = token_frontier / token_total if token_total else None
    out.unpriced_calls = sum(1 for c in costs if c is None)
    if costs and not out.unpriced_calls:
        out.cost_usd = sum(c for c in costs if c is not None)
        out.frontier_cost_usd = sum(c for c in frontier_costs if c is not None)
        out.share_dollars = out.frontier_cost_usd / out.cost_usd if out.cost_usd else None
    elif frontier_costs and all(c is not None for c in frontier_costs):
        out.frontier_cost_usd = sum(c for c in frontier_costs if c is not None)
    out.by_position = {
        (f"{p}+" if p == POSITION_CAP else str(p)): {
            "steps": s,
            "frontier": f,
            "rate": f / s if s else None,
        }
        for p, (s, f) in sorted(positions.items())
    }
    out.triggers = dict(triggers.most_common())
    out.success_escalated = sum(succ_esc) / len(succ_esc) if succ_esc else None
    out.success_not_escalated = sum(succ_not) / len(succ_not) if succ_not else None
    return out
