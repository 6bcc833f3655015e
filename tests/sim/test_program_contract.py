"""The contract every registered program keeps, checked through the World's shell.

Parametrized over the registry (agentbench/sim/programs.py): a program added later is checked
without a line here, except that it must say whether it reads stdin (`READS_STDIN` or
`IGNORES_STDIN`). Each program runs in a World that declares every part it needs (its
stand-in in one that declares none):

- exit codes are ints 0-255;
- `--help` is answered (exit 0) or not simulated, never with an invented error;
- an unknown flag fails (non-zero, a message naming the program) or is not simulated;
- empty stdin does not crash; in a pipe the program receives stdin;
- every call ends within its work budget (sim/core/budget.py), on a large input too.

A program reads its options through one option table (sim/core/options.py), so none accepts
an unknown flag silently.
"""

from __future__ import annotations

import time

import pytest

from agentbench.sim.core.budget import Budget, Limits, bounded
from agentbench.sim.core.registry import Registration
from agentbench.sim.core.spec import HttpRoute, SystemSpec
from agentbench.sim.kube.schema.model import Cluster
from agentbench.sim.programs import registrations
from agentbench.sim.sql.spec import SqlSpec, TableSpec
from agentbench.sim.terraform.spec import Resource, TerraformSpec
from agentbench.sim.world import World, WorldSpec

BIG = "".join(f"line {i} alpha beta\n" for i in range(20_000))  # ~0.4 MB
FULL = WorldSpec(
    files={"/etc/nginx/nginx.conf": "events {}\n", "/tmp/in.txt": "b\na\n", "/tmp/big": BIG},
    system=SystemSpec(),
    cluster=Cluster(namespaces=["default"]),
    sql=SqlSpec(tables={"t": TableSpec(columns={"x": "int"}, rows=[[1]])}),
    http=[HttpRoute(url="http://api.internal/health", body="ok")],
    terraform=TerraformSpec(dir="/home/ops", resources=[Resource(address="aws_vpc.main", id="v")]),
)
REGISTERED = registrations()
CASES = [pytest.param(r, id=f"{r.name}{'(stand-in)' if r.stand_in else ''}") for r in REGISTERED]

# program -> (a command reading stdin, text it must print when it received "b\na\n")
READS_STDIN = {
    **{n: (n, "b\na") for n in ("cat", "less", "more", "tee")},
    "sort": ("sort", "a\nb"),
    **{n: (f"{n} a", "a") for n in ("grep", "egrep", "zgrep", "zegrep")},
    "head": ("head -n 1", "b"),
    "tail": ("tail -n 1", "a"),
    "wc": ("wc -l", "2"),
    "uniq": ("uniq", "b\na"),
    "cut": ("cut -c1", "b\na"),
    "tr": ("tr a A", "A"),
    "awk": ("awk '{print NR\": \"$0}'", "2: a"),
    "sed": ("sed -n 2p", "a"),
    "jq": ("tr ba 12 | jq -s add", "3"),  # jq reads JSON: the letters become numbers first
    "psql": ("psql -At", ""),  # SQL on stdin: "b\na" is not SQL; an error, not a hang
}
IGNORES_STDIN = {
    *("kubectl", "du", "zcat", "zless", "zmore", "gunzip", "gzip", "ls", "find", "stat", "test"),
    *("[", "echo", "printf", "pwd", "true", "false", "touch", "mkdir", "rm", "chmod", "chown"),
    *("chgrp", "cp", "mv", "cd", "export", "set", ":", "shopt", "docker", "ss", "free"),
    *("uptime", "hostname", "whoami", "id", "uname", "date", "df", "journalctl", "dig", "host"),
    *("nslookup", "getent", "iptables", "nginx", "kill", "pgrep", "pkill", "pidof", "top"),
    *("lsof", "fuser", "ps", "who", "last", "lastb", "w", "systemctl", "openssl", "curl"),
    *("wget", "terraform"),
}
# the real tool's unknown-flag text does not name it (openssl: "Invalid command '--x'; type
# "help" for a list.") or it names the program it runs (egrep is grep, zcat is gzip)
SPEAKS_AS = {"egrep": "grep", "zgrep": "grep", "zegrep": "grep", "openssl": "Invalid command"}
SPEAKS_AS |= dict.fromkeys(("zcat", "zless", "zmore", "gunzip"), "gzip")
# builtins that take no options: a flag is an operand, as in bash (`echo` prints it)
OPERANDS_ONLY = {"echo": "--no-such-flag-xyz\n", "test": "", "[": "", "true": "", "false": ""}
OPERANDS_ONLY[":"] = ""
_WORLDS: dict[bool, World] = {}


def _world(reg: Registration) -> World:
    if reg.stand_in not in _WORLDS:
        _WORLDS[reg.stand_in] = World(WorldSpec() if reg.stand_in else FULL)
    world = _WORLDS[reg.stand_in]
    assert reg.name in world.programs, f"{reg.name} is not bound in its contract world"
    return world.copy()


def _run(reg: Registration, line: str) -> tuple[int, str, str, bool]:
    result = _world(reg).call("run_command", {"cmd": line})
    assert result is not None
    r = result.result
    assert isinstance(r.exit_code, int) and 0 <= r.exit_code <= 255, (line, r.exit_code)
    return r.exit_code, r.stdout, r.stderr, r.simulated


def _line(reg: Registration, args: str) -> str:
    return f"{reg.name} {args}" + (" ]" if reg.name == "[" else "")


@pytest.mark.parametrize("reg", CASES)
def test_help_is_answered_or_not_simulated(reg: Registration) -> None:
    code, _, stderr, simulated = _run(reg, _line(reg, "--help"))
    if simulated:  # `false` ignores its operands and fails, as ever
        assert code == (1 if reg.name == "false" else 0), (
            f"{reg.name} --help answered with an error: {stderr!r}"
        )


@pytest.mark.parametrize("reg", CASES)
def test_an_unknown_flag_fails_with_a_message_naming_the_program(reg: Registration) -> None:
    code, stdout, stderr, simulated = _run(reg, _line(reg, "--no-such-flag-xyz"))
    if reg.name in OPERANDS_ONLY and simulated:
        assert stdout == OPERANDS_ONLY[reg.name]
        assert code == (1 if reg.name == "false" else 0)
    elif simulated:
        assert code != 0, f"{reg.name} accepted --no-such-flag-xyz"
        assert SPEAKS_AS.get(reg.name, reg.name) in stderr, stderr


@pytest.mark.parametrize("reg", CASES)
def test_empty_stdin_does_not_crash(reg: Registration) -> None:
    _run(reg, f"true | {_line(reg, '')}")
    _run(reg, f"{_line(reg, '')} < /dev/null")


def test_every_program_says_whether_it_reads_stdin() -> None:
    names = {r.name for r in REGISTERED}
    assert names - READS_STDIN.keys() - IGNORES_STDIN == set()
    assert READS_STDIN.keys() & IGNORES_STDIN == set()


@pytest.mark.parametrize(
    "reg", [c for c in CASES if c.values[0].name in READS_STDIN and not c.values[0].stand_in]
)
def test_a_program_in_a_pipe_receives_stdin(reg: Registration) -> None:
    command, expected = READS_STDIN[reg.name]
    code, stdout, stderr, simulated = _run(reg, f"printf 'b\\na\\n' | {command}")
    assert simulated
    if reg.name == "psql":  # the text reached the server, which rejects it as SQL
        assert code != 0 and "syntax error" in stderr, stderr
    else:
        assert code == 0 and expected in stdout, (stdout, stderr)


@pytest.mark.parametrize("reg", CASES)
def test_a_call_on_a_large_input_ends_within_its_budget(reg: Registration) -> None:
    limits = Limits(seconds=2.0, steps=200_000, total_bytes=8 << 20)
    started = time.perf_counter()
    with bounded(Budget(limits)):
        _run(reg, f"cat /tmp/big | {_line(reg, '')}")
    assert time.perf_counter() - started < 6.0
