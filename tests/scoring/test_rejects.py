"""Rejected statements held against the answer: said of what they are, they are no wrong answer."""

import pytest

from agentbench.scoring.entities import declared_entities
from agentbench.scoring.reading import Reading
from agentbench.scoring.rejects import reject_problems
from agentbench.tasks.expectations import Fact
from agentbench.tasks.model import Environment

ENV = Environment.model_validate({"files": {"/var/log/backup/backup.log": "FATAL: password"}})


def _problems(fact: dict[str, object], said: str, required: list[Fact] | None = None) -> list[str]:
    reading = Reading(said, declared_entities(ENV, ""), [], [])
    return reject_problems(Fact.model_validate(fact), reading, required or [])


@pytest.mark.parametrize(
    ("said", "passes"),
    [
        ("The job failed on a permission problem with its log.", False),
        ("My shell can't read it; that permission problem is mine, not the job's.", True),
        ("The permission problem was on my side only; the job failed on its password.", True),
    ],
)
def test_the_agents_own_access_problem_is_no_wrong_cause(said: str, passes: bool) -> None:
    fact = {"name": "its own Permission denied", "wordings": ["permission problem"]}
    assert (_problems(fact, said) == []) is passes


@pytest.mark.parametrize(
    ("said", "passes"),
    [
        ("Set it to 691200. Your cooldown of 46h isn't asked, but it would be 165600 s.", True),
        ("Set it to 165600 seconds.", False),
    ],
)
def test_a_pronoun_before_a_rejected_figure_refers_to_its_label(said: str, passes: bool) -> None:
    required = Fact.model_validate({"name": "691200 s", "amount": {"value": 691200, "unit": "s"}})
    fact = {"name": "165600 (cooldown converted instead)", "amount": {"value": 165600}}
    assert (_problems(fact, said, [required]) == []) is passes


def test_another_status_s_meaning_said_of_that_status_is_no_wrong_answer() -> None:
    fact = {
        "name": "503 Service Unavailable (the other status in the log)",
        "wordings": ["temporarily unable to handle"],
    }
    right = (
        "A 502 means the proxy got an invalid reply from the backend, unlike the 503 on "
        "/api/profile, which says the service is temporarily unable to handle the request."
    )
    assert _problems(fact, right) == []
    assert _problems(fact, "A 502 means the service is temporarily unable to handle it.")
