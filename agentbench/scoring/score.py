"""From a trace and its checks to a score in [0, 1] and an episode status."""

from __future__ import annotations

from dataclasses import dataclass

from agentbench.agent.loop import EpisodeTrace
from agentbench.records import CheckRecord
from agentbench.scoring.checks import Scorer
from agentbench.scoring.facts import CallFact, EpisodeFacts
from agentbench.sim.base import Change
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task


@dataclass
class EpisodeScore:
    score: float | None
    status: str
    checks: list[CheckRecord]
    explanation: str


def trace_facts(trace: EpisodeTrace) -> EpisodeFacts:
    """The facts scoring reads from a trace (kept steps only)."""
    calls: list[CallFact] = []
    for step in trace.steps:
        if step.discarded:
            continue
        for call, result in zip(step.tool_calls, step.tool_results, strict=False):
            calls.append(
                CallFact(
                    tool=call.name,
                    args=call.parsed,
                    ok=result.ok,
                    identity=tuple(result.identity) if result.identity is not None else None,
                    changes=tuple(
                        Change(c.system, c.action, c.target, c.detail) for c in result.changes
                    ),
                )
            )
    return EpisodeFacts(calls=calls, answer=trace.final_answer, state=trace.state)


def score_trace(task: Task, trace: EpisodeTrace, suite: TaskSuite) -> EpisodeScore:
    """Score a finished trace. Backend errors are not scored (score None), never counted wrong."""
    if trace.status.startswith("backend_error"):
        return EpisodeScore(None, trace.status, [], trace.error or trace.status)
    scorer = Scorer(task, suite.tools, suite.grammar)
    checks = scorer.checks(trace_facts(trace))
    passed = sum(c.passed for c in checks)
    score = passed / len(checks) if checks else 0.0
    if trace.status == "answered":
        status = "ok" if passed == len(checks) else "wrong"
    else:
        status = trace.status
    failed = [f"{c.name}: {c.detail}" for c in checks if not c.passed]
    explanation = f"{passed}/{len(checks)} checks passed"
    if failed:
        explanation += "; failed: " + " | ".join(failed)
    if trace.status not in ("answered",):
        explanation = (
            f"{trace.status}" + (f" ({trace.error})" if trace.error else "") + "; " + explanation
        )
    return EpisodeScore(score, status, checks, explanation)
