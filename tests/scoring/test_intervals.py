"""A recurrence step in any spelling, and the ones that are not that step."""

import pytest

from agentbench.scoring.intervals import interval_span
from agentbench.tasks.expect_answer import every_seconds


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("It runs every 30 minutes.", 1800),
        ("every thirty minutes between 2 and 4", 1800),
        ("twice an hour, on weekdays", 1800),
        ("every half hour from 2 AM", 1800),
        ("half-hourly", 1800),
        ("at 02:00, 02:30, 03:00, 03:30 and 04:00", 1800),
        ("at :00 and :30 past each hour", 1800),
        ("at minutes 0, 15, 30 and 45", 900),
        ("four times an hour", 900),
        ("in 20-minute intervals", 1200),
        ("every 5 min", 300),
        ("hourly", 3600),
    ],
)
def test_the_step_is_read_in_any_spelling(text: str, seconds: int) -> None:
    assert interval_span(text, seconds) is not None


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("every 15 minutes", 1800),
        ("at 02:00, 02:30, 03:00", 900),
        ("on days 1 and 5 of the month", 1800),
        ("at 02:00 and 02:30", 1800),  # two times are no run
        ("it takes 30 minutes", 1800),  # a duration, not a step
        ("at minute 30", 1800),
    ],
)
def test_another_step_or_none_is_not(text: str, seconds: int) -> None:
    assert interval_span(text, seconds) is None


def test_a_step_is_spelled_with_its_unit() -> None:
    assert every_seconds("30m") == 1800 and every_seconds("2h") == 7200
    assert every_seconds("30") is None and every_seconds("0m") is None


def test_marks_of_the_hour_with_a_run_left_out() -> None:
    assert interval_span("it fires at minute 0, 5, 10, ..., 55 of each hour", 300)
    assert interval_span("at minutes 0, 5, 10, ..., 50", 300) is None  # stops short of :55
    assert interval_span("at minute 0, 5, 10, ..., 55", 900) is None
