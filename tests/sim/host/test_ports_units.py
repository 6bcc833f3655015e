"""Ports and the units that bind them: lsof, fuser, ps -p/-o, systemd start on a taken port."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import Change
from agentbench.sim.core.spec import ProcessSpec, SocketSpec, SystemSpec, UnitSpec, UserSpec
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

JAVA = "/usr/bin/java -jar /opt/legacy-admin/legacy-admin.jar --server.port=8080"


@pytest.fixture
def app() -> World:
    system = SystemSpec(
        hostname="app-02",
        users=[UserSpec(name="legacy", uid=1001)],
        units=[
            UnitSpec(
                name="api-gateway.service",
                description="API gateway (node)",
                active="failed",
                main_pid=1911,
                exec_start="/usr/bin/node /opt/api-gateway/server.js",
                listen="0.0.0.0:8080",
            ),
            UnitSpec(name="legacy-admin.service", description="Legacy admin", main_pid=1402),
        ],
        processes=[ProcessSpec(pid=1402, user="legacy", command=JAVA, time="2:58")],
        sockets=[SocketSpec(local="[::]:8080", pid=1402, send_q=100)],
    )
    return World(WorldSpec(system=system))


def test_lsof_and_fuser_name_the_holder(app: World) -> None:
    lsof = sh(app, "sudo lsof -i :8080").stdout.splitlines()
    assert lsof[0].startswith("COMMAND  PID USER   FD TYPE DEVICE SIZE/OFF NODE NAME")
    assert lsof[1].split()[:3] == ["java", "1402", "legacy"]
    assert lsof[1].endswith("TCP  *:http-alt (LISTEN)")
    assert sh(app, "sudo lsof -nP -iTCP:8080 -sTCP:LISTEN").stdout.endswith("*:8080 (LISTEN)\n")
    assert sh(app, "sudo lsof -i tcp:http-alt").stdout == sh(app, "sudo lsof -i :8080").stdout
    assert sh(app, "sudo fuser 8080/tcp").stdout == "8080/tcp:             1402\n"
    assert sh(app, "sudo fuser -n tcp 8080").stdout == "8080/tcp:             1402\n"
    # another user's socket is invisible without root, as on a real host
    assert (sh(app, "lsof -i :8080").stdout, sh(app, "lsof -i :8080").exit_code) == ("", 1)
    assert sh(app, "fuser 8080/tcp").exit_code == 1
    assert sh(app, "sudo lsof -i :9999").exit_code == 1


def test_fuser_k_kills_and_is_recorded(app: World) -> None:
    result = sh(app, "sudo fuser -k 8080/tcp")
    assert result.changes == [Change("process", "kill", "1402", "SIGKILL java")]
    assert sh(app, "sudo lsof -i :8080").exit_code == 1


@pytest.mark.parametrize(
    ("cmd", "stdout"),
    [
        ("ps -p 1402", "    PID TTY          TIME CMD\n   1402 ?        00:02:58 java\n"),
        ("ps -o pid,user,cmd -p 1402", f"    PID USER     CMD\n   1402 legacy   {JAVA}\n"),
        ("ps -o pid= -o comm= -p 1402", "   1402 java\n"),
        ("ps -o pid,user=OWNER -p 1402", "    PID OWNER\n   1402 legacy\n"),
        ("ps -eo pid,comm", "    PID COMMAND\n   1402 java\n"),
    ],
)
def test_ps_selects_and_formats(app: World, cmd: str, stdout: str) -> None:
    assert sh(app, cmd).stdout == stdout


def test_ps_errors(app: World) -> None:
    assert sh(app, "ps -p 4242").exit_code == 1
    bad = sh(app, "ps -o pid,nope")
    assert bad.stderr == 'error: unknown user-defined format specifier "nope"\n'
    assert sh(app, "ps -fp 1402").stdout.splitlines()[1].startswith("legacy      1402       1")


def test_a_start_on_a_taken_port_fails_until_the_holder_stops(app: World) -> None:
    failed = sh(app, "sudo systemctl start api-gateway")
    assert failed.exit_code == 1
    assert failed.stderr.startswith("Job for api-gateway.service failed because the control")
    journal = sh(app, "journalctl -u api-gateway --no-pager").stdout
    assert "node[1912]: Error: listen EADDRINUSE: address already in use 0.0.0.0:8080" in journal
    assert "legacy-admin.service" in sh(app, "systemctl status 1402").stdout
    stopped = sh(app, "sudo systemctl disable --now legacy-admin")
    assert [c.action for c in stopped.changes] == ["disable", "stop"]
    assert sh(app, "pgrep java").exit_code == 1
    started = sh(app, "sudo systemctl restart api-gateway.service")
    assert (started.exit_code, started.changes) == (
        0,
        [Change("systemd", "restart", "api-gateway.service")],
    )
    assert "active (running)" in sh(app, "systemctl status api-gateway").stdout
    assert sh(app, "pgrep -a node").stdout == "1913 /usr/bin/node /opt/api-gateway/server.js\n"
    assert 'users:(("node",pid=1913' in sh(app, "sudo ss -ltnp").stdout
    assert sh(app, "systemctl status 1913").identity == ("systemd", "status", "api-gateway.service")
