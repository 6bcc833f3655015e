"""A write a task's rules answer is recorded as the change it makes (`changes:` of a rule), and a
program the host has that only rules answer (`rule_programs`) is not simulated past them: an
unruled subcommand is off-script, never `command not found`."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import Change
from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import TaskSuite

SWITCHOVER = "plan-postgres-switchover"
NGINX = "plan-nginx-cert-reload"


def env_of(suite: TaskSuite, task_id: str) -> SimulatedEnvironment:
    task = next(t for t in suite.tasks if t.id == task_id)
    return SimulatedEnvironment(task, suite.tools, suite.grammar)


@pytest.mark.parametrize(
    ("cmd", "change"),
    [
        ("sudo systemctl stop patroni", Change("systemd", "stop", "patroni.service")),
        ("ssh db-1 sudo systemctl stop patroni", Change("systemd", "stop", "patroni.service")),
        ("systemctl kill postgresql", Change("systemd", "kill", "postgresql.service")),
    ],
)
def test_stopping_the_primary_is_a_recorded_change(
    suite: TaskSuite, cmd: str, change: Change
) -> None:
    env = env_of(suite, SWITCHOVER)
    result = env.execute("run_command", {"cmd": cmd})
    assert result.source == "rule" and result.changes == (change,)
    assert env.changes == [change] and env.state["primary_stopped"] is True


def test_an_unruled_patronictl_subcommand_is_not_simulated(suite: TaskSuite) -> None:
    env = env_of(suite, SWITCHOVER)
    result = env.execute(
        "run_command", {"cmd": "patronictl -c /etc/patroni/orders.yml failover --force"}
    )
    assert (result.source, result.kind) == ("fallback", "unmatched")
    assert "command not found" not in result.output
    assert result.output == "bash: patronictl failover: not available in this environment"
    assert env.simulator_errors == ["not simulated: patronictl failover"]
    assert env.changes == []
    # a program the host lacks is still missing
    assert "command not found" in env.execute("run_command", {"cmd": "pg_autoctl show"}).output


def test_a_ruled_patronictl_call_still_answers_from_the_rules(suite: TaskSuite) -> None:
    env = env_of(suite, SWITCHOVER)
    listed = env.execute("run_command", {"cmd": "patronictl -c /etc/patroni/orders.yml list"})
    assert listed.source == "rule" and "| db-orders-1 | 10.0.7.11 | Leader" in listed.output


@pytest.mark.parametrize(
    ("lines", "action"),
    [
        (["systemctl restart nginx"], "restart"),
        (["sudo systemctl reload nginx"], "reload"),  # before nginx -t
        (["nginx -t", "sudo nginx -s reload"], "reload"),
        (["nginx -t && systemctl reload nginx.service"], "reload"),
    ],
)
def test_nginx_reload_and_restart_record_their_change(
    suite: TaskSuite, lines: list[str], action: str
) -> None:
    env = env_of(suite, NGINX)
    results = [env.execute("run_command", {"cmd": line}) for line in lines]
    assert results[-1].changes == (Change("systemd", action, "nginx.service"),)
    assert env.changes == [Change("systemd", action, "nginx.service")]


def test_a_line_the_rules_cannot_answer_whole_records_nothing(suite: TaskSuite) -> None:
    env = env_of(suite, NGINX)
    result = env.execute("run_command", {"cmd": "systemctl reload nginx && frobnicate"})
    assert result.source == "fallback" and env.changes == []
    assert env.state["serving"] == "old"
