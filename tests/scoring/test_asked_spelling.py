"""What a prompt asks of a JSON key's spelling: verbatim values and host:port."""

import pytest

from agentbench.scoring.asked import asked_spelling, spelling_problems

PROMPT = (
    'Reply with only a JSON object with the keys "error" (short description of the failure), '
    '"upstream" (the backend address as host:port), "first_seen" (timestamp of the first\n'
    'occurrence, exactly as written in the log) and "count" (an integer).'
)
LOG = "2026/03/12 07:47:07 [error] 311#0: *1 upstream timed out, upstream: http://10.0.8.30:8000/x"


def test_the_prompt_binds_only_the_keys_it_describes_so() -> None:
    assert asked_spelling(PROMPT) == {"upstream": "host:port", "first_seen": "verbatim"}
    assert asked_spelling('keys "time" (its timestamp, as logged)') == {"time": "verbatim"}
    assert asked_spelling('keys "value" (its value as written)') == {"value": "verbatim"}
    assert asked_spelling('keys "time" (when it happened)') == {}


def test_values_spelt_as_asked_pass() -> None:
    good = {"error": "timed out", "upstream": "10.0.8.30:8000", "first_seen": "2026/03/12 07:47:07"}
    assert spelling_problems(PROMPT, good, [LOG]) == []


@pytest.mark.parametrize(
    ("key", "value", "why"),
    [
        ("first_seen", "2026-03-12T07:47:07Z", "verbatim"),
        ("first_seen", "Mar 12 07:47:07", "verbatim"),
        ("upstream", "http://10.0.8.30:8000/x", "host:port"),
        ("upstream", "10.0.8.30", "host:port"),
    ],
)
def test_rewritten_values_fail(key: str, value: str, why: str) -> None:
    obj = {"upstream": "10.0.8.30:8000", "first_seen": "2026/03/12 07:47:07", key: value}
    problems = spelling_problems(PROMPT, obj, [LOG])
    assert len(problems) == 1 and key in problems[0] and why in problems[0]


def test_non_text_values_are_left_to_the_schema() -> None:
    assert spelling_problems(PROMPT, {"first_seen": 17, "upstream": None}, [LOG]) == []
