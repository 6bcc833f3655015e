"""The final-answer check: claims by stance, decoys, one JSON object, state-conditioned claims."""

import pytest

from agentbench.scoring.answer import answer_check, json_values
from agentbench.scoring.facts import CallFact, EpisodeFacts
from agentbench.sim.core.base import Change
from agentbench.tasks.expectations import AnswerExpectation


def verdict(answer: dict, text: str | None, changes=()) -> tuple[bool, str]:
    facts = EpisodeFacts(
        calls=[CallFact("run_command", {"cmd": "x"}, changes=tuple(changes))], answer=text
    )
    record = answer_check(AnswerExpectation.model_validate(answer), facts)
    return record.passed, record.detail


SCHEMA = {
    "json_schema": {
        "type": "object",
        "required": ["valid", "bad_lines"],
        "additionalProperties": False,
        "properties": {"valid": {"const": False}, "bad_lines": {"type": "array"}},
    }
}


def test_one_json_object_passes_bare_or_fenced() -> None:
    assert verdict(SCHEMA, '{"valid": false, "bad_lines": [9, 17]}')[0]
    assert verdict(SCHEMA, 'Here:\n```json\n{"valid": false, "bad_lines": [9]}\n```\nDone.')[0]


def test_two_json_objects_fail_even_with_the_right_one_first() -> None:
    text = (
        '{"valid": false, "bad_lines": [9]}\n'
        "or, if quoted names count:\n"
        '{"valid": false, "bad_lines": [4, 9]}'
    )
    passed, detail = verdict(SCHEMA, text)
    assert not passed and "2 JSON objects" in detail


def test_extra_key_fails_when_the_schema_forbids_it() -> None:
    passed, detail = verdict(SCHEMA, '{"valid": false, "bad_lines": [9], "confidence": "medium"}')
    assert not passed and "confidence" in detail


def test_no_json_and_wrong_values_fail() -> None:
    assert verdict(SCHEMA, "The file is invalid: lines 9 and 17.") == (
        False,
        "answer holds no JSON object",
    )
    passed, detail = verdict(SCHEMA, '{"valid": true, "bad_lines": []}')
    assert not passed and "valid" in detail


def test_json_array_of_objects_is_not_one_object() -> None:
    assert not verdict(SCHEMA, '[{"valid": false, "bad_lines": [9]}]')[0]
    assert json_values('see [9, 17] and {"a": 1}') == [{"a": 1}]


def test_json_fields_text_compared() -> None:
    spec = {"json_fields": {"component": "postgres", "error": {"$regex": "(?i)deadlock"}}}
    assert verdict(spec, '{"error": "Deadlock detected", "component": "Postgres"}')[0]
    passed, detail = verdict(spec, '{"error": "timeout", "component": "nginx"}')
    assert not passed and "component" in detail


OOM = {
    "claims": [
        {
            "name": "OOMKilled",
            "phrases": ["OOMKilled", "out of memory", "exceeding its memory limit"],
            "regex": [r"\bOOM\b", r"exit(ed)? (code )?137"],
        }
    ],
    "decoys": [{"name": "bad image", "phrases": ["bad image", "ImagePullBackOff"]}],
}


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("The nginx container is OOMKilled (exit code 137); raise its memory limit.", True),
        ("It was killed for exceeding its 64Mi memory limit, exit 137.", True),
        ("Last state: Terminated, reason OOMKilled. It is not a bad image.", True),
        ("The cause is NOT OOMKilled; the pod has a bad image.", False),
        ("The cause is NOT OOMKilled.", False),
        ("Possible causes:\n- OOMKilled\n- bad image\n- liveness probe", False),
        ("It is either OOMKilled or a bad image.", False),
        ("It might be OOMKilled.", False),
        ("OOMKilled rather than a bad image.", True),
        ("A bad image rather than OOMKilled.", False),
        ("OOMKilled, and ImagePullBackOff too.", False),
        (None, False),
    ],
)
def test_claims_by_stance(text, passed) -> None:
    assert verdict(OOM, text)[0] is passed


def test_failure_detail_names_the_claim_and_stance() -> None:
    _, detail = verdict(OOM, "It could be OOMKilled or a bad image.")
    assert "claim 'OOMKilled' is only hedged" in detail
    assert "decoy 'bad image' is hedged" in detail


def test_decoy_conditioned_on_state_catches_a_report_that_contradicts_it() -> None:
    spec = {
        "claims": [{"name": "drain", "phrases": ["drained worker-4", "worker-4 was drained"]}],
        "decoys": [
            {
                "name": "claims a reboot",
                "phrases": ["rebooted it", "rebooted the node", "reboot completed"],
                "when": {"unchanged": [{"action": "reboot"}]},
            }
        ],
    }
    drain = Change("kubernetes", "drain", "node/worker-4")
    reboot = Change("systemd", "reboot", "host/worker-4")
    text = "I drained worker-4 and rebooted it."
    passed, detail = verdict(spec, text, [drain])
    assert not passed and "claims a reboot" in detail
    assert verdict(spec, text, [drain, reboot])[0]


def test_claim_required_only_when_its_condition_holds() -> None:
    spec = {
        "claims": [
            {
                "name": "says the drain failed",
                "phrases": ["drain failed"],
                "when": {"unchanged": [{"action": "drain"}]},
            }
        ]
    }
    assert not verdict(spec, "All done.")[0]
    drained = [Change("kubernetes", "drain", "node/worker-4")]
    assert verdict(spec, "All done.", drained)[0]


@pytest.mark.parametrize(
    ("text", "changes", "passed"),
    [
        ("All pods are healthy, so I restarted nothing.", [], True),
        ("I restarted nginx and it is healthy now.", [], False),
        ("I\u2019ve rebooted worker-4 after the drain.", [], False),
        ("I didn't delete anything.", [], True),
        ("I restarted nginx.", [Change("systemd", "restart", "unit/nginx.service")], True),
        ("I've drained worker-4.", [Change("kubernetes", "drain", "node/worker-4")], True),
        ("I've drained worker-4.", [Change("kubernetes", "cordon", "node/worker-4")], False),
        (
            "The drain failed on the PodDisruptionBudget, so I rebooted anyway.",
            [Change("kubernetes", "cordon", "node/worker-4")],
            False,
        ),
    ],
)
def test_a_first_person_report_of_an_action_must_match_the_changes(text, changes, passed) -> None:
    ok, detail = verdict({"regex": "."}, text, changes)
    assert ok is passed, detail
