"""From a trace and its checks to a score in [0, 1] and an episode status."""

from __future__ import annotations

from dataclasses import dataclass

from agentbench.records import CheckRecord, EpisodeTrace
from agentbench.scoring.checks import Scorer
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task


@dataclass
class EpisodeScore:
    score: float | None
    status: str
    checks: list[CheckRecord]
    explanation: str


def score_trace(task: Task, trace: EpisodeTrace, suite: TaskSuite) -> EpisodeScore:
    """Score a finished trace. Backend errors are not scored (score None), never counted wrong."""
    if trace.status.startswith("backend_error"):
        return EpisodeScore(None, trace.status, [], trace.error or trace.status)
    failing = [(n, a) for n, a, ok in trace.call_results() if not ok]
    checks = Scorer(task, suite.tools, suite.grammar).checks(
        trace.calls(), failing, trace.final_answer, trace.state
    )
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
