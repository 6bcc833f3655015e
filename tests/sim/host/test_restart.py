"""systemd's Restart= after a unit's main process is killed (sim/host/restart.py): always
restarts after any signal, on-failure only after an unclean one (SIGKILL, not SIGTERM), with a
new main PID that takes the port again; the unit file's Restart= line is the default policy."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import Change
from agentbench.sim.core.spec import ProcessSpec, SocketSpec, SystemSpec, UnitSpec, UserSpec
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

JAVA = "/usr/bin/java -jar /opt/legacy-admin/legacy-admin.jar --server.port=8080"
UNIT_FILE = "[Unit]\nDescription=Legacy admin\n\n[Service]\nExecStart={java}\nRestart={policy}\n"


def world(policy: str | None, *, in_file: bool = True) -> World:
    unit = UnitSpec(
        name="legacy-admin.service",
        description="Legacy admin",
        main_pid=1402,
        restart=None if in_file else policy,  # type: ignore[arg-type]
    )
    system = SystemSpec(
        hostname="app-02",
        users=[UserSpec(name="legacy", uid=1001)],
        units=[unit],
        processes=[ProcessSpec(pid=1402, user="legacy", command=JAVA)],
        sockets=[SocketSpec(local="0.0.0.0:8080", pid=1402)],
    )
    files = {}
    if in_file and policy is not None:
        text = UNIT_FILE.format(java=JAVA, policy=policy)
        files["/etc/systemd/system/legacy-admin.service"] = text
    return World(WorldSpec(system=system, files=files))


@pytest.mark.parametrize("signal", ["-TERM", "-KILL", "-HUP", "-INT", "-QUIT"])
def test_always_brings_the_unit_back_after_any_signal(signal: str) -> None:
    app = world("always")
    killed = sh(app, f"sudo kill {signal} 1402")
    assert killed.changes[-1].system == "systemd"
    assert (killed.changes[-1].action, killed.changes[-1].target) == (
        "auto-restart",
        "legacy-admin.service",
    )
    ss = sh(app, "sudo ss -ltnp").stdout
    assert ":8080" in ss and "pid=1402" not in ss
    new_pid = sh(app, "pgrep java").stdout.strip()
    assert new_pid and new_pid != "1402"
    assert f"pid={new_pid}," in ss
    assert sh(app, f"ps -o user= -p {new_pid}").stdout.strip() == "legacy"
    status = sh(app, "systemctl status legacy-admin").stdout
    assert "active (running)" in status and f"Main PID: {new_pid} (java)" in status
    assert "Scheduled restart job, restart counter is at 1." in status


def test_on_failure_restarts_after_sigkill_but_not_after_sigterm() -> None:
    app = world("on-failure")
    sh(app, "sudo kill -9 1402")
    assert sh(app, "systemctl is-active legacy-admin").stdout == "active\n"
    second = sh(app, "pgrep java").stdout.strip()
    term = sh(app, f"sudo kill {second}")
    assert term.changes == [Change("process", "kill", second, "SIGTERM java")]
    assert sh(app, "systemctl is-active legacy-admin").stdout == "inactive\n"
    assert ":8080" not in sh(app, "sudo ss -ltnp").stdout
    journal = sh(app, "journalctl -u legacy-admin --no-pager").stdout
    assert "code=killed, status=9/KILL" in journal and "status=15/TERM" in journal
    assert "Failed with result 'signal'." in journal and "Deactivated successfully." in journal


def test_no_restart_policy_leaves_the_port_free() -> None:
    app = world("no")
    assert len(sh(app, "sudo kill -9 1402").changes) == 1
    assert "failed (Result: signal)" in sh(app, "systemctl status legacy-admin").stdout
    assert ":8080" not in sh(app, "sudo ss -ltnp").stdout


def test_the_declared_policy_wins_and_fuser_k_restarts_too() -> None:
    app = world("always", in_file=False)
    killed = sh(app, "sudo fuser -k 8080/tcp")
    assert [c.action for c in killed.changes] == ["kill", "auto-restart"]
    assert ":8080" in sh(app, "sudo ss -ltnp").stdout


def test_stop_is_the_fix_restart_always_does_not_undo_it() -> None:
    app = world("always")
    assert sh(app, "sudo systemctl stop legacy-admin").changes == [
        Change("systemd", "stop", "legacy-admin.service")
    ]
    assert ":8080" not in sh(app, "sudo ss -ltnp").stdout
    assert sh(app, "pgrep java").exit_code == 1
