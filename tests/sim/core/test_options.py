"""The option table every program reads its flags through (agentbench/sim/core/options.py):
carried options come back, a real option not carried is not simulated, an unknown one gets the
real tool's rejection."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.core.options import bash, getopt_line, parse_options, usage_text


def test_carried_options_come_back_in_order_with_their_values() -> None:
    opts, rest, error = parse_options("tail", ["f", "-n", "3", "--lines=4", "g"], "n:", ["lines="])
    assert error is None
    assert opts == [("-n", "3"), ("--lines", "4")] and rest == ["f", "g"]


def test_a_real_option_that_is_not_carried_is_not_simulated() -> None:
    with pytest.raises(NotSimulated, match="touch -m"):
        parse_options("touch", ["-m", "f"], "c", uncarried="m")
    with pytest.raises(NotSimulated, match="date --date"):
        parse_options("date", ["--date=now"], "u", uncarried_long=["date="])


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["-z"], "touch: invalid option -- 'z'"),
        (["--zzz"], "touch: unrecognized option '--zzz'"),
        (["-t"], "touch: option requires an argument -- 't'"),
        (["--date"], "touch: option '--date' requires an argument"),
        (["--no-create=1"], "touch: option '--no-create' doesn't allow an argument"),
    ],
)
def test_gnu_rejections_are_getopts_line_and_the_help_hint(args: list[str], line: str) -> None:
    _, _, error = parse_options("touch", args, "ct:", ["no-create", "date="])
    assert error is not None and error.exit_code == 1
    assert error.stderr == f"{line}\nTry 'touch --help' for more information.\n"


def test_systemd_prints_getopts_line_alone() -> None:
    _, _, error = parse_options("systemctl", ["--zzz"], "", reject=getopt_line)
    assert error is not None and (error.exit_code, error.stderr) == (
        1,
        "systemctl: unrecognized option '--zzz'\n",
    )


def test_a_bash_builtin_stops_at_its_first_operand_and_reads_dashdash_as_a_letter() -> None:
    reject = bash("pwd [-LP]")
    opts, rest, error = parse_options("pwd", ["-L", "x", "-P"], "LP", reject=reject, posix=True)
    assert (opts, rest, error) == ([("-L", "")], ["x", "-P"], None)
    _, _, error = parse_options("pwd", ["--zzz"], "LP", reject=reject, posix=True)
    assert error is not None and error.exit_code == 2
    assert error.stderr == "bash: pwd: --: invalid option\npwd: usage: pwd [-LP]\n"


def test_a_rejection_printed_with_the_whole_usage_text_is_not_simulated() -> None:
    with pytest.raises(NotSimulated, match=r"free --zzz \(answered with free's usage text"):
        parse_options("free", ["--zzz"], "m", reject=usage_text)
    with pytest.raises(NotSimulated, match="nslookup -t"):
        parse_options("nslookup", ["-type=mx"], "", reject=usage_text)
