"""What the prompt asks of the process, played through the real loop on suite tasks: the state
after the agent's own change is reported only after a look, and reads asked for "at the same
time" are made in one turn."""

import asyncio
from pathlib import Path

import pytest

from agentbench.tasks.loader import TaskSuite, load_suite
from agentbench.tasks.model import Step
from agentbench.tasks.validate import play

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def suite() -> TaskSuite:
    return load_suite(ROOT / "tasks")


def run(suite: TaskSuite, task_id: str, steps: list[dict]) -> tuple[float, str]:
    task = next(t for t in suite.tasks if t.id == task_id)
    played = asyncio.run(play(suite, task, [Step(**s) for s in steps]))
    assert not isinstance(played, str), played
    return played.score, played.why


def cmd(*lines: str) -> dict:
    return {"calls": [{"tool": "run_command", "args": {"cmd": line}} for line in lines]}


FIX = [
    cmd("journalctl -u api-gateway -n 40 --no-pager"),
    cmd("sudo ss -ltnp"),
    cmd("sudo systemctl stop legacy-admin"),
    cmd("sudo systemctl start api-gateway"),
]
CAUSE = (
    "legacy-admin.service (java, PID 1402) took port 8080 at boot, so api-gateway failed with "
    "EADDRINUSE. I stopped legacy-admin and started api-gateway"
)


@pytest.mark.parametrize(
    "result",
    [
        "; it is up and running again and listening on 0.0.0.0:8080.",
        ". I verified: api-gateway is active.",
        "; it now listens on 8080.",
    ],
)
def test_a_result_reported_with_no_look_after_the_change_fails(suite, result) -> None:
    score, why = run(suite, "ops-port-conflict", [*FIX, {"answer": CAUSE + result}])
    assert score < 1.0 and "no call after it read it" in why


def test_the_same_report_after_a_look_passes(suite) -> None:
    for look in ("sudo ss -ltnp", "systemctl is-active api-gateway legacy-admin"):
        answer = CAUSE + "; it is up and running again and listening on 0.0.0.0:8080."
        score, why = run(suite, "ops-port-conflict", [*FIX, cmd(look), {"answer": answer}])
        assert score == 1.0, why


def test_the_action_alone_needs_no_look(suite) -> None:
    score, why = run(suite, "ops-port-conflict", [*FIX, {"answer": CAUSE + "."}])
    assert score == 1.0, why
    advice = CAUSE + "; `systemctl status api-gateway` should now show it active."
    assert run(suite, "ops-port-conflict", [*FIX, {"answer": advice}])[0] == 1.0


ANSWER = "Disk: /var is 96% full (192G of 200G). Memory is fine: 9.4 GiB of 15.5 GiB available."


def test_reads_asked_for_together_pass_in_one_turn(suite) -> None:
    together = [cmd("df -h", "free -m"), {"answer": ANSWER}]
    assert run(suite, "multi-disk-and-memory", together)[0] == 1.0
    one_line = [cmd("df -h && free -m"), {"answer": ANSWER}]
    assert run(suite, "multi-disk-and-memory", one_line)[0] == 1.0


def test_reads_asked_for_together_fail_one_per_turn(suite) -> None:
    apart = [cmd("df -h"), cmd("free -m"), {"answer": ANSWER}]
    score, why = run(suite, "multi-disk-and-memory", apart)
    assert score < 1.0 and "at the same time" in why


def test_reads_asked_for_together_hold_when_only_the_failed_one_is_made_again(suite) -> None:
    """`df -h` and a mistyped `fre -m` in one turn, then `free -m` alone: the reads were made
    together and the failed one was made again; a turn that adds another read is apart."""
    redone = [cmd("df -h", "fre -m"), cmd("free -m"), {"answer": ANSWER}]
    score, why = run(suite, "multi-disk-and-memory", redone)
    assert score == 1.0, why
    more = [cmd("df -h", "fre -m"), cmd("free -m", "uptime"), {"answer": ANSWER}]
    score, why = run(suite, "multi-disk-and-memory", more)
    assert score < 1.0 and "at the same time" in why
    none_failed = [cmd("df -h", "uptime"), cmd("free -m"), {"answer": ANSWER}]
    score, why = run(suite, "multi-disk-and-memory", none_failed)
    assert score < 1.0 and "at the same time" in why


def test_a_thing_named_as_it_stands_after_the_change_must_be_one_the_later_reads_show(
    suite: TaskSuite,
) -> None:
    """The rollout replaced the old ReplicaSet's pods: naming them as now Running on the
    fixed tag reports pods that no longer exist; the reads after the change name the new ones."""
    steps = [
        cmd("kubectl get pods -n shop"),
        cmd("kubectl set image deployment/api api=registry.internal/shop/api:v2.4.1 -n shop"),
        cmd("kubectl rollout status deployment/api -n shop"),
        cmd("kubectl get pods -n shop"),
    ]
    old, new = "api-6c8d4f7b95-hvm4t", "api-6sbxqndqr6-hsfzw"  # as the simulator names them
    cause = (
        "The tag v2.41 does not exist, so the pod sat in ImagePullBackOff. "
        "I set the image to v2.4.1"
    )
    stale = f"{cause}; the rollout finished and the pod {old} is now Running on v2.4.1."
    fresh = f"{cause}; the rollout finished and the pod {new} is now Running on v2.4.1."
    value, why = run(suite, "ops-imagepull-bad-tag", [*steps, {"answer": stale}])
    assert value < 1.0 and "no longer show" in why
    assert run(suite, "ops-imagepull-bad-tag", [*steps, {"answer": fresh}]) == (
        1.0,
        "4/4 checks passed",
    )


OOM = (
    "The nginx container is OOMKilled (exit code 137): it exceeds its 64Mi memory limit and "
    "Kubernetes restarts it, hence CrashLoopBackOff. Raise the memory limit."
)
DESCRIBE = cmd("kubectl describe pod nginx-7c5ddbdf54-x8k2p -n web")


def test_a_first_read_that_found_nothing_then_made_again_started_there(suite) -> None:
    """The prompt says to start with the pods: `kubectl get pods` in the default namespace
    (nothing found), then with `-n web`, started there; a look at the nodes first did not."""
    again = [cmd("kubectl get pods"), cmd("kubectl get pods -n web"), DESCRIBE, {"answer": OOM}]
    score, why = run(suite, "ops-crashloop-oomkilled", again)
    assert score == 1.0, why
    other = [cmd("kubectl get nodes"), cmd("kubectl get pods -n web"), DESCRIBE, {"answer": OOM}]
    score, why = run(suite, "ops-crashloop-oomkilled", other)
    assert score < 1.0 and "the first call" in why
