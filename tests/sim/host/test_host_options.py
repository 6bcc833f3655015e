"""Host programs read their flags through the option table (sim/core/options.py): each carried
option changes the answer as the real tool's does, a real option not carried is not simulated,
and an option the real tool does not have gets its rejection (procps, bind9 and psmisc answer
one with their whole usage text, which is not carried: not simulated)."""

from __future__ import annotations

import pytest

from agentbench.sim.core.spec import ProcessSpec, SocketSpec, SystemSpec, UnitSpec, UserSpec
from agentbench.sim.core.spec_services import DnsRecord, LoginSpec
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh


@pytest.fixture
def box() -> World:
    system = SystemSpec(
        hostname="app-02.prod.internal",
        users=[UserSpec(name="legacy", uid=1001)],
        units=[
            UnitSpec(name="nginx.service", description="nginx", main_pid=700),
            UnitSpec(name="worker.service", description="worker", active="failed"),
        ],
        processes=[
            ProcessSpec(pid=700, command="nginx: master process /usr/sbin/nginx"),
            ProcessSpec(pid=701, user="legacy", command="nginx: worker process"),
        ],
        sockets=[SocketSpec(local="0.0.0.0:80", pid=700)],
        logins=[
            LoginSpec(user="ops", tty="pts/0", host="10.0.8.5", start="2026-11-29T08:00:00Z"),
            LoginSpec(user="alice", tty="pts/1", host="10.0.8.6", start="2026-11-29T08:10:00Z"),
        ],
        dns=[DnsRecord(name="billing.internal", value="10.0.4.20")],
    )
    return World(WorldSpec(system=system))


def _rejected(world: World, cmd: str) -> tuple[int, str]:
    result = sh(world, cmd)
    assert result.simulated and result.stdout == "", (cmd, result)
    return result.exit_code, result.stderr


def _not_simulated(world: World, cmd: str) -> None:
    result = sh(world, cmd)
    assert not result.simulated, (cmd, result.stdout, result.stderr)


@pytest.mark.parametrize(
    ("cmd", "stderr"),
    [
        (
            "id --bogus",
            "id: unrecognized option '--bogus'\nTry 'id --help' for more information.\n",
        ),
        ("date -j", "date: invalid option -- 'j'\nTry 'date --help' for more information.\n"),
        ("date + +", "date: extra operand '+'\nTry 'date --help' for more information.\n"),
        (
            "last --bogus",
            "last: unrecognized option '--bogus'\nTry 'last --help' for more information.\n",
        ),
        ("last -n x", "last: failed to parse number: 'x'\n"),
        ("systemctl --bogus status nginx", "systemctl: unrecognized option '--bogus'\n"),
        ("systemctl -j", "systemctl: invalid option -- 'j'\n"),
    ],
)
def test_an_option_the_real_tool_lacks_gets_its_rejection(
    box: World, cmd: str, stderr: str
) -> None:
    assert _rejected(box, cmd) == (1, stderr)


def test_id_rejects_the_combinations_coreutils_rejects(box: World) -> None:
    hint = "\nTry 'id --help' for more information.\n"
    assert _rejected(box, "id -n") == (
        1,
        "id: cannot print only names or real IDs in default format" + hint,
    )
    assert _rejected(box, "id -u -G") == (
        1,
        'id: cannot print "only" of more than one choice' + hint,
    )


@pytest.mark.parametrize(
    "cmd",
    [
        *("free --bogus", "free -t", "free -s 1", "uptime -p", "uptime --bogus", "uptime now"),
        *("hostname -f", "hostname -I", "hostname new-name", "hostname --bogus", "id -Z"),
        *("date -d yesterday", "date --iso-8601", "date -R", "date 112912002026"),
        *("dig -x 10.0.4.20", "dig +noall +answer billing.internal", "dig --bogus"),
        *("nslookup -type=mx billing.internal", "nslookup billing.internal 8.8.8.8", "nslookup"),
        *("pidof -x nginx", "pidof -o 700 nginx", "pidof --bogus"),
        *("ps auxf", "ps -u root", "ps --forest -e", "ps -eF", "ps --bogus", "ps -f", "ps u"),
        *("last -x", "last --since yesterday", "last -F", "w -s", "w --bogus"),
        *("systemctl --user status nginx", "systemctl list-units --all", "systemctl -H h status"),
        *("systemctl list-units --state=running", "systemctl --plain list-units"),
        *("fuser -v 80/tcp", "fuser -k -TERM 80/tcp", "fuser --bogus", "fuser /var/log/syslog"),
    ],
)
def test_a_real_option_not_carried_is_not_simulated(box: World, cmd: str) -> None:
    _not_simulated(box, cmd)


def test_the_carried_options_answer_as_the_real_tools(box: World) -> None:
    assert sh(box, "hostname").stdout == "app-02.prod.internal\n"
    assert sh(box, "hostname -s").stdout == "app-02\n"
    assert sh(box, "id -u legacy").stdout == "1001\n"
    assert sh(box, "id -un").stdout == "ops\n"
    assert sh(box, "id -Gn").stdout == sh(box, "id --groups --name").stdout == "ops adm sudo\n"
    assert sh(box, "date -u +%F").stdout == sh(box, "date +%F").stdout
    kib, mib, b = (sh(box, f"free {f}").stdout.split("\n")[1].split() for f in ("", "-m", "-b"))
    assert int(kib[1]) == int(b[1]) // 1024 and int(mib[1]) == int(b[1]) // 1024**2
    assert sh(box, "free -m -k").stdout == sh(box, "free").stdout  # the last unit given wins
    assert sh(box, "pidof nginx").stdout == "701 700\n"
    assert sh(box, "pidof -S, nginx").stdout == "701,700\n"
    assert sh(box, "pidof -s nginx").stdout == "701\n"
    quiet = sh(box, "pidof -q nginx")
    assert (quiet.exit_code, quiet.stdout) == (0, "")
    assert sh(box, "ps -e -o pid=").stdout == "    700\n    701\n"
    assert sh(box, "ps auxww").stdout == sh(box, "ps aux").stdout  # no terminal: never cut
    assert sh(box, "last -1").stdout.splitlines()[0].split()[0] == "alice"
    assert (
        sh(box, "last -n 1").stdout == sh(box, "last --limit=1").stdout == sh(box, "last -1").stdout
    )
    assert sh(box, "w -h").stdout.splitlines()[0].split()[:2] == ["ops", "pts/0"]
    assert [line.split()[0] for line in sh(box, "w -h alice").stdout.splitlines()] == ["alice"]
    assert sh(box, "dig +short billing.internal IN A").stdout == "10.0.4.20\n"
    assert sh(box, "dig -t A +short billing.internal").stdout == "10.0.4.20\n"


def test_systemctl_quiet_and_no_legend(box: World) -> None:
    quiet = sh(box, "systemctl is-active -q worker")
    assert (quiet.exit_code, quiet.stdout) == (3, "")
    assert sh(box, "systemctl is-active nginx").stdout == "active\n"
    listed = sh(box, "systemctl list-units --no-legend").stdout.splitlines()
    assert [line.split()[1] if line.startswith("●") else line.split()[0] for line in listed] == [
        "nginx.service",
        "worker.service",
    ]
    failed = sh(box, "systemctl list-units --state=failed --no-legend").stdout
    assert failed.split()[1] == "worker.service"
    show = sh(box, "systemctl show -P MainPID nginx")
    assert (
        show.stdout == sh(box, "systemctl show --property=MainPID --value nginx").stdout == "700\n"
    )
