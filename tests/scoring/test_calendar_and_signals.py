"""Facts a reader checks on sight, whatever the outputs say: a weekday of a date, the signal an
exit status stands for."""

import pytest

from agentbench.scoring.answer import answer_check
from agentbench.scoring.facts import EpisodeFacts
from agentbench.tasks.expect_answer import AnswerExpectation

ANY = AnswerExpectation(regex=".")


def check(answer: str) -> tuple[bool, str]:
    record = answer_check(ANY, EpisodeFacts(answer=answer))
    return record.passed, record.detail


@pytest.mark.parametrize(
    "answer",
    [
        "The busiest day was Saturday 2026-11-20 with 8,110.75.",
        "2026-11-20 (Saturday) was the busiest day.",
        "Saturday the 20th of November 2026 was the busiest.",
        "| Sat 2026-11-20 | 4 | 8,110.75 |",
    ],
)
def test_a_weekday_that_is_not_the_dates_fails(answer: str) -> None:
    ok, why = check(answer)
    assert not ok and "it is a Friday" in why


@pytest.mark.parametrize(
    "answer",
    [
        "The busiest day was Friday 2026-11-20.",
        "Completed orders placed Mon 16 Nov - Sun 22 Nov 2026 brought in 48,213.40.",
        "From Mon 2026-11-16 to Sun 2026-11-22 there were 28 orders.",
        "2026-11-16 – Sun 2026-11-22: 28 orders.",
        "It sat on 2026-11-20 for a day.",  # a verb, not a day
        "It was not a Saturday 2026-11-20 but a Friday.",
    ],
)
def test_a_right_or_unpaired_weekday_passes(answer: str) -> None:
    assert check(answer)[0], check(answer)[1]


@pytest.mark.parametrize(
    "answer",
    [
        "The container exits with code 137, which is SIGTERM from the kubelet.",
        "Exit Code: 137 - the kernel sent SIGTERM.",
        "It exited 143 (SIGKILL) on each probe failure.",
        "It was killed by signal 9 (SIGTERM).",
        # the signal named as a verb, the status in the sentence pointing back at it
        "It did not finish in time, so the kubelet SIGKILLed the JVM. That's the exit code 143.",
    ],
)
def test_an_exit_status_decoded_into_the_wrong_signal_fails(answer: str) -> None:
    ok, why = check(answer)
    assert not ok and "is signal" in why


@pytest.mark.parametrize(
    "answer",
    [
        "Exit code 137 (128 + 9, SIGKILL): the OOM killer.",
        "It exited 143 (SIGTERM) on each probe failure.",
        "Exit code 137 means SIGKILL; 143 would be SIGTERM.",
        "Exit code 137 is not SIGTERM but SIGKILL.",
        "The kubelet SIGTERMed the JVM. That's the exit code 143 in Last State.",
        "The kubelet sent SIGKILL once. The pod's exit code 143 came from an earlier stop.",
    ],
)
def test_a_right_decoding_passes(answer: str) -> None:
    assert check(answer)[0], check(answer)[1]


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("ISO week 46 of 2026 (Mon 2026-11-16 – Sun 2026-11-22) made 48,213.40.", False),
        ("ISO week 47 of 2026 (Mon 2026-11-16 – Sun 2026-11-22) made 48,213.40.", True),
        ("Week 2026-W47 runs 2026-11-16 to 2026-11-22.", True),
        ("Week 47 (ISO) starts 2026-11-23.", False),
        ("The sprint called week 46 ended 2026-11-22.", True),  # not said to be ISO
    ],
)
def test_an_iso_week_number_is_the_week_of_its_dates(answer: str, passes: bool) -> None:
    ok, why = check(answer)
    assert ok is passes, why
