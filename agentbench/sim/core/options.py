"""Option tables: how a simulated program tells a flag it carries from one it does not.

Every program reads its options through `parse_options`, with getopt's grammar (GNU's
permutation, or POSIX's stop at the first operand for bash builtins). Each option falls in one
of three classes, and none is ever ignored silently (that would answer as if a flag the
simulator does not know did nothing, a wrong answer that still counts as simulated):

- one the simulator carries (`short`, `long`): returned in order with its value;
- one the real tool has but the simulator does not carry (`uncarried`, `uncarried_long`):
  `NotSimulated`, so the call is answered as off-script;
- one the real tool does not have: the real tool's rejection (`reject`), which is one of
  `gnu` (coreutils, util-linux: getopt's line and the `--help` hint, exit 1), `getopt_line`
  (systemd: getopt's line alone), `bash(usage)` (a builtin: `bash: NAME: -x: invalid option`
  and its usage line, exit 2) or `usage_text` (the tool answers with its whole usage text,
  which is not carried, as `--help` is not, or reads options in a grammar of its own: not
  simulated).

Long options are given as getopt spells them (`lines=` takes a value); a short letter followed
by `:` takes one.
"""

from __future__ import annotations

import getopt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agentbench.sim.core.base import CommandResult, NotSimulated


@dataclass(frozen=True)
class BadOption:
    """An option the real tool rejects: what is wrong (`invalid`, `unrecognized`, `requires`,
    `no-argument`, or `operand`: one it takes none of) and the option (`x` for `-x`, `--name`
    for a long one, the word for an operand)."""

    kind: str
    option: str

    @property
    def written(self) -> str:
        return (
            self.option
            if self.option.startswith("--") or self.kind == "operand"
            else (f"-{self.option}")
        )

    @property
    def getopt_text(self) -> str:
        """glibc getopt's line, without the program name."""
        if self.option.startswith("--"):
            return {
                "requires": f"option '{self.option}' requires an argument",
                "no-argument": f"option '{self.option}' doesn't allow an argument",
            }.get(self.kind, f"unrecognized option '{self.option}'")
        if self.kind == "requires":
            return f"option requires an argument -- '{self.option}'"
        return f"invalid option -- '{self.option}'"


Reject = Callable[[str, BadOption, int], CommandResult]


def usage_error(prog: str, problem: str, code: int = 1) -> CommandResult:
    """GNU's text for a bad option: `grep: invalid option -- 'z'` + the --help hint."""
    return CommandResult(
        stderr=f"{prog}: {problem}\nTry '{prog} --help' for more information.\n", exit_code=code
    )


def gnu(prog: str, bad: BadOption, code: int) -> CommandResult:
    return usage_error(prog, bad.getopt_text, code)


def getopt_line(prog: str, bad: BadOption, code: int) -> CommandResult:
    return CommandResult(stderr=f"{prog}: {bad.getopt_text}\n", exit_code=code)


def usage_text(prog: str, bad: BadOption, code: int = 1) -> CommandResult:
    raise NotSimulated(f"{prog} {bad.written} (answered with {prog}'s usage text, not carried)")


def bash(usage: str) -> Reject:
    """A bash builtin's rejection: `bash: printf: -x: invalid option`, its usage line, exit 2
    (bash reads `--name` as the option letter `-`)."""

    def reject(prog: str, bad: BadOption, code: int) -> CommandResult:
        letter = "-" if bad.option.startswith("--") else bad.option
        problem = "option requires an argument" if bad.kind == "requires" else "invalid option"
        text = f"bash: {prog}: -{letter}: {problem}\n{prog}: usage: {usage}\n"
        return CommandResult(stderr=text, exit_code=2)

    return reject


def _bad(exc: getopt.GetoptError) -> BadOption:
    name, msg = exc.opt, exc.msg
    if len(name) == 1:
        return BadOption("requires" if "requires" in msg else "invalid", name)
    if "requires" in msg:
        return BadOption("requires", f"--{name}")
    if "must not have" in msg:
        return BadOption("no-argument", f"--{name}")
    return BadOption("unrecognized", f"--{name}")


def parse_options(
    prog: str,
    args: list[str],
    short: str,
    long: Sequence[str] | None = None,
    code: int = 1,
    *,
    uncarried: str = "",
    uncarried_long: Sequence[str] = (),
    reject: Reject = gnu,
    posix: bool = False,
) -> tuple[list[tuple[str, str]], list[str], CommandResult | None]:
    """(options carried, operands, the rejection or None); an option the real tool has but the
    simulator does not carry raises NotSimulated (see the module docstring)."""
    parse = getopt.getopt if posix else getopt.gnu_getopt
    try:
        opts, rest = parse(args, short + uncarried, [*(long or ()), *uncarried_long])
    except getopt.GetoptError as exc:
        return [], [], reject(prog, _bad(exc), code)
    other_short = {c for c in uncarried if c != ":"}
    other_long = {f"--{name.rstrip('=')}" for name in uncarried_long}
    for name, _ in opts:
        if name in other_long or (len(name) == 2 and name[1] in other_short):
            raise NotSimulated(f"{prog} {name} (an option of the real tool not simulated)")
    return opts, rest, None
