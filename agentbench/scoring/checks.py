"""Scorers: one check per part of a task's expectation, each recording why it passed or failed.

Process parts are judged by evidence and effect (agentbench.scoring.process): required reads by
the facts their outputs showed, plans by their end state and the order of their changes, writes
by intent. The exceptions that name a call (`forbid`, evidence by `call`) compare it by meaning:
a pattern with literal arguments that the simulator resolves on a fresh start state by
identity, any other by the text equivalence the environment uses (tasks.matching).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentbench.records import CheckRecord
from agentbench.scoring.answer import answer_check
from agentbench.scoring.facts import CallFact, EpisodeFacts, change_problems
from agentbench.scoring.process import (
    apart,
    evidence_missing,
    exact_text,
    fact_in,
    harm_problems,
    normalise,
)
from agentbench.sim.core.base import Identity
from agentbench.sim.sql.identity import identities_match
from agentbench.tasks.argv import ProgramFlags
from agentbench.tasks.matching import call_matches, forbidden, is_matcher
from agentbench.tasks.model import CallPattern, Evidence, FinalRead, Task, ToolDef

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

    def checks(
        self,
        facts: EpisodeFacts,
        final: list[str] | None = None,
    ) -> list[CheckRecord]:
        """The checks of one episode: `facts.calls` carry the output each call received and the
        writes it attempted (evidence, harm); `final` the outputs of `expect.final`'s reads on
        the end state, in order."""
        exp = self.task.expect
        calls = facts.calls
        out = [self._offered(calls), self._side_effects(facts)]
        if exp.evidence:
            out.append(self._evidence(exp.evidence, calls))
        if exp.final:
            out.append(self._final(exp.final, final or []))
        if exp.forbid:
            out.append(self._forbid(list(exp.forbid), calls))
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

    def _evidence(self, items: list[Evidence], calls: list[CallFact]) -> CheckRecord:
        missing = []
        for item in items:
            pattern = item.call
            by_call = [self.hits(pattern, c) for c in calls] if pattern else None
            why = evidence_missing(item, calls, by_call)
            if why:
                missing.append(why)
        together = self.task.expect.parallel
        if not missing and together:
            why = apart(
                [i for i in items if i.name in together],
                calls,
                {i.name: [self.hits(i.call, c) for c in calls] for i in items if i.call},
            )
            if why:
                missing.append(why)
        detail = "; ".join(missing) if missing else f"all {len(items)} required read(s) shown"
        return CheckRecord(name="evidence", passed=not missing, detail=detail[:600])

    @staticmethod
    def _final(reads: list[FinalRead], outputs: list[str]) -> CheckRecord:
        problems = []
        for index, read in enumerate(reads):
            output = outputs[index] if index < len(outputs) else ""
            shown = normalise(output)
            # the end state is the stored value itself: 'Refunded' is not the 'refunded' asked for
            lacking = [f for f in read.shows if not fact_in(f, exact_text(output), exact=True)]
            present = [f for f in read.absent if fact_in(f, shown)]
            parts = [f"lacks {lacking}"] if lacking else []
            parts += [f"still shows {present}"] if present else []
            if parts:
                problems.append(f"{read.name}: the end state " + " and ".join(parts))
        detail = "; ".join(problems) if problems else f"end state shows all {len(reads)} read(s)"
        return CheckRecord(name="final", passed=not problems, detail=detail[:600])

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
        problems += harm_problems(spec, facts.calls)
        detail = "; ".join(problems) if problems else f"{len(changes)} change(s), as expected"
        return CheckRecord(name="side_effects", passed=not problems, detail=detail[:600])

    def hits(self, pattern: CallPattern, call: CallFact) -> bool:
        """Whether the call, or one command of its shell line (prefixes stripped), is the
        pattern's: by identity for a literal pattern the simulator resolves, else by text."""
        expected = self.expected_identity(pattern)
        if expected is not None and identities_match(call.identity, expected):
            return True
        return call.args is not None and forbidden(
            pattern, call.tool, call.args, self.tools, self.grammar
        )

    def _forbid(self, patterns: list[CallPattern], calls: list[CallFact]) -> CheckRecord:
        bad = [c for c in calls if any(self.hits(p, c) for p in patterns)]
        detail = f"forbidden call made: {bad[0].show()}" if bad else "no forbidden call"
        return CheckRecord(name="forbid", passed=not bad, detail=detail)

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
