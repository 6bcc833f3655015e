"""Compound commands: for, if/else and while read, over the shell and the declared host."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import Change
from agentbench.sim.core.spec import FileSpec, ProcessSpec, SystemSpec
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh


@pytest.fixture
def box() -> World:
    files: dict[str, str | FileSpec] = {
        "/srv/a.log": "ok\nERROR one\n",
        "/srv/b.log": "ERROR two\nERROR three\n",
        "/srv/pids": "2210 report\n2215 server\n",
    }
    system = SystemSpec(
        processes=[
            ProcessSpec(pid=2210, user="ops", command="python3 report.py"),
            ProcessSpec(pid=2215, user="ops", command="python3 -m http.server"),
        ]
    )
    return World(WorldSpec(files=files, system=system))


def test_for_runs_the_body_per_globbed_word(box: World) -> None:
    result = sh(box, "for f in /srv/*.log; do grep -c ERROR $f; done")
    assert result.stdout == "1\n2\n"
    assert result.identity == ("file", "read", "/srv/a.log", ";", "file", "read", "/srv/b.log")


@pytest.mark.parametrize(
    ("cmd", "stdout", "code"),
    [
        ("if grep -q ERROR /srv/a.log; then echo found; fi", "found\n", 0),
        ("if grep -q NOPE /srv/a.log; then echo found; fi", "", 0),
        ("if grep -q NOPE /srv/a.log; then echo found; else echo none; fi", "none\n", 0),
        ("if [ -f /srv/c.log ]; then cat /srv/c.log; else echo missing; fi", "missing\n", 0),
        ("if pgrep -f report.py >/dev/null; then echo up; else false; fi", "up\n", 0),
        ("if true; then false; fi", "", 1),
    ],
)
def test_if_takes_the_branch_the_condition_chose(
    box: World, cmd: str, stdout: str, code: int
) -> None:
    result = sh(box, cmd)
    assert (result.stdout, result.exit_code) == (stdout, code)


def test_while_read_over_a_pipe_and_a_file(box: World) -> None:
    piped = sh(box, 'pgrep -a python3 | while read pid cmd; do echo "$pid runs $cmd"; done')
    assert piped.stdout == "2210 runs python3 report.py\n2215 runs python3 -m http.server\n"
    redirected = sh(box, "while read -r pid name; do echo $name; done < /srv/pids")
    assert (redirected.stdout, redirected.identity) == (
        "report\nserver\n",
        ("file", "read", "/srv/pids"),
    )
    missing = sh(box, "while read x; do echo $x; done < /srv/nope")
    assert (missing.stderr, missing.exit_code) == (
        "bash: /srv/nope: No such file or directory\n",
        1,
    )


def test_a_loop_body_that_writes_is_a_change(box: World) -> None:
    result = sh(box, "pgrep python3 | while read pid; do kill $pid; done")
    assert result.changes == [
        Change("process", "kill", "2210", "SIGTERM python3"),
        Change("process", "kill", "2215", "SIGTERM python3"),
    ]
    assert sh(box, "pgrep python3").exit_code == 1


def test_a_redirect_after_a_list_belongs_to_its_last_command(box: World) -> None:
    skipped = sh(box, "false && : > /srv/a.log")
    assert skipped.changes == [] and sh(box, "cat /srv/a.log").stdout == "ok\nERROR one\n"
    both = sh(box, "echo hi && echo there > /tmp/out")
    assert both.stdout == "hi\n"
    assert sh(box, "cat /tmp/out").stdout == "there\n"
    assert sh(box, "grep -c ERROR /srv/b.log | tr 2 Z > /tmp/n").stdout == ""
    assert sh(box, "cat /tmp/n").stdout == "Z\n"
