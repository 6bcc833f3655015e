"""Durations held against the moments and intervals what was read prints."""

import pytest

from agentbench.scoring.elapsed import elapsed_problems
from agentbench.scoring.entities import declared_entities
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment

ENV = Environment.model_validate(
    {"system": {"now": "2026-11-29T09:26:41Z"}, "files": {"/var/log/x.log": "x"}}
)
ROW = "INC-2291 | opened 2026-11-30 07:58:03+00 | resolved 2026-11-30 08:41:17+00"
CERT = "notBefore=Nov 28 00:00:00 2026 GMT\nnotAfter=Feb 26 23:59:59 2027 GMT"
EXPIRED = "notAfter=Nov 28 23:59:59 2026 GMT"


def problems(answer: str, seen: list[str]) -> list[str]:
    reading = Reading(answer, declared_entities(ENV, ""), [], [])
    return elapsed_problems(reading, seen, ENV, [])


@pytest.mark.parametrize(
    ("answer", "seen", "fails"),
    [
        ("The incident lasted 53 minutes.", [ROW], True),
        ("The incident lasted 43 minutes.", [ROW], False),
        ("It took 43m14s from the alert to resolution.", [ROW], False),
        ("It lasted about 45 minutes.", [ROW], False),  # approximate, within a quarter
        ("The certificate expired about 33 hours ago.", [EXPIRED], True),
        ("The certificate expired about 9.5 hours ago.", [EXPIRED], False),
        ("It is valid for 90 days.", [CERT], False),
        ("That's a six-month certificate.", [CERT], True),
        ("That's a three-month certificate.", [CERT], False),
        ("The export took 4 minutes.", ["duration 00:04:12"], False),  # an interval printed
        ("The export took 9 minutes.", ["duration 00:04:12"], True),
        ("The replica is about 3 s behind.", ['"replica_lag_s": 3', EXPIRED], False),  # unit key
        ("It escalates after 15 minutes.", ["escalation_after_minutes: 15", EXPIRED], False),
        ("It escalates after 25 minutes.", ["escalation_after_minutes: 15", EXPIRED], True),
        ("Backups are kept for 14 days.", ["retention_days=14", EXPIRED], False),
        ("Evicted three times in the last 84 minutes.", ["12m (x3 over 84m)", EXPIRED], False),
        # clock times of one day: the prompt's 08:00 and a file's 10:00 handover
        (
            "Not Tomasz: the handover is at 10:00, two hours later.",
            [ROW, "at 08:00", "10:00"],
            False,
        ),
        (
            "Not Tomasz: the handover is at 10:00, five hours later.",
            [ROW, "at 08:00", "10:00"],
            True,
        ),
    ],
)
def test_a_duration_is_one_the_moments_read_support(
    answer: str, seen: list[str], fails: bool
) -> None:
    assert bool(problems(answer, seen)) is fails


def test_a_duration_from_knowledge_has_nothing_to_be_held_to() -> None:
    bare = Environment.model_validate({"files": {"/var/log/x.log": "x"}})
    reading = Reading("The back-off caps at 5 minutes.", declared_entities(bare, ""), [], [])
    assert elapsed_problems(reading, ["Back-off restarting failed container"], bare, []) == []


def test_milliseconds_are_not_seconds() -> None:
    seen = [
        "2026-11-29 14:05:03 QueuePool limit reached, connection timed out, timeout 30.00",
        "2026-11-29 14:05:33 request failed after 30011 ms",
    ]
    assert problems("Connections time out after 30 seconds.", seen) == []
    assert problems("Connections time out after 30 milliseconds.", seen)
    # two bare dates are a day apart at best: they support no sub-day figure
    dated = [*seen, "nightly export 2026-11-29 done", "rotated 2026-11-29"]
    assert problems("Each request waits only 30 ms for a connection.", dated)


def test_an_age_is_not_how_long_it_ran() -> None:
    """`7 (4m11s ago)` says when the last restart was, not how long a run lasts: the run's
    length is between its Started and Finished (8 s)."""
    pods = "nginx-7c5ddbdf54-x8k2p   0/1   CrashLoopBackOff   7 (4m11s ago)   14m"
    last = (
        "Started:      Sun, 29 Nov 2026 10:12:11 +0000\n"
        "Finished:     Sun, 29 Nov 2026 10:12:19 +0000"
    )
    why = problems("Each run lasts roughly 4 minutes before it is killed.", [pods, last])
    assert why and "an age" in why[0]
    assert problems("Each run lasts about 8 seconds before it is killed.", [pods, last]) == []
    assert problems("It last restarted about 4 minutes ago.", [pods, last]) == []
    compose = "ledger-worker-1   Exited (1) 38 minutes ago"
    assert problems("After running for about 38 minutes, the worker crashed.", [compose])


def test_an_age_works_back_to_the_moment_it_started() -> None:
    from agentbench.scoring.clocks import unstated_time_problems
    from agentbench.scoring.elapsed import aged_moments

    cluster = Environment.model_validate({"cluster": {"now": "2026-11-29T10:50:30Z"}})
    pods = (
        "NAME        READY   STATUS             RESTARTS       AGE\n"
        "coredns-1   0/1     CrashLoopBackOff   9 (1m ago)     22m"
    )
    aged = aged_moments([pods], cluster)
    assert "2026-11-29T10:28:30Z" in aged

    def fails(answer: str) -> bool:
        reading = Reading(answer, declared_entities(cluster, ""), [], [])
        return bool(unstated_time_problems(reading, [pods, *aged]))

    assert not fails("The pod was created around 10:28 UTC.")
    assert fails("The pod was created around 09:28 UTC.")
    # no ages printed, nothing to work back from
    assert aged_moments(["memory: 500m"], cluster) == []
