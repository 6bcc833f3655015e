"""Scorers: one check per part of a task's expectation, each recording why it passed or failed.

Tool calls are compared with the same equivalence the environment uses (tasks.matching), so a
call the simulator answered as correct is the call scoring accepts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import jsonschema

from agentbench.records import CheckRecord
from agentbench.tasks.argv import ProgramFlags
from agentbench.tasks.matching import call_matches, value_matches
from agentbench.tasks.model import (
    AnswerExpectation,
    ArgKind,
    CallPattern,
    CallsExpectation,
    Task,
    ToolDef,
)

Calls = list[tuple[str, dict[str, Any] | None]]


def _show(call: tuple[str, dict[str, Any] | None]) -> str:
    name, args = call
    return f"{name}({json.dumps(args) if args is not None else '<invalid JSON>'})"


class Scorer:
    """Scores traces of one task."""

    def __init__(self, task: Task, tools: dict[str, ToolDef], grammar: dict[str, ProgramFlags]):
        self.task = task
        self.tools = tools
        self.grammar = grammar

    def _matches(
        self,
        pattern: CallPattern,
        call: tuple[str, dict[str, Any] | None],
        args_mode: str = "subset",
    ) -> bool:
        name, args = call
        if args is None:
            return False
        return call_matches(pattern, name, args, self.tools, self.grammar, args_mode=args_mode)

    def checks(
        self,
        calls: Calls,
        failing_calls: Calls,
        final_answer: str | None,
        state: dict[str, Any],
    ) -> list[CheckRecord]:
        exp = self.task.expect
        out: list[CheckRecord] = []
        if exp.first_call:
            ok = bool(calls) and self._matches(exp.first_call, calls[0])
            got = _show(calls[0]) if calls else "no call"
            out.append(CheckRecord(name="first_call", passed=ok, detail=f"first call: {got}"))
        if exp.no_calls:
            out.append(
                CheckRecord(
                    name="no_calls", passed=not calls, detail=f"{len(calls)} tool call(s) made"
                )
            )
        if exp.calls:
            out.append(self._trajectory(exp.calls, calls))
        if exp.forbid:
            bad = [c for c in calls if any(self._matches(p, c) for p in exp.forbid)]
            out.append(
                CheckRecord(
                    name="forbid",
                    passed=not bad,
                    detail=f"forbidden call made: {_show(bad[0])}" if bad else "no forbidden call",
                )
            )
        if exp.max_repeats is not None:
            out.append(self._repeats(exp.max_repeats, failing_calls))
        if exp.answer:
            out.append(self._answer(exp.answer, final_answer))
        if exp.end_state:
            wrong = {k: state.get(k) for k, v in exp.end_state.items() if state.get(k) != v}
            out.append(
                CheckRecord(
                    name="end_state",
                    passed=not wrong,
                    detail=f"state differs: {wrong}" if wrong else "end state as expected",
                )
            )
        return out

    def _trajectory(self, exp: CallsExpectation, calls: Calls) -> CheckRecord:
        def match(p: CallPattern, c: tuple[str, dict[str, Any] | None]) -> bool:
            return self._matches(p, c, exp.args)

        patterns = exp.calls
        if exp.mode == "strict":
            ok = len(calls) == len(patterns) and all(
                match(p, c) for p, c in zip(patterns, calls, strict=True)
            )
        elif exp.mode == "subset":
            ok = all(any(match(p, c) for p in patterns) for c in calls)
        else:
            matched = _max_matching(patterns, calls, match)
            ok = matched == len(patterns) and (
                exp.mode == "superset" or len(calls) == len(patterns)
            )
        shown = ", ".join(_show(c) for c in calls) or "none"
        return CheckRecord(
            name=f"calls_{exp.mode}",
            passed=ok,
            detail=f"{len(calls)} call(s) vs {len(patterns)} expected: {shown}"[:600],
        )

    def _repeats(self, limit: int, failing: Calls) -> CheckRecord:
        worst, worst_call = 0, None
        for i, call in enumerate(failing):
            same = sum(
                1
                for other in failing
                if other[0] == call[0]
                and call[1] is not None
                and self._matches(CallPattern(tool=call[0], args=call[1]), other, "exact")
            )
            if same > worst:
                worst, worst_call = same, failing[i]
        ok = worst <= limit
        detail = (
            f"a failing call was repeated {worst} times: {_show(worst_call)}"
            if worst_call and not ok
            else f"no failing call repeated more than {limit}x"
        )
        return CheckRecord(name="max_repeats", passed=ok, detail=detail)

    def _answer(self, exp: AnswerExpectation, answer: str | None) -> CheckRecord:
        if answer is None or not answer.strip():
            return CheckRecord(name="answer", passed=False, detail="no final answer")
        problems: list[str] = []
        low = answer.casefold()
        problems += [f"missing {s!r}" for s in exp.contains if s.casefold() not in low]
        if exp.contains_any and not any(s.casefold() in low for s in exp.contains_any):
            problems.append(f"none of {exp.contains_any!r}")
        problems += [f"must not say {s!r}" for s in exp.not_contains if s.casefold() in low]
        if exp.regex and not re.search(exp.regex, answer, re.IGNORECASE | re.DOTALL):
            problems.append(f"does not match /{exp.regex}/")
        if exp.json_schema is not None or exp.json_fields:
            problems += _json_problems(exp, answer)
        detail = "; ".join(problems) if problems else "answer accepted"
        return CheckRecord(name="answer", passed=not problems, detail=detail[:600])


def _json_problems(exp: AnswerExpectation, answer: str) -> list[str]:
    from agentbench.jsontext import json_candidates

    objects = [v for v in json_candidates(answer) if isinstance(v, dict)]
    if not objects:
        return ["answer holds no JSON object"]
    obj = objects[0]
    problems: list[str] = []
    if exp.json_schema is not None:
        try:
            jsonschema.validate(obj, exp.json_schema)
        except jsonschema.ValidationError as exc:
            problems.append(f"JSON schema: {exc.message}")
    for key, expected in exp.json_fields.items():
        if key not in obj:
            problems.append(f"JSON key {key!r} missing")
        elif not value_matches(expected, obj[key], ArgKind.text, {}, ignore_case=True):
            problems.append(f"JSON key {key!r} is {obj[key]!r}")
    return problems


def _max_matching(
    patterns: list[CallPattern],
    calls: Calls,
    match: Callable[[CallPattern, tuple[str, dict[str, Any] | None]], bool],
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
