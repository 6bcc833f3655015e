"""printf, pwd, set, shopt (bash builtins) and touch read their flags through the option table:
bash's own rejection for a builtin (`bash: NAME: -x: invalid option`, its usage line, exit 2),
coreutils' for touch, and not simulated for a real option the simulator does not carry."""

from __future__ import annotations

import pytest

from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

SET_USAGE = "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n"


@pytest.fixture
def world() -> World:
    return World(WorldSpec(files={"/tmp/seen": "x\n"}))


@pytest.mark.parametrize(
    ("cmd", "stderr"),
    [
        (
            "printf --bogus",
            "bash: printf: --: invalid option\nprintf: usage: printf [-v var] format [arguments]\n",
        ),
        (
            "printf '-x%s' a",
            "bash: printf: -x: invalid option\nprintf: usage: printf [-v var] format [arguments]\n",
        ),
        ("pwd -x", "bash: pwd: -x: invalid option\npwd: usage: pwd [-LP]\n"),
        ("pwd --bogus", "bash: pwd: --: invalid option\npwd: usage: pwd [-LP]\n"),
        ("set --bogus", "bash: set: --: invalid option\n" + SET_USAGE),
        ("set -i", "bash: set: -i: invalid option\n" + SET_USAGE),
        (
            "shopt -x",
            "bash: shopt: -x: invalid option\nshopt: usage: shopt [-pqsu] [-o] [optname ...]\n",
        ),
    ],
)
def test_a_builtin_rejects_an_option_as_bash_does(world: World, cmd: str, stderr: str) -> None:
    result = sh(world, cmd)
    assert (result.simulated, result.exit_code, result.stdout, result.stderr) == (
        True,
        2,
        "",
        stderr,
    )


def test_touch_rejects_an_option_as_coreutils_does(world: World) -> None:
    result = sh(world, "touch --bogus /tmp/new")
    assert (result.exit_code, result.stderr) == (
        1,
        "touch: unrecognized option '--bogus'\nTry 'touch --help' for more information.\n",
    )
    assert sh(world, "test -e /tmp/new").exit_code == 1


@pytest.mark.parametrize(
    "cmd",
    [
        *("printf -v out %s x", "set -e", "set -euo pipefail", "set +x", "set", "shopt"),
        *("shopt -s nullglob", "touch -m /tmp/seen", "touch -d yesterday /tmp/seen"),
        "touch -r /tmp/seen /tmp/new",
    ],
)
def test_a_real_option_not_carried_is_not_simulated(world: World, cmd: str) -> None:
    result = sh(world, cmd)
    assert not result.simulated, (cmd, result.stdout, result.stderr)


def test_the_carried_options_answer_as_bash_and_coreutils(world: World) -> None:
    home = sh(world, "pwd").stdout
    assert sh(world, "pwd -L").stdout == sh(world, "pwd -P").stdout == home
    assert sh(world, "printf '%s\\n' -x").stdout == "-x\n"  # options end at the format
    assert sh(world, "printf -- '-%s\\n' x").stdout == "-x\n"
    assert sh(world, "touch -c /tmp/absent && test -e /tmp/absent").exit_code == 1
    assert sh(world, "touch --no-create /tmp/absent; ls /tmp").stdout == "seen\n"
    assert sh(world, "touch /tmp/made && test -e /tmp/made").exit_code == 0
