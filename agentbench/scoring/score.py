"""From a trace and its checks to a score in [0, 1] and an episode status."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from agentbench.records import CheckRecord, EpisodeTrace
from agentbench.scoring.checks import Scorer
from agentbench.scoring.facts import Attempt, CallFact, EpisodeFacts
from agentbench.sim.core.base import Change, Identity
from agentbench.sim.world import World
from agentbench.tasks.env import SimulatedEnvironment, world_spec
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.matching import args_match
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
    kept = [step for step in trace.steps if not step.discarded]
    for index, step in enumerate(kept):
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
                    output=result.output,
                    source=result.source,
                    attempts=tuple(
                        Attempt(w.program, w.target, w.why) for w in result.attempted_writes
                    ),
                    step=index,
                )
            )
    return EpisodeFacts(calls=calls, answer=trace.final_answer, state=trace.state)


class StartState:
    """What a call would mean on a fresh copy of the task's start state: the identity the
    simulator resolves, or None where a rule answers it (rules are overrides) or no simulator
    serves it. The World is built on first use and every answer is kept (the start state never
    changes), so a task pays for it once per process, not once per episode."""

    def __init__(self, task: Task, suite: TaskSuite) -> None:
        self.task = task
        self.suite = suite
        self._world: World | None = None
        self._known: dict[str, Identity | None] = {}

    @classmethod
    def of(cls, task: Task, suite: TaskSuite) -> StartState:
        """The shared StartState of this task object (a bounded per-process cache)."""
        key = (id(task), id(suite))
        found = _START_STATES.get(key)
        if found is None or found.task is not task or found.suite is not suite:
            if len(_START_STATES) >= 512:
                _START_STATES.clear()
            found = _START_STATES[key] = cls(task, suite)
        return found

    def __call__(self, tool: str, args: dict[str, Any]) -> Identity | None:
        key = json.dumps([tool, args], sort_keys=True)
        if key not in self._known:
            self._known[key] = self._resolve(tool, args)
        return self._known[key]

    def _resolve(self, tool: str, args: dict[str, Any]) -> Identity | None:
        environment = self.task.environment
        if not environment.declared:
            return None
        definition = self.suite.tools.get(tool)
        grammar = self.suite.grammar
        for rule in environment.rules:
            holds = all(environment.state.get(k) == v for k, v in rule.when.items())
            if (
                rule.tool == tool
                and holds
                and args_match(rule.args, args, definition, grammar, exact_keys=False)
            ):
                return None
        if self._world is None:
            spec = world_spec(environment)
            assert spec is not None
            self._world = World(spec)
        return self._world.identify(tool, args)


_START_STATES: dict[tuple[int, int], StartState] = {}


def final_outputs(task: Task, suite: TaskSuite, calls: list[CallFact]) -> list[str]:
    """The outputs of `expect.final`'s reads on the episode's end state: the episode's calls
    replayed, in order, on a fresh copy of the start state (the environment is deterministic,
    so this is the state the episode left, also for a stored trace)."""
    if not task.expect.final:
        return []
    env = SimulatedEnvironment(task, suite.tools, suite.grammar)
    for call in calls:
        if call.args is not None and call.tool in env.tools:
            env.execute(call.tool, call.args)
    return [env.execute(read.tool, read.args).content() for read in task.expect.final]


GUARDS = frozenset({"tools_offered", "side_effects", "forbid", "max_repeats"})
"""Checks that an episode did no harm. They hold trivially for an agent that does nothing, so
they earn no credit: a failed guard scores the episode 0, a passed one adds nothing."""


def _score(checks: list[CheckRecord]) -> float:
    """The share of goal checks passed (evidence, final reads, end state, answer), or 0 when a
    guard failed; a task with guards only scores their share."""
    if not checks:
        return 0.0
    if any(not c.passed for c in checks if c.name in GUARDS):
        return 0.0
    goals = [c for c in checks if c.name not in GUARDS] or checks
    return sum(c.passed for c in goals) / len(goals)


def score_trace(task: Task, trace: EpisodeTrace, suite: TaskSuite) -> EpisodeScore:
    """Score a finished trace. Backend errors are not scored (score None), never counted wrong."""
    if trace.status.startswith("backend_error"):
        return EpisodeScore(None, trace.status, [], trace.error or trace.status)
    scorer = Scorer(task, suite.tools, suite.grammar, StartState.of(task, suite))
    facts = trace_facts(trace)
    checks = scorer.checks(facts, final_outputs(task, suite, facts.calls))
    passed = sum(c.passed for c in checks)
    score = _score(checks)
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


# One thread scores every episode of this process, in turn: scoring replays calls on a task's
# shared StartState World (not safe for two threads at once), and it is CPU work that must not
# stop the event loop from timing the episodes still streaming beside it.
_SCORER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="agentbench-score")


async def score_episode(task: Task, trace: EpisodeTrace, suite: TaskSuite) -> EpisodeScore:
    """`score_trace` off the event loop (on the process's one scoring thread)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_SCORER, score_trace, task, trace, suite)
