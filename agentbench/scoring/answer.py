"""The final-answer check: claims and decoys (by what the answer asserts), one JSON object
against its schema, and the plain text checks kept for exact tokens."""

from __future__ import annotations

import re
from typing import Any

import jsonschema

from agentbench.records import CheckRecord
from agentbench.scoring.claims import claim_problems, json_spans
from agentbench.scoring.facts import EpisodeFacts, condition_holds
from agentbench.tasks.expectations import AnswerExpectation
from agentbench.tasks.matching import value_matches
from agentbench.tasks.model import ArgKind


def json_values(text: str) -> list[Any]:
    """Every top-level JSON object, or array holding one, in the text (fences are just text)."""
    return [value for _, _, value in json_spans(text)]


def _objects(values: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for value in values:
        out += [value] if isinstance(value, dict) else [v for v in value if isinstance(v, dict)]
    return out


def json_problems(exp: AnswerExpectation, answer: str) -> list[str]:
    """The answer must hold exactly one JSON object, valid under the schema, with the fields."""
    values = json_values(answer)
    objects = _objects(values)
    if not objects:
        return ["answer holds no JSON object"]
    if len(objects) > 1 or any(isinstance(v, list) for v in values):
        return [f"answer holds {len(objects)} JSON objects; exactly one is expected"]
    obj = objects[0]
    problems: list[str] = []
    if exp.json_schema is not None:
        try:
            jsonschema.validate(obj, exp.json_schema)
        except jsonschema.ValidationError as exc:
            where = "/".join(str(p) for p in exc.absolute_path)
            problems.append(f"JSON schema{' at ' + where if where else ''}: {exc.message}")
    for key, expected in exp.json_fields.items():
        if key not in obj:
            problems.append(f"JSON key {key!r} missing")
        elif not value_matches(expected, obj[key], ArgKind.text, {}, ignore_case=True):
            problems.append(f"JSON key {key!r} is {obj[key]!r}")
    return problems


def text_problems(exp: AnswerExpectation, answer: str) -> list[str]:
    low = answer.casefold()
    problems = [f"missing {s!r}" for s in exp.contains if s.casefold() not in low]
    if exp.contains_any and not any(s.casefold() in low for s in exp.contains_any):
        problems.append(f"none of {exp.contains_any!r}")
    problems += [f"must not say {s!r}" for s in exp.not_contains if s.casefold() in low]
    if exp.regex and not re.search(exp.regex, answer, re.IGNORECASE | re.DOTALL):
        problems.append(f"does not match /{exp.regex}/")
    return problems


def answer_check(exp: AnswerExpectation, facts: EpisodeFacts) -> CheckRecord:
    answer = facts.answer
    if answer is None or not answer.strip():
        return CheckRecord(name="answer", passed=False, detail="no final answer")
    problems = text_problems(exp, answer)
    if exp.json_schema is not None or exp.json_fields:
        problems += json_problems(exp, answer)
    claims = [c for c in exp.claims if condition_holds(c.when, facts)]
    decoys = [d for d in exp.decoys if condition_holds(d.when, facts)]
    if claims or decoys:
        problems += claim_problems(answer, claims, decoys)
    detail = "; ".join(problems) if problems else "answer accepted"
    return CheckRecord(name="answer", passed=not problems, detail=detail[:600])
