"""Processes: pgrep, pidof, kill, pkill and top over the declared `system.processes`."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import Change
from agentbench.sim.core.spec import ProcessSpec, SocketSpec, SystemSpec, UnitSpec, UserSpec
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

JAVA = "/usr/bin/java -Xmx512m -jar /opt/legacy-admin/legacy-admin.jar --server.port=8080"


@pytest.fixture
def app() -> World:
    system = SystemSpec(
        hostname="app-02",
        users=[UserSpec(name="legacy", uid=1001)],
        units=[
            UnitSpec(name="legacy-admin.service", description="Legacy admin", main_pid=1402),
        ],
        processes=[
            ProcessSpec(pid=901, command="sshd: /usr/sbin/sshd -D [listener] 0 of 10-100"),
            ProcessSpec(pid=1402, user="legacy", command=JAVA, cpu=1.0, mem=2.5, time="2:58"),
            ProcessSpec(pid=2210, user="ops", command="/usr/bin/python3 /home/ops/report.py"),
            ProcessSpec(pid=2215, user="ops", command="python3 -m http.server 9000", stat="R"),
        ],
        sockets=[
            SocketSpec(local="0.0.0.0:8080", pid=1402),
            SocketSpec(local="0.0.0.0:22", pid=901),
        ],
    )
    return World(WorldSpec(system=system))


@pytest.mark.parametrize(
    ("cmd", "stdout"),
    [
        ("pgrep java", "1402\n"),
        ("pgrep -l java", "1402 java\n"),
        ("pgrep -a java", f"1402 {JAVA}\n"),
        ("pgrep -f legacy-admin", "1402\n"),
        ("pgrep -u ops python", "2210\n2215\n"),
        ("pgrep -c python3", "2\n"),
        ("pgrep -x sshd", "901\n"),
        ("pgrep -n python", "2215\n"),
        ("pidof python3", "2215 2210\n"),
        ("pidof java", "1402\n"),
    ],
)
def test_pgrep_and_pidof_list_the_declared_processes(app: World, cmd: str, stdout: str) -> None:
    result = sh(app, cmd)
    assert (result.stdout, result.exit_code, result.simulated) == (stdout, 0, True)


def test_pgrep_misses_and_usage_errors_are_procps(app: World) -> None:
    assert (sh(app, "pgrep nginx").stdout, sh(app, "pgrep nginx").exit_code) == ("", 1)
    assert sh(app, "pgrep -f 'legacy-admin.jar --server.port=9090'").exit_code == 1
    assert sh(app, "pidof nginx").exit_code == 1
    usage = sh(app, "pgrep")
    assert usage.stderr == (
        "pgrep: no matching criteria specified\nTry `pgrep --help' for more information.\n"
    )
    assert usage.exit_code == 2
    assert sh(app, "pgrep -u nobody2 java").stderr == "pgrep: invalid user name: nobody2\n"


def test_one_read_in_two_spellings_means_the_same(app: World) -> None:
    assert sh(app, "pgrep java").identity == sh(app, "pgrep -f 'jar /opt/legacy'").identity


def test_kill_needs_permission_and_a_live_pid(app: World) -> None:
    denied = sh(app, "kill 1402")
    assert (denied.stderr, denied.exit_code) == (
        "bash: kill: (1402) - Operation not permitted\n",
        1,
    )
    missing = sh(app, "kill -9 4242")
    assert (missing.stderr, missing.exit_code) == ("bash: kill: (4242) - No such process\n", 1)
    assert sh(app, "kill abc").stderr == "bash: kill: abc: arguments must be process or job IDs\n"
    assert sh(app, "kill -FOO 1402").stderr == "bash: kill: FOO: invalid signal specification\n"
    assert sh(app, "kill").exit_code == 2
    assert denied.changes == [] and "1402" in sh(app, "pgrep java").stdout


@pytest.mark.parametrize(
    "cmd",
    ["sudo kill 1402", "sudo kill -TERM 1402", "sudo kill -s SIGTERM 1402", "sudo kill -15 1402"],
)
def test_kill_ends_the_process_and_is_a_recorded_change(app: World, cmd: str) -> None:
    result = sh(app, cmd)
    assert (result.stdout, result.stderr, result.exit_code) == ("", "", 0)
    assert result.changes == [Change("process", "kill", "1402", "SIGTERM java")]
    assert sh(app, "pgrep java").exit_code == 1
    assert "java" not in sh(app, "ps aux").stdout
    assert ":8080" not in sh(app, "sudo ss -ltnp").stdout  # its socket closed with it
    assert "inactive (dead)" in sh(app, "systemctl status legacy-admin").stdout


def test_sigkill_leaves_the_unit_failed_and_kill_0_changes_nothing(app: World) -> None:
    assert sh(app, "sudo kill -0 1402").changes == []
    killed = sh(app, "sudo kill -9 1402")
    assert killed.changes == [Change("process", "kill", "1402", "SIGKILL java")]
    assert "failed (Result: signal)" in sh(app, "systemctl status legacy-admin").stdout


def test_pkill_signals_what_the_user_may_and_reports_the_rest(app: World) -> None:
    own = sh(app, "pkill -f report.py")
    assert (own.exit_code, own.changes) == (
        0,
        [Change("process", "kill", "2210", "SIGTERM python3")],
    )
    other = sh(app, "pkill java")
    assert other.stderr == "pkill: killing pid 1402 failed: Operation not permitted\n"
    assert other.exit_code == 1 and other.changes == []
    assert sh(app, "pkill nothing-like-this").exit_code == 1
    assert sh(app, "sudo pkill -9 java").changes[0].detail == "SIGKILL java"


def test_identify_leaves_the_process_running(app: World) -> None:
    assert app.identify("run_command", {"cmd": "sudo kill 1402"}) is not None
    assert sh(app, "pgrep java").stdout == "1402\n"


def test_top_batch_mode_lists_by_cpu(app: World) -> None:
    out = sh(app, "top -b -n 1").stdout.splitlines()
    assert out[0].startswith("top - 09:30:00 up 17 days,  5:20,  1 user,  load average: 0.18")
    assert out[1] == "Tasks:   4 total,   1 running,   3 sleeping,   0 stopped,   0 zombie"
    assert out[3].startswith("MiB Mem :  16384.0 total,   8192.0 free,   4096.0 used,")
    header = "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND"
    assert out[6] == header
    assert out[7].split()[0::11] == ["1402", "java"] and out[7].split()[1] == "legacy"
    assert sh(app, "top -bn1 | head -3").stdout.count("\n") == 3
    assert sh(app, "top").exit_code == 1  # no terminal behind a tool call
