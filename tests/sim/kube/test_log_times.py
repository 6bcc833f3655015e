"""A container's previous-run logs are stamped inside that run: every time of day in
`kubectl logs --previous` of every task in the full tier (hand-written and family variants, the
crashloop-cause family among them) falls within the startedAt..finishedAt that
`kubectl get pod -o jsonpath` reports for its last termination."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.families.tier import load_tier

from ...conftest import TASKS_DIR

CLOCK = re.compile(r"(?<!\d)(\d{2}):(\d{2}):(\d{2})(?!\d)")
SUITE = load_tier(TASKS_DIR, "full")


def _runs() -> list[tuple[str, str, str, str]]:
    """(task id, namespace, pod, container) of every declared previous run with its logs."""
    found = []
    for task in SUITE.tasks:
        cluster = task.environment.cluster
        if cluster is None:
            continue
        for pod in cluster.pods:
            for container in pod.containers:
                last = container.last_state
                if last is not None and last.kind == "terminated" and container.previous_logs:
                    found.append((task.id, pod.namespace, pod.name, container.name))
    return found


RUNS = _runs()


def test_the_crashloop_family_is_among_the_runs_checked() -> None:
    ids = {run[0] for run in RUNS}
    assert sum(1 for i in ids if i.startswith("crashloop-cause-")) == 12


@pytest.mark.parametrize(("task_id", "ns", "pod", "container"), RUNS)
def test_previous_logs_fall_inside_the_last_termination(
    task_id: str, ns: str, pod: str, container: str
) -> None:
    task = next(t for t in SUITE.tasks if t.id == task_id)
    env = SimulatedEnvironment(task, SUITE.tools, SUITE.grammar)
    path = f"{{.status.containerStatuses[?(@.name=='{container}')].lastState.terminated"
    template = f"{path}.startedAt}} {path}.finishedAt}}"
    window = env.execute(
        "run_command", {"cmd": f"kubectl get pod {pod} -n {ns} -o jsonpath='{template}'"}
    ).output.split()
    started, finished = (datetime.fromisoformat(t.replace("Z", "+00:00")) for t in window)
    logs = env.execute(
        "run_command", {"cmd": f"kubectl logs {pod} -n {ns} -c {container} --previous"}
    ).output
    stamps = [CLOCK.search(line) for line in logs.splitlines()]
    if task_id.startswith("crashloop-cause-"):  # generated stamped lines (others may have none)
        assert any(stamps), (task_id, logs)
    for match in filter(None, stamps):
        h, m, s = map(int, match.groups())
        when = started.replace(hour=h, minute=m, second=s, microsecond=0)
        assert started.replace(microsecond=0) <= when <= finished, (task_id, match.group(0))
