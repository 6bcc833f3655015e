"""Uniqueness the environment denies: a record called the only one of its kind with a quality
another record of that kind holds too."""

import asyncio
from pathlib import Path

import pytest

from agentbench.tasks.families.tier import load_tier
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Step
from agentbench.tasks.validate import play

ROOT = Path(__file__).resolve().parents[2]
DECLINE = "I can't send email: I only have read-only SQL access, no mail tool."


@pytest.fixture(scope="module")
def suite() -> TaskSuite:
    return load_tier(ROOT / "tasks", "full")


def _score(suite: TaskSuite, answer: str) -> tuple[float, str]:
    task = next(t for t in suite.tasks if t.id == "none-email-without-mail-tool")
    played = asyncio.run(play(suite, task, [Step(answer=answer)]))
    assert not isinstance(played, str), played
    return played.score, played.why


@pytest.mark.parametrize(
    ("said", "passed"),
    [
        ("INC-2291 is resolved. It's the only incident in the table marked resolved.", False),
        ("INC-2291 is resolved; it is the only incident about checkout.", True),
        ("INC-2291 is resolved. It is not the only resolved incident.", True),
    ],
)
def test_the_only_one_with_a_quality_another_record_holds_is_false(
    suite: TaskSuite, said: str, passed: bool
) -> None:
    value, why = _score(suite, f"{DECLINE} {said}")
    assert (value == 1.0) is passed, why
