"""Scorers: one check per part of a task's expectation, each recording why it passed or failed.

Calls are compared by meaning (agentbench/tasks/expectations.py): a pattern with literal
arguments that the simulator resolves on a fresh start state is compared by identity; any other
pattern by the same text equivalence the environment uses (tasks.matching).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentbench.records import CheckRecord
from agentbench.scoring.answer import answer_check
from agentbench.scoring.facts import CallFact, EpisodeFacts, change_problems
from agentbench.sim.base import Identity
from agentbench.sim.sql_identity import identities_match
from agentbench.tasks.argv import ProgramFlags
from agentbench.tasks.matching import call_matches, forbidden, is_matcher
from agentbench.tasks.model import CallPattern, CallsExpectation, Task, ToolDef

# What a call would mean on a fresh copy of the task's start state (None: nothing resolved).
Identify = Callable[[str, dict[str, Any]], Identity | None]


class Scorer:
    """Scores the episodes of one task."""

    def __init__(
        self,
        task: Task,
        tools: dict[str, ToolDef],
        grammar: dict[str, ProgramFlags],
        identify: Identify | None = None,
    ):
        self.task = task
        self.tools = tools
        self.grammar = grammar
        self._identify = identify
        self._identities: dict[int, Identity | None] = {}

    def expected_identity(self, pattern: CallPattern) -> Identity | None:
        """The identity of a literal pattern on the start state (cached); None if not resolved."""
        key = id(pattern)
        if key not in self._identities:
            literal = pattern.args and not any(is_matcher(v) for v in pattern.args.values())
            resolve = self._identify
            self._identities[key] = (
                resolve(pattern.tool, pattern.args) if literal and resolve else None
            )
        return self._identities[key]

    def matches(self, pattern: CallPattern, call: CallFact, args_mode: str = "subset") -> bool:
        """By identity when the pattern resolves (any tool that means the same: `read_file`
        of a path and `cat` of it are one read), else by tool name and argument text."""
        if call.args is None:
            return False
        if args_mode != "ignore":
            expected = self.expected_identity(pattern)
            if expected is not None:
                return identities_match(call.identity, expected)
        if pattern.tool != call.tool:
            return False
        return call_matches(
            pattern, call.tool, call.args, self.tools, self.grammar, args_mode=args_mode
        )

    def checks(self, facts: EpisodeFacts) -> list[CheckRecord]:
        exp = self.task.expect
        calls = facts.calls
        out = [self._offered(calls), self._side_effects(facts)]
        if exp.first_call:
            ok = bool(calls) and self.matches(exp.first_call, calls[0])
            got = calls[0].show() if calls else "no call"
            out.append(CheckRecord(name="first_call", passed=ok, detail=f"first call: {got}"))
        if exp.no_calls:
            detail = f"{len(calls)} tool call(s) made"
            out.append(CheckRecord(name="no_calls", passed=not calls, detail=detail))
        if exp.calls:
            out.append(self._trajectory(exp.calls, calls))
        if exp.forbid:
            out.append(self._forbid(exp.forbid, calls))
        if exp.max_repeats is not None:
            out.append(self._repeats(exp.max_repeats, [c for c in calls if not c.ok]))
        if exp.answer:
            out.append(answer_check(exp.answer, facts, self.task))
        if exp.end_state:
            state = facts.state
            wrong = {k: state.get(k) for k, v in exp.end_state.items() if state.get(k) != v}
            detail = f"state differs: {wrong}" if wrong else "end state as expected"
            out.append(CheckRecord(name="end_state", passed=not wrong, detail=detail))
        return out

    def _offered(self, calls: list[CallFact]) -> CheckRecord:
        bad = sorted({c.tool for c in calls if c.tool not in self.task.tools})
        offered = ", ".join(self.task.tools) or "none"
        detail = (
            f"called a tool not offered: {', '.join(bad)} (offered: {offered})"
            if bad
            else "only offered tools called"
        )
        return CheckRecord(name="tools_offered", passed=not bad, detail=detail)

    def _side_effects(self, facts: EpisodeFacts) -> CheckRecord:
        spec = self.task.expect.changes
        changes = facts.changes
        if spec is None:
            problems = [f"unexpected change (the task is read-only): {c}" for c in changes]
        else:
            problems = change_problems(spec.allowed, spec.required, spec.ordered, changes)
        detail = "; ".join(problems) if problems else f"{len(changes)} change(s), as expected"
        return CheckRecord(name="side_effects", passed=not problems, detail=detail[:600])

    def _forbid(self, patterns: list[CallPattern], calls: list[CallFact]) -> CheckRecord:
        def hit(p: CallPattern, c: CallFact) -> bool:
            expected = self.expected_identity(p)
            if expected is not None and identities_match(c.identity, expected):
                return True
            return c.args is not None and forbidden(p, c.tool, c.args, self.tools, self.grammar)

        bad = [c for c in calls if any(hit(p, c) for p in patterns)]
        detail = f"forbidden call made: {bad[0].show()}" if bad else "no forbidden call"
        return CheckRecord(name="forbid", passed=not bad, detail=detail)

    def _trajectory(self, exp: CallsExpectation, calls: list[CallFact]) -> CheckRecord:
        def match(p: CallPattern, c: CallFact) -> bool:
            return self.matches(p, c, exp.args)

        patterns = exp.calls
        extra = ""
        if exp.mode == "strict":
            ok = len(calls) == len(patterns) and all(
                match(p, c) for p, c in zip(patterns, calls, strict=True)
            )
        elif exp.mode == "subset":
            ok = all(any(match(p, c) for p in patterns) for c in calls)
        elif exp.mode == "ordered":
            used = _in_order(patterns, calls, match)
            writes = [c for i, c in enumerate(calls) if i not in used and c.changes]
            ok = len(used) == len(patterns) and not writes
            if writes:
                extra = f"; an extra call changed state: {writes[0].show()}"
        else:
            matched = _max_matching(patterns, calls, match)
            ok = matched == len(patterns) and (
                exp.mode == "superset" or len(calls) == len(patterns)
            )
        shown = ", ".join(c.show() for c in calls) or "none"
        detail = f"{len(calls)} call(s) vs {len(patterns)} expected{extra}: {shown}"
        return CheckRecord(name=f"calls_{exp.mode}", passed=ok, detail=detail[:600])

    def _repeats(self, limit: int, failing: list[CallFact]) -> CheckRecord:
        worst, worst_call = 0, None
        for call in failing:
            if call.args is None:
                continue
            pattern = CallPattern(tool=call.tool, args=call.args)
            same = sum(1 for other in failing if self._same_failure(pattern, call, other))
            if same > worst:
                worst, worst_call = same, call
        ok = worst <= limit
        detail = (
            f"a failing call was repeated {worst} times: {worst_call.show()}"
            if worst_call and not ok
            else f"no failing call repeated more than {limit}x"
        )
        return CheckRecord(name="max_repeats", passed=ok, detail=detail)

    def _same_failure(self, pattern: CallPattern, call: CallFact, other: CallFact) -> bool:
        if other.tool != call.tool or other.args is None:
            return False
        if call.identity is not None:
            return other.identity == call.identity
        return call_matches(
            pattern, other.tool, other.args, self.tools, self.grammar, args_mode="exact"
        )


def _in_order(
    patterns: list[CallPattern],
    calls: list[CallFact],
    match: Callable[[CallPattern, CallFact], bool],
) -> set[int]:
    """Indices of the calls matched, in order, by the patterns (earliest match each)."""
    used: set[int] = set()
    position = 0
    for pattern in patterns:
        while position < len(calls) and not match(pattern, calls[position]):
            position += 1
        if position == len(calls):
            break
        used.add(position)
        position += 1
    return used


def _max_matching(
    patterns: list[CallPattern],
    calls: list[CallFact],
    match: Callable[[CallPattern, CallFact], bool],
) -> int:
    """Size of a maximum one-to-one matching of patterns to calls (augmenting paths)."""
    edges = [[j for j, c in enumerate(calls) if match(p, c)] for p in patterns]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return sum(augment(i, set()) for i in range(len(patterns)))
