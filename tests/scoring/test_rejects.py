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


@pytest.mark.parametrize(
    ("said", "passes"),
    [
        (
            "The total is EUR 48,213.40. Note: my first query (`BETWEEN '2026-11-16' AND "
            "'2026-11-22'`) returned 41,877.15 / 24 orders - wrong, it cut off Sunday.",
            True,
        ),
        ("The total is EUR 48,213.40. Our first sum came out at 41,877.15.", True),
        ("The total is EUR 41,877.15.", False),
        # the agent's own earlier figure is working only beside the answer it went on to
        ("My query returned 41,877.15.", False),
    ],
)
def test_what_the_agents_own_earlier_query_gave_beside_the_answer_is_working(
    said: str, passes: bool
) -> None:
    required = Fact.model_validate({"name": "EUR 48,213.40", "amount": {"value": 48213.40}})
    fact = {"name": "Sunday dropped (41,877.15)", "amount": {"value": 41877.15}}
    assert (_problems(fact, said, [required]) == []) is passes


@pytest.mark.parametrize(
    ("said", "passes"),
    [
        ("1187 hold a team plan: about 96% (1187 / 1236) of the open ones.", True),
        ("1187 hold a team plan, 1187 out of 1236 open ones.", True),
        ("1236 hold a team plan.", False),
        ("There are 1236 on team plans, 1187 of 1236 active.", False),  # stated on its own too
    ],
)
def test_the_whole_the_answer_is_a_share_of_is_no_wrong_answer(said: str, passes: bool) -> None:
    required = Fact.model_validate({"name": "1187", "amount": {"value": 1187}})
    fact = {"name": "account status ignored (1,236)", "amount": {"value": 1236}}
    assert (_problems(fact, said, [required]) == []) is passes
