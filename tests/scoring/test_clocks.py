"""Clock times the answer labels with a zone, against the moments the outputs state."""

import pytest

from agentbench.scoring.clocks import half_day_problems, unstated_time_problems, zone_problems
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
        ("It retries around 16:00.", True),  # an estimate (15:00 + 3600 s): not held
        ("The run failed at 02:02.", True),  # no zone: a stated moment
        ("The shift starts at 14:00.", True),  # as the output wrote it, in its own zone
        ("The run failed at 03:02.", False),  # no zone, and no output states it
        ("The run failed at 2:02 am.", True),
        ("The run failed at 2:02 pm.", False),
        ("The job took 00:02:13 to finish.", True),  # a duration, not a clock time
        ("Read it with `journalctl --since 18:40`.", True),  # code, not a claim
        ("Lookups to 10.96.0.10:53 are refused.", True),  # an address, not 10:53
        ("Its stamps carry the offset +00:00.", True),  # an offset, not a time
        ("The bound stops at Sunday 00:00:00.", True),  # midnight: a date's bound
        ("Last night's run started at 02:00 UTC.", True),  # the cron schedule's
        ("It rotates at 07:45 UTC on weekends.", True),
        ("It rotates at 08:15 UTC on weekends.", False),
        # a day's bounds are no moments read: "from 00:00 UTC to 23:59:59 UTC"
        ("Orders from 2026-11-16 00:00 UTC to 2026-11-22 23:59:59 UTC.", True),
        # times converted into a zone the answer names, of moments read
        ("The run failed at 03:02 (CET).", True),  # 02:02 UTC in CET
        ("| 02:02:11 | 03:02:11 | run failed |  (UTC and CET columns)", True),
        ("The run failed at 04:02 (CET).", False),
        ("The shift starts at 13:00 UTC (14:00 in Berlin).", True),
        # a time in another zone names an instant too: 23:59:59 GMT is 15:59:59 PST
        ("It expired at 15:59:59 PST on Nov 28.", True),
        ("It expired at 07:59:59 PST on Nov 29.", False),  # the conversion's sign turned
        ("It expired at 00:59:59 CET.", True),
        ("The maintenance ends 16:00 CET.", True),  # 15:00 UTC
        ("The maintenance ends 18:00 CET.", False),
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
    from agentbench.scoring.cron import run_count_problems

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


PAYMENT = [
    '{"attempts": [{"at": "2026-11-06T21:16:51Z"}, {"at": "2026-11-07T21:16:53Z"}, '
    '{"at": "2026-11-08T21:16:52Z"}]}',
    "job started 2026-11-06T23:58:10Z, finished 2026-11-07T00:02:41Z",
]


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("It was declined on 2026-11-06 at 21:16:51.", True),
        ("Declined three times on 2026-11-06 (21:16:51-21:16:53).", False),
        ("Declined on Nov 6, 7 and 8 at 21:16:51, 21:16:53 and 21:16:52.", True),  # three dates
        ("The job ran on 2026-11-06 from 23:58:10 to 00:02:41.", True),  # past midnight
        ("It was not declined on 2026-11-06 at 21:16:53.", True),  # negated
        ("The second attempt, 2026-11-07 21:16:53, was declined.", True),  # dated itself
        # a UTC moment given on its day in a zone the answer names: 23:16 in Helsinki (UTC+2)
        ("In Helsinki time the second attempt was on 7 Nov at 23:16:53.", True),
        ("In Helsinki time the second attempt was on 6 Nov at 23:16:53.", False),
    ],
)
def test_a_clock_time_dated_by_its_sentence_must_be_on_that_day(answer: str, passes: bool) -> None:
    from agentbench.scoring.clocks import dated_clock_problems

    reading = Reading(answer, declared_entities(ENV, ""), [], [])
    assert (dated_clock_problems(reading, PAYMENT) == []) is passes


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("That is 36 runs per weekend day.", True),
        ("That adds up to 72 runs per weekend.", True),
        ("That adds up to 36 runs per weekend in total.", False),
        ("It fires 36 times a week.", False),
    ],
)
def test_a_weeks_runs_count_the_days_the_schedule_selects(answer: str, passes: bool) -> None:
    from agentbench.scoring.cron import run_count_problems

    reading = Reading(answer, declared_entities(ENV, ""), [], [])
    assert (run_count_problems(reading, ["*/5 6-8 * * 0,6 /usr/local/bin/sync"]) == []) is passes


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("Its notAfter is Nov 28 23:59:59 2026 GMT.", True),
        ("Its notAfter is Nov 28 23:59:59 2026 EST.", False),  # the year between clock and zone
        ("It lapsed at 23:59:59 EST on Nov 28.", False),
        ("It lapsed at 18:59:59 EST on Nov 28.", True),  # the same moment, in Eastern time
    ],
)
def test_a_clock_labelled_with_another_zone_fails(answer: str, passes: bool) -> None:
    reading = Reading(answer, declared_entities(ENV, ""), [], [])
    assert (zone_problems(reading, SEEN) == []) is passes


def test_a_days_last_minute_is_a_bound_only_in_a_range() -> None:
    seen = ["shift: 2026-11-23 11:00 UTC -> 2026-11-24 11:00 UTC"]

    def passes(answer: str) -> bool:
        reading = Reading(answer, declared_entities(ENV, ""), [], [])
        return unstated_time_problems(reading, seen) == []

    assert passes("Orders from 2026-11-16 00:00 UTC to 2026-11-22 23:59:59 UTC.")
    assert not passes("Her shift covers all of Monday until 23:59 UTC.")  # an end said
