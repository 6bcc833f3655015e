"""The final-answer check: claims and decoys (by what the answer asserts), one JSON object
against its schema, and a plain regex for an exact token."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from jsonschema.exceptions import best_match
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from agentbench.records import CheckRecord
from agentbench.scoring.claims import claim_problems, json_spans
from agentbench.scoring.facts import EpisodeFacts, condition_holds
from agentbench.tasks.expectations import AnswerExpectation, ChangePattern, Claim, StateCondition
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


@lru_cache(maxsize=256)
def schema_validator(schema_json: str) -> Validator:
    """A validator for a task's schema, built once (`tasks validate` checks the schema itself;
    checking it again on every answer cost more than the rest of scoring)."""
    schema = json.loads(schema_json)
    validator: Validator = validator_for(schema)(schema)
    return validator


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
        error = best_match(schema_validator(json.dumps(exp.json_schema)).iter_errors(obj))
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path)
            problems.append(f"JSON schema{' at ' + where if where else ''}: {error.message}")
    for key, expected in exp.json_fields.items():
        if key not in obj:
            problems.append(f"JSON key {key!r} missing")
        elif not value_matches(expected, obj[key], ArgKind.text, {}, ignore_case=True):
            problems.append(f"JSON key {key!r} is {obj[key]!r}")
    return problems


def _did(name: str, verbs: list[str], actions: list[str]) -> Claim:
    """A built-in decoy: the answer says, in the first person, that it did something no
    recorded change shows."""
    phrases = [f"{who} {verb}" for verb in verbs for who in ("I", "I've", "I have")]
    unchanged = [ChangePattern(action=a) for a in actions]
    return Claim(
        name=f"reports an action that did not happen ({name})",
        phrases=phrases,
        when=StateCondition(unchanged=unchanged),
    )


# Every checked answer is also held to the end state: a report of an action the environment
# never saw (the drain failed, yet "I rebooted it") fails, whatever the task lists.
STATE_DECOYS = (
    _did("delete", ["deleted", "removed"], ["delete"]),
    _did("restart", ["restarted", "reloaded"], ["restart", "reload", "rollout-restart"]),
    _did("scale", ["scaled"], ["scale"]),
    _did("drain", ["drained"], ["drain"]),
    _did("cordon", ["cordoned"], ["cordon"]),
    _did("reboot", ["rebooted"], ["reboot"]),
    _did("rollback", ["rolled back"], ["rollout-undo"]),
)


def answer_check(exp: AnswerExpectation, facts: EpisodeFacts) -> CheckRecord:
    answer = facts.answer
    if answer is None or not answer.strip():
        return CheckRecord(name="answer", passed=False, detail="no final answer")
    problems: list[str] = []
    if exp.regex and not re.search(exp.regex, answer, re.IGNORECASE | re.DOTALL):
        problems.append(f"does not match /{exp.regex}/")
    if exp.json_schema is not None or exp.json_fields:
        problems += json_problems(exp, answer)
    claims = [c for c in exp.claims if condition_holds(c.when, facts)]
    decoys = [d for d in [*exp.decoys, *STATE_DECOYS] if condition_holds(d.when, facts)]
    if claims or decoys:
        problems += claim_problems(answer, claims, decoys)
    detail = "; ".join(problems) if problems else "answer accepted"
    return CheckRecord(name="answer", passed=not problems, detail=detail[:600])
