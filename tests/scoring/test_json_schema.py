"""Structured answers exact: types, enums, list contents and no undeclared keys."""

from agentbench.scoring.answer import answer_check, closed
from agentbench.scoring.facts import EpisodeFacts
from agentbench.tasks.model import AnswerExpectation

SCHEMA = {
    "type": "object",
    "required": ["status", "missing"],
    "properties": {
        "status": {"type": "integer"},
        "level": {"enum": ["warn", "error"]},
        "missing": {"type": "array", "items": {"type": "string"}},
    },
}


def check(answer: str, fields: dict | None = None) -> tuple[bool, str]:
    exp = AnswerExpectation(json_schema=SCHEMA, json_fields=fields or {})
    record = answer_check(exp, EpisodeFacts(answer=answer))
    return record.passed, record.detail


def test_undeclared_keys_fail_unless_the_schema_allows_them() -> None:
    assert check('{"status": 502, "missing": []}')[0]
    ok, why = check('{"status": 502, "missing": [], "cause": "upstream timeout"}')
    assert not ok and "cause" in why
    assert (
        closed({"type": "object", "properties": {}, "additionalProperties": True})[
            "additionalProperties"
        ]
        is True
    )


def test_types_and_enums() -> None:
    assert not check('{"status": "502", "missing": []}')[0]
    assert not check('{"status": 502, "missing": [], "level": "fatal"}')[0]
    assert check('{"status": 502, "missing": [], "level": "error"}')[0]


def test_list_contents_compare_as_multisets() -> None:
    fields = {"missing": ["limits.cpu", "limits.memory"]}
    assert check('{"status": 1, "missing": ["limits.memory", "limits.cpu"]}', fields)[0]
    ok, why = check('{"status": 1, "missing": ["requests.cpu", "requests.memory"]}', fields)
    assert not ok and "missing" in why
    assert not check('{"status": 1, "missing": ["limits.cpu"]}', fields)[0]
    assert not check('{"status": 1, "missing": ["limits.cpu", "limits.memory", "x"]}', fields)[0]


def test_nested_objects_compare_key_by_key() -> None:
    schema_free = AnswerExpectation(json_fields={"v": [{"container": "migrate", "missing": ["a"]}]})
    ok = answer_check(
        schema_free, EpisodeFacts(answer='{"v": [{"container": "migrate", "missing": ["a"]}]}')
    )
    assert ok.passed
    extra = '{"v": [{"container": "migrate", "missing": ["a"], "note": "x"}]}'
    assert not answer_check(schema_free, EpisodeFacts(answer=extra)).passed


def test_a_json_only_prompt_allows_a_fence_and_refuses_prose() -> None:
    from agentbench.scoring.answer import json_problems

    exp = AnswerExpectation(json_schema=SCHEMA)
    prompt = 'Reply with only a JSON object with the keys "valid" and "errors".'
    good = '{"valid": false, "errors": []}'
    assert not any("only a JSON" in p for p in json_problems(exp, good, prompt))
    assert not any("only a JSON" in p for p in json_problems(exp, f"```json\n{good}\n```", prompt))
    prose = f"Found it:\n\n{good}\n\nThe rest is noise."
    assert any("only a JSON" in p for p in json_problems(exp, prose, prompt))
    assert not any("only a JSON" in p for p in json_problems(exp, prose, "Answer in JSON."))


def test_a_prompts_sentence_limit_counts_sentences_items_and_rows() -> None:
    exp = AnswerExpectation(regex="503", max_sentences=1)

    def passed(answer: str) -> bool:
        return answer_check(exp, EpisodeFacts(answer=answer)).passed

    assert passed("503: the server is temporarily unable to handle the request (e.g. overload).")
    assert not passed("503 means Service Unavailable. The server is temporarily overloaded.")
    assert not passed("503 is Service Unavailable:\n- overload\n- maintenance")
