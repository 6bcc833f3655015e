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
from agentbench.scoring.actions import (
    cited_evidence_problems,
    claimed_action_problems,
    failed_call_claimed_problems,
)
from agentbench.scoring.addresses import address_problems, identifier_problems
from agentbench.scoring.advice import advice_problems
from agentbench.scoring.aftermath import stale_identity_problems, unverified_result_problems
from agentbench.scoring.asked import spelling_problems
from agentbench.scoring.assertions import Reading, fact_problems
from agentbench.scoring.bound_figures import bound_figure_problems, bound_moment_problems
from agentbench.scoring.causality import causality_problems
from agentbench.scoring.change_counts import change_count_problems
from agentbench.scoring.checked import claimed_check_problems
from agentbench.scoring.claims import claim_problems, json_spans, sentence_clauses, sentences
from agentbench.scoring.clocks import (
    dated_clock_problems,
    half_day_problems,
    unstated_time_problems,
    zone_problems,
)
from agentbench.scoring.columns import swapped_column_problems
from agentbench.scoring.counts import (
    count_problems,
    event_repeat_problems,
    occurrence_problems,
    restart_count_problems,
)
from agentbench.scoring.cron import run_count_problems
from agentbench.scoring.crossed import crossed_value_problems, glossed_record_problems
from agentbench.scoring.elapsed import aged_moments, elapsed_problems, environment_clock
from agentbench.scoring.entities import declared_entities
from agentbench.scoring.enums import enum_problems
from agentbench.scoring.equivalences import equivalence_problems
from agentbench.scoring.facts import EpisodeFacts, condition_holds
from agentbench.scoring.field_figures import field_figure_problems
from agentbench.scoring.figures import figure_problems, required_unit_problems
from agentbench.scoring.handover import handover_problems
from agentbench.scoring.headline import headline_problems
from agentbench.scoring.http_status import status_party_problems, status_problems
from agentbench.scoring.labels import swapped_label_problems
from agentbench.scoring.lines import frame_problems, line_number_problems
from agentbench.scoring.misconceptions import misconception_problems
from agentbench.scoring.naming import crossed_parent_problems, unknown_user_problems
from agentbench.scoring.only import uniqueness_problems
from agentbench.scoring.pairs import pair_problems
from agentbench.scoring.patterns import SlowPattern, task_pattern
from agentbench.scoring.quantities import quantities
from agentbench.scoring.quotes import misquote_problems, unrun_program_quote_problems
from agentbench.scoring.rejects import reject_problems
from agentbench.scoring.runs import failed_source_problems, unrun_probe_problems
from agentbench.scoring.siblings import sibling_problems
from agentbench.scoring.signals import signal_problems
from agentbench.scoring.spelled import with_digits
from agentbench.scoring.stamps import stamp_problems
from agentbench.scoring.tables import crossed_row_problems, crossed_word_problems
from agentbench.scoring.unsupported import unsupported_problems
from agentbench.scoring.validated import validated_value_problems
from agentbench.scoring.weekdays import iso_week_problems, weekday_problems
from agentbench.tasks.expectations import AnswerExpectation
from agentbench.tasks.matching import value_matches
from agentbench.tasks.model import ArgKind, Environment, Task

MAX_ANSWER_CHARS = 16_000  # about 6x the longest answer of every case and real run so far
MAX_ANSWER_CLAUSES = 400  # about 5x the most clauses of any of them
MAX_ANSWER_FIGURES = 200  # about 7x the most figures of any of them
"""What the answer check reads. Its readers compare clauses with clauses and figures with
figures, so their work grows faster than the text: a model's 4,000-character answer of
"1 1 1 ..." took 92 s to score, growing with the square of its length. An answer past a bound
fails the check with the reason, unread (`python benchmarks/hostile_answers.py` times answers
at the bounds)."""


def _too_long(answer: str) -> str:
    """Why the answer is past the answer check's bounds (empty: it is not)."""
    if len(answer) > MAX_ANSWER_CHARS:
        return (
            f"the answer is {len(answer):,} characters; the scorer reads at most "
            f"{MAX_ANSWER_CHARS:,} (not scored)"
        )
    clauses = sum(len(group) for group in sentence_clauses(answer))
    if clauses > MAX_ANSWER_CLAUSES:
        return (
            f"the answer has {clauses:,} clauses; the scorer reads at most "
            f"{MAX_ANSWER_CLAUSES:,} (not scored)"
        )
    figures = len(quantities(answer))
    if figures > MAX_ANSWER_FIGURES:
        return (
            f"the answer states {figures:,} figures; the scorer reads at most "
            f"{MAX_ANSWER_FIGURES:,} (not scored)"
        )
    return ""


def json_values(text: str) -> list[Any]:
    """Every top-level JSON object, or array holding one, in the text (fences are just text)."""
    return [value for _, _, value in json_spans(text)]


def _objects(values: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for value in values:
        out += [value] if isinstance(value, dict) else [v for v in value if isinstance(v, dict)]
    return out


def closed(schema: Any) -> Any:
    """The schema with every object that declares `properties` closed to undeclared keys
    (`additionalProperties: false` unless the schema says otherwise): a structured answer
    holds what was asked and nothing else."""
    if isinstance(schema, list):
        return [closed(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: closed(v) if k != "const" and k != "enum" else v for k, v in schema.items()}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


@lru_cache(maxsize=256)
def schema_validator(schema_json: str) -> Validator:
    """A validator for a task's schema, closed (`closed`), built once (`tasks validate` checks
    the schema itself; checking it again on every answer cost more than the rest of scoring)."""
    schema = closed(json.loads(schema_json))
    validator: Validator = validator_for(schema)(schema)
    return validator


def _same(expected: Any, actual: Any) -> bool:
    """JSON values compared exactly: lists as multisets, objects key by key with no extra
    keys, matcher objects and scalars as a task's literals are (text case-folded)."""
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return False
        left = list(actual)
        for item in expected:
            hit = next((i for i, a in enumerate(left) if _same(item, a)), None)
            if hit is None:
                return False
            left.pop(hit)
        return True
    if isinstance(expected, dict) and not any(k.startswith("$") for k in expected):
        return (
            isinstance(actual, dict)
            and set(actual) == set(expected)
            and all(_same(v, actual[k]) for k, v in expected.items())
        )
    return value_matches(expected, actual, ArgKind.text, {}, ignore_case=True)


# a prompt that asks for the JSON and nothing more: "Reply with only a JSON object"
_ONLY_JSON = re.compile(
    r"\bonly\s+(?:a|one|the|valid)?\s*JSON\b|\bJSON\s+only\b"
    r"|\bJSON\b[^.\n]{0,60}\b(?:and\s+)?nothing\s+else\b",
    re.IGNORECASE,
)
_FENCE = re.compile(r"```[\w-]*")


def json_problems(exp: AnswerExpectation, answer: str, prompt: str = "") -> list[str]:
    """The answer must hold exactly one JSON object, valid under the schema, with the fields;
    where the prompt asks for only JSON, nothing but a code fence may stand around it."""
    values = json_values(answer)
    objects = _objects(values)
    if not objects:
        return ["answer holds no JSON object"]
    if len(objects) > 1 or any(isinstance(v, list) for v in values):
        return [f"answer holds {len(objects)} JSON objects; exactly one is expected"]
    if _ONLY_JSON.search(prompt):
        spans = json_spans(answer)
        outside = _FENCE.sub(" ", answer[: spans[0][0]] + " " + answer[spans[-1][1] :])
        if re.search(r"[A-Za-z]{2,}", outside):
            return ["the prompt asks for only a JSON object, and the answer adds text around it"]
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
        elif not _same(expected, obj[key]):
            problems.append(f"JSON key {key!r} is {obj[key]!r}")
    return problems


def answer_check(
    exp: AnswerExpectation, facts: EpisodeFacts, task: Task | None = None
) -> CheckRecord:
    """The answer against its expectation and, through the task's declared environment,
    against what the environment supports and what the episode did."""
    answer = facts.answer
    if answer is None or not answer.strip():
        return CheckRecord(name="answer", passed=False, detail="no final answer")
    too_long = _too_long(answer)
    if too_long:
        return CheckRecord(name="answer", passed=False, detail=too_long)
    try:
        problems = _problems(exp, facts, answer, task)
    except SlowPattern as exc:  # the task file's fault, said in one line; nothing hangs
        return CheckRecord(name="answer", passed=False, detail=f"not scored: {exc}"[:600])
    detail = "; ".join(problems) if problems else "answer accepted"
    return CheckRecord(name="answer", passed=not problems, detail=detail[:600])


def _problems(
    exp: AnswerExpectation, facts: EpisodeFacts, answer: str, task: Task | None
) -> list[str]:
    """Why the answer fails its expectation (empty: it holds)."""
    problems: list[str] = []
    if exp.max_sentences is not None:
        count = sum(1 for _ in sentences(answer))
        if count > exp.max_sentences:
            problems.append(
                f"the prompt asks for at most {exp.max_sentences} sentence(s); "
                f"the answer has {count}"
            )
    if exp.regex and not task_pattern(exp.regex, re.IGNORECASE | re.DOTALL).search(answer):
        problems.append(f"does not match /{exp.regex}/")
    if exp.json_schema is not None or exp.json_fields:
        problems += json_problems(exp, answer, task.prompt if task is not None else "")
        objects = _objects(json_values(answer))
        if task is not None and len(objects) == 1:
            # what a tool printed, or the prompt's own text where no tool was called
            seen = [c.output for c in facts.calls if c.output] or [task.prompt]
            problems += spelling_problems(task.prompt, objects[0], seen)
            problems += validated_value_problems(objects[0], facts.calls)
    answer = with_digits(answer)
    claims = [c for c in exp.claims if condition_holds(c.when, facts)]
    decoys = [d for d in exp.decoys if condition_holds(d.when, facts)]
    if claims or decoys:
        problems += claim_problems(answer, claims, decoys)
    required = [f for f in exp.facts if condition_holds(f.when, facts)]
    rejects = [f for f in exp.rejects if condition_holds(f.when, facts)]
    environment = task.environment if task is not None else Environment()
    prompt = task.prompt if task is not None else ""
    names = [n for f in [*exp.facts, *exp.rejects] for n in [f.subject, *f.members] if n]
    happened = [f"{c.system} {c.action} {c.target} {c.detail}" for c in facts.changes]
    reading = Reading(answer, declared_entities(environment, prompt), names, happened)
    for fact in required:
        problems += fact_problems(fact, reading, required)
    outputs = [c.output for c in facts.calls]
    amounts = [f.amount.value for f in required if f.amount is not None]
    for fact in rejects:
        problems += reject_problems(fact, reading, required, outputs)
    problems += unsupported_problems(reading, required, outputs)
    problems += causality_problems(reading, required)
    problems += swapped_label_problems(reading, outputs)
    problems += figure_problems(reading, required, outputs)
    problems += required_unit_problems(reading, required)
    problems += identifier_problems(reading, outputs)
    called = [c.command_text() for c in facts.calls]
    problems += address_problems(reading, outputs, called)
    problems += unknown_user_problems(reading, outputs)
    problems += crossed_parent_problems(reading)
    problems += count_problems(reading, required, outputs)
    problems += occurrence_problems(reading, outputs)
    problems += event_repeat_problems(reading, outputs)
    problems += restart_count_problems(reading, outputs)
    problems += line_number_problems(reading, outputs)
    problems += frame_problems(reading, outputs)
    problems += stamp_problems(reading, outputs)
    problems += pair_problems(reading, outputs)
    problems += enum_problems(reading, outputs)
    problems += status_problems(reading)
    problems += status_party_problems(reading, outputs)
    problems += uniqueness_problems(reading)
    problems += crossed_row_problems(reading, outputs, amounts)
    problems += swapped_column_problems(answer, outputs)
    problems += crossed_word_problems(reading, outputs)
    problems += zone_problems(reading, outputs)
    # a window the agent asked for is one it may state ("--since 14:00", ">= '2026-11-16'"),
    # and its own actions happen at the simulated clock's now ("09:16 I stopped legacy-admin")
    asked = [c.command_text() for c in facts.calls]
    now = environment_clock(environment)
    aged = aged_moments(outputs, environment)  # a pod 22m old at 10:50: created 10:28
    problems += unstated_time_problems(reading, [prompt, *outputs, *happened, *asked, *now, *aged])
    problems += elapsed_problems(reading, [prompt, *outputs, *asked], environment, amounts)
    problems += half_day_problems(reading, [prompt, *outputs, *happened])
    problems += dated_clock_problems(reading, [prompt, *outputs, *happened])
    problems += run_count_problems(reading, [prompt, *outputs])
    problems += weekday_problems(reading, [prompt, *outputs])
    problems += iso_week_problems(reading)
    problems += signal_problems(reading)
    problems += bound_figure_problems(reading, required, outputs)
    problems += bound_moment_problems(reading)
    problems += crossed_value_problems(reading)
    problems += sibling_problems(reading, outputs)
    problems += glossed_record_problems(reading, answer)
    problems += field_figure_problems(reading)
    problems += equivalence_problems(reading)
    problems += claimed_action_problems(reading, facts.changes, facts.calls)
    problems += advice_problems(answer, called, environment.sql is not None)
    problems += headline_problems(answer, required)
    problems += misconception_problems(reading)
    problems += change_count_problems(reading, facts.changes)
    problems += claimed_check_problems(reading, facts.calls)
    problems += unverified_result_problems(reading, facts.calls)
    problems += stale_identity_problems(reading, facts.calls)
    problems += failed_call_claimed_problems(reading, facts.calls)
    problems += unrun_probe_problems(reading, facts.calls)
    problems += failed_source_problems(reading, facts.calls)
    problems += cited_evidence_problems(answer, facts.calls)
    problems += misquote_problems(answer, outputs)
    problems += unrun_program_quote_problems(answer, outputs, called)
    problems += handover_problems(answer, exp.handover, environment.sql)
    return problems
