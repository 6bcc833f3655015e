"""bash builtins that act on the shell itself: `cd`, `read`, `eval`, `exit`, `command -v`, and
`test`/`[` (whose file tests ask the filesystem's `test` program).

The ones with nothing to show (`export` with no effect here, `set`, `:`, `true`) are programs
in the registry; these need the shell's state (the directory, variables, stdin's position).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentbench.sim.core.base import CommandResult, NotSimulated, ShellContext
from agentbench.sim.shell.ast import ShellSyntaxError
from agentbench.sim.shell.io import ExitShell, Input
from agentbench.sim.shell.parse import parse

if TYPE_CHECKING:
    from agentbench.sim.shell.interpreter import Shell, State


def builtin(
    shell: Shell, words: list[str], stdin: Input | None, state: State, assigns: dict[str, str]
) -> CommandResult:
    name = words[0]
    if name == "cd":
        if len(words) > 2:
            return CommandResult(stderr="bash: cd: too many arguments\n", exit_code=1)
        target = words[1] if len(words) > 1 else state.vars.get("HOME", "/")
        if target == "-":
            raise NotSimulated("cd - (the previous directory)")
        return shell.cd(target, state)
    if name == "read":
        return _read(words[1:], stdin, state, assigns)
    if name == "eval":
        try:
            tree = parse(" ".join(words[1:]))
        except NotSimulated:
            raise
        except ShellSyntaxError as exc:
            return CommandResult(stderr=f"{exc}\n", exit_code=2)
        return shell.nested(tree, stdin, state)
    if name == "exit":
        code = words[1] if len(words) > 1 else str(state.status)
        if not re.fullmatch(r"-?\d+", code):
            raise ExitShell(2)
        raise ExitShell(int(code) % 256)
    if name == "command":
        return _command_v(shell, words)
    raise NotSimulated(f"{name} (running a script file)")


def _command_v(shell: Shell, words: list[str]) -> CommandResult:
    """`command -v NAME…`: where each program is, exit 1 if any is missing."""
    out, code = "", 0
    for name in words[2:]:
        if name in ("cd", "read", "eval", "exit", "export", "set", "echo", "printf", "test"):
            out += f"{name}\n"
        elif name in shell.programs and name not in shell.not_installed:
            out += f"/usr/bin/{name}\n"
        else:
            code = 1
    if words[1] == "-V":
        raise NotSimulated("command -V")
    return CommandResult(stdout=out, exit_code=code, identity=("command", "-v", *words[2:]))


def _read(
    args: list[str], stdin: Input | None, state: State, assigns: dict[str, str]
) -> CommandResult:
    """`read [-r] [-p PROMPT] NAME…`: one line of stdin split on IFS, the last name taking the
    rest; exit 1 at end of input."""
    raw = False
    names: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-r":
            raw = True
        elif arg in ("-p", "-t", "-u", "-n", "-N", "-d", "-a") or arg == "-s":
            if arg in ("-u", "-n", "-N", "-d", "-a"):
                raise NotSimulated(f"read {arg}")
            i += 0 if arg == "-s" else 1
        elif arg.startswith("-") and set(arg[1:]) <= set("rs"):
            raw = raw or "r" in arg
        else:
            names.append(arg)
        i += 1
    names = names or ["REPLY"]
    line = stdin.readline() if stdin is not None else None
    if line is None:
        for name in names:
            state.vars[name] = ""
        return CommandResult(exit_code=1)
    if not raw:
        line = re.sub(r"\\(.)", r"\1", line)
    ifs = assigns.get("IFS", state.vars.get("IFS", " \t\n"))
    fields = _split_ifs(line, ifs, len(names))
    for index, name in enumerate(names):
        state.vars[name] = fields[index] if index < len(fields) else ""
    return CommandResult()


def _split_ifs(line: str, ifs: str, count: int) -> list[str]:
    """bash's IFS splitting for `read`: IFS blanks collapse and trim, other IFS characters
    each end one field; the last name takes the rest."""
    if ifs == "":
        return [line]
    blanks = re.escape("".join(c for c in ifs if c in " \t\n"))
    others = re.escape("".join(c for c in ifs if c not in " \t\n"))
    if blanks:
        line = re.sub(f"^[{blanks}]+|[{blanks}]+$", "", line)
    if others:
        around = f"[{blanks}]*" if blanks else ""
        separator = f"{around}[{others}]{around}"
        if blanks:
            separator = f"(?:{separator}|[{blanks}]+)"
    else:
        separator = f"[{blanks}]+"
    return re.split(separator, line, maxsplit=max(count - 1, 0))


_FILE_TESTS = frozenset({"-e", "-f", "-d", "-r", "-w", "-x", "-s"})
_INTEGER_OPS = {"-eq": "==", "-ne": "!=", "-lt": "<", "-le": "<=", "-gt": ">", "-ge": ">="}


def test_builtin(shell: Shell, words: list[str], ctx: ShellContext) -> CommandResult:
    """`test EXPR` / `[ EXPR ]` (POSIX's rules by argument count): strings, integers, and the
    file tests the filesystem answers (through the `test` program, so the read is an identity)."""
    args = words[1:]
    if words[0] == "[":
        if args[-1:] != ["]"]:
            return CommandResult(stderr="bash: [: missing `]'\n", exit_code=2)
        args = args[:-1]
    negate = (
        len(args) in (2, 3, 4) and args[0] == "!" and not (len(args) == 3 and args[1] in _BINARY)
    )
    if negate:
        args = args[1:]
    result = _test(shell, words[0], args, ctx)
    if negate and result.exit_code in (0, 1):
        result.exit_code = 1 - result.exit_code
    return result


_BINARY = frozenset({"=", "==", "!=", "<", ">", *_INTEGER_OPS})


def _test(shell: Shell, name: str, args: list[str], ctx: ShellContext) -> CommandResult:
    if not args:
        return CommandResult(exit_code=1)
    if len(args) == 1:
        return CommandResult(exit_code=0 if args[0] else 1)
    if len(args) == 2 and args[0] in ("-n", "-z"):
        empty = args[1] == ""
        return CommandResult(exit_code=0 if empty == (args[0] == "-z") else 1)
    if len(args) == 2 and args[0] in _FILE_TESTS and name in shell.programs:
        return shell.program([name, *args, *(["]"] if name == "[" else [])], None, ctx)
    if len(args) == 3 and args[1] in _BINARY:
        left, op, right = args
        if op in _INTEGER_OPS:
            for value in (left, right):
                if not re.fullmatch(r"\s*[-+]?\d+\s*", value):
                    text = f"bash: {name}: {value}: integer expression expected\n"
                    return CommandResult(stderr=text, exit_code=2)
            a, b = int(left), int(right)
            holds = {
                "-eq": a == b,
                "-ne": a != b,
                "-lt": a < b,
                "-le": a <= b,
                "-gt": a > b,
                "-ge": a >= b,
            }[op]
        else:
            holds = {
                "=": left == right,
                "==": left == right,
                "!=": left != right,
                "<": left < right,
                ">": left > right,
            }[op]
        return CommandResult(exit_code=0 if holds else 1)
    raise NotSimulated(f"{name} {' '.join(args)}")
