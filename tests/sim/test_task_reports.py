"""Commands reviewers played through shipped tasks and found mis-simulated, each checked
against the text the real tool prints on the task's declared state."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import TaskSuite, load_suite

TASKS = Path(__file__).resolve().parents[2] / "tasks"


@cache
def _suite() -> TaskSuite:
    return load_suite(TASKS)


def env_of(task_id: str) -> SimulatedEnvironment:
    suite = _suite()
    task = next(t for t in suite.tasks if t.id == task_id)
    return SimulatedEnvironment(task, suite.tools, suite.grammar)


def run(env: SimulatedEnvironment, cmd: str) -> str:
    return env.execute("run_command", {"cmd": cmd}).content()


def test_declared_container_creating_pods_stay_waiting() -> None:
    env = env_of("ops-missing-configmap")
    lines = run(env, "kubectl get pods -n reporting").splitlines()
    assert lines[1].split() == ["report-renderer-7b4d8c9f5-6vzrk", "0/1", "ContainerCreating", "0", "18m"]
    described = run(env, "kubectl describe pod report-renderer-7b4d8c9f5-6vzrk -n reporting")
    assert "Status:           Pending\n" in described
    assert "    State:          Waiting\n      Reason:       ContainerCreating\n" in described
    assert "    Name:        report-renderer-config\n" in described
