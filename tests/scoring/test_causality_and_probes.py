"""Cause and effect swapped, and probes reported that no call ran, through the answer check."""

from pathlib import Path

import pytest

from agentbench.scoring.answer import answer_check
from agentbench.scoring.facts import CallFact, EpisodeFacts
from agentbench.tasks.loader import load_suite
from agentbench.tasks.model import Task

ROOT = Path(__file__).resolve().parents[2]
READS = [
    CallFact(tool="read_file", args={"path": f"/var/log/api/replica-{n}.log"}) for n in (1, 2, 3)
]
HEALTHY = "replica-1 and replica-3 are healthy."
GOOD = (
    "replica-2 is failing: its cache connections to Redis at 10.0.6.21:6379 time out "
    "(i/o timeout), so cart requests end in 502."
)


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_suite(ROOT / "tasks").tasks}


def check(task: Task, answer: str, calls: list[CallFact]) -> tuple[bool, str]:
    assert task.expect.answer is not None
    record = answer_check(task.expect.answer, EpisodeFacts(calls=calls, answer=answer), task)
    return record.passed, record.detail


@pytest.mark.parametrize(
    "swapped",
    [
        "So the 502s are the root problem and the cache timeouts are the consequence.",
        "Root cause: the 502 retries.",
        "Root cause (from replica-2's log): the 502 retries.",
        "The Redis i/o timeouts are just a side effect of the 502 retries.",
    ],
)
def test_a_symptom_named_the_root_or_the_cause_made_its_consequence_fails(
    tasks: dict[str, Task], swapped: str
) -> None:
    ok, why = check(tasks["multi-three-replica-logs"], f"{GOOD} {swapped} {HEALTHY}", READS)
    assert not ok and "cause and effect swapped" in why


@pytest.mark.parametrize(
    "right",
    [
        "The 502s are a symptom of the Redis timeouts, not the root cause.",
        "On replica-2 the 502s are not the root problem, its Redis connection is.",
        "The root cause is the Redis connection timing out; the 502s follow from it.",
        "The retries are a consequence of the i/o timeout to 10.0.6.21:6379.",
        # where the label's cause was read is no cause: "(from the failed replica's log)"
        "Root cause (from the failed replica's log): the Redis connection times out.",
    ],
)
def test_the_chain_in_its_order_passes(tasks: dict[str, Task], right: str) -> None:
    ok, why = check(tasks["multi-three-replica-logs"], f"{GOOD} {right} {HEALTHY}", READS)
    assert ok, why


def test_the_cause_said_to_follow_from_evictions_fails(tasks: dict[str, Task]) -> None:
    calls = [CallFact(tool="run_command", args={"cmd": "kubectl describe node worker-7"})]
    answer = (
        "The search-indexer pods run on worker-7, which reports DiskPressure=True. The disk "
        "pressure is a consequence of the evictions: their leftovers fill the disk."
    )
    ok, why = check(tasks["multi-evicted-pod-node-pressure"], answer, calls)
    assert not ok and "consequence of a symptom" in why


@pytest.mark.parametrize(
    "claim",
    [
        "I confirmed it with a TCP check from replica-2's host to 10.0.6.21:6379.",
        "I ran `redis-cli -h 10.0.6.21 ping` and it timed out.",
        "I also tested with nc against port 6379, which hung.",
        "We ran a connectivity test from replica-1, which connected.",
    ],
)
def test_a_probe_no_call_ran_fails(tasks: dict[str, Task], claim: str) -> None:
    ok, why = check(tasks["multi-three-replica-logs"], f"{GOOD} {claim} {HEALTHY}", READS)
    assert not ok and ("no call ran" in why or "no call made" in why), why


@pytest.mark.parametrize(
    "said",
    [
        "I read the three logs; a TCP check from the host would confirm it.",
        "You could run `redis-cli -h 10.0.6.21 ping` to confirm.",
        "I did not run a connectivity test.",
    ],
)
def test_a_probe_suggested_or_denied_passes(tasks: dict[str, Task], said: str) -> None:
    ok, why = check(tasks["multi-three-replica-logs"], f"{GOOD} {said} {HEALTHY}", READS)
    assert ok, why


def test_a_probe_a_call_ran_passes(tasks: dict[str, Task]) -> None:
    task = tasks["ops-dns-coredns-corefile"]
    calls = [
        CallFact(tool="run_command", args={"cmd": "kubectl get pods -n kube-system"}),
        CallFact(
            tool="run_command",
            args={"cmd": "kubectl logs coredns-5d78c9869d-7wq4h -n kube-system --previous"},
        ),
        CallFact(
            tool="run_command",
            args={"cmd": "kubectl exec -n checkout checkout-6f9d8b7c5d-4mzqx -- dig orders-db"},
        ),
    ]
    answer = (
        "I ran dig from a checkout pod and it got no answer. CoreDNS is crash-looping: its "
        "Corefile fails to parse at line 11, Unknown directive 'forwad'."
    )
    _, why = check(task, answer, calls)
    assert "dig" not in why, why
