"""Clock times the answer labels with a zone, against the moments the outputs state."""

import pytest

from agentbench.scoring.clocks import half_day_problems, unstated_time_problems
from agentbench.scoring.entities import declared_entities
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment

ENV = Environment.model_validate({"files": {"/var/log/app.log": "x"}})
SEEN = [
    '{"message": "in maintenance (INV-909) until 15:00 UTC", "retry_after_s": 3600}',
    "2026-11-17 02:02:11 [reindex] run finished: FAILED",
    "notAfter=Nov 28 23:59:59 2026 GMT",
    "start: 2026-11-30T14:00:00+01:00",
    "NAME          SCHEDULE     SUSPEND   ACTIVE\nreports-cron  0 2 * * *    False     0",
    "*/15 4-7 * * 0,6 /usr/local/bin/rotate",
]


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("The API is in maintenance until 15:00 UTC.", True),
        ("The API is in maintenance until 17:00 UTC.", False),
        ("The run failed at 02:02 UTC.", True),  # a log's bare stamp
        ("It expired at 23:59:59 GMT on Nov 28.", True),
        ("The shift starts at 13:00 UTC.", True),  # 14:00+01:00, the same moment
        ("The shift starts at 14:00Z.", False),
        ("It is not due before 18:30 UTC.", True),  # negated: nothing asserted
        ("It retries around 16:00.", True),  # no zone: not checked here
        ("Last night's run started at 02:00 UTC.", True),  # the cron schedule's
        ("It rotates at 07:45 UTC on weekends.", True),
        ("It rotates at 08:15 UTC on weekends.", False),
    ],
)
def test_a_utc_time_must_be_a_moment_stated(answer: str, passes: bool) -> None:
    reading = Reading(answer, declared_entities(ENV, ""), [], [])
    assert (unstated_time_problems(reading, SEEN) == []) is passes


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("That works out to 16 executions per weekday.", True),
        ("That works out to 12 executions per weekday.", False),
        ("It fires 4 times an hour, 16 runs a day.", True),
        ("It fires 16 times per hour.", False),
        ("The other job runs 1 time a day.", True),
        ("It is not 12 runs a day.", True),
    ],
)
def test_a_count_of_runs_is_what_the_schedule_gives(answer: str, passes: bool) -> None:
    from agentbench.scoring.clocks import run_count_problems

    crontab = "# m h dom mon dow command\n51 18 * * * /usr/bin/reindex\n*/15 6-9 * * 1-5 rotate"
    reading = Reading(answer, declared_entities(ENV, ""), [], [])
    assert (run_count_problems(reading, [crontab]) == []) is passes


def test_a_twelve_hour_time_in_the_wrong_half_of_the_day_fails() -> None:
    cron = "*/20 3-5 * * 6,0 /usr/local/bin/sync-reports"
    nothing = declared_entities(Environment(), "")

    def problems(answer: str) -> list[str]:
        return half_day_problems(Reading(answer, nothing, [], []), [cron])

    assert problems("It runs every 20 minutes from 3 PM until 5:40 PM on weekends.")
    assert not problems("It runs every 20 minutes from 3 AM until 5:40 AM on weekends.")
    assert not problems("It runs from 3:00 to 5:40, never at 3 PM.")
