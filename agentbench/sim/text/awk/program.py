"""A small awk, answering as GNU awk does: the one-liners people pipe output through.

Covered: `-F SEP`, `-v VAR=VALUE`; rules `PATTERN { ACTIONS }` with BEGIN/END, `/re/`, `!/re/`,
ranges `A, B`, and expressions (fields, NR NF FS OFS ORS, numbers, strings, variables, `arr[k]`,
arithmetic with `^` and `%`, comparisons by awk's string/number rules, `~` `!~`, `&&` `||` `!`,
`?:`, concatenation, the builtins of text/awk/builtins.py); statements `print`, `printf` (with or
without parentheses), assignments, `next`, `exit`, `delete`, `if`/`else`, `while`, `do`,
`for (;;)`, `for (k in arr)` over at most one key (GNU awk's order over more is its hash
table's). Whatever else the program uses raises `NotSimulated` — never an invented syntax
error; only a program whose brackets or quotes do not close gets awk's syntax error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.core.brackets import unbalanced
from agentbench.sim.core.options import parse_options
from agentbench.sim.core.registry import Call, program
from agentbench.sim.text.awk.builtins import call as builtin_call
from agentbench.sim.text.awk.eval import Exit, Machine, Next
from agentbench.sim.text.awk.parse import Parser, tokens
from agentbench.sim.text.awk.values import AwkError, StrNum
from agentbench.sim.text.filters import Inputs, lines_of


def _records(text: str) -> Iterator[str]:
    yield from lines_of(text)


@program("awk", reads_files=True)
def awk(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    opts, rest, error = parse_options("awk", argv[1:], "F:v:f:", [])
    if error:
        return error
    if not rest:
        return CommandResult(
            stderr="usage: awk [-F fs][-v var=value][prog | -f progfile][file ...]\n", exit_code=2
        )
    program, operands = rest[0], rest[1:]
    sep = next((v for o, v in opts if o == "-F"), None)
    if sep == "t" or sep == "\\t":
        sep = "\t"
    if any(o == "-f" for o, _ in opts):
        raise NotSimulated("awk -f PROGFILE")
    variables: dict[str, Any] = {}
    for option, value in opts:
        if option == "-v" and "=" in value:
            name, raw = value.split("=", 1)
            variables[name] = StrNum(_escapes(raw))
    try:
        rules = Parser(tokens(program)).program()
    except AwkError as exc:
        if not unbalanced(program):  # it may well be awk this parser does not read
            raise NotSimulated(f"awk syntax near {str(exc)[:30]!r}") from exc
        near = str(exc).splitlines()[0][:20] if str(exc) else "end of program"
        text = f"awk: line 1: syntax error at or near {near}\n"
        return CommandResult(stderr=text, exit_code=2)
    inputs = Inputs("awk", operands, stdin, files)
    if inputs.result.stderr:
        inputs.result.stderr = inputs.result.stderr.replace("awk: ", "awk: cannot open ", 1)
    machine = Machine(sep, variables, builtin_call)
    code = 0
    try:
        code = _execute(machine, rules, inputs.joined)
    except AwkError as exc:
        return CommandResult(
            stdout="".join(machine.out), stderr=f"awk: run time error: {exc}\n", exit_code=2
        )
    return inputs.finish("".join(machine.out), code)


def _execute(machine: Machine, rules: list[tuple[Any, Any]], text: str) -> int:
    """BEGIN, each record through the main rules, END; `exit` skips to END. The exit code."""
    active: set[int] = set()  # range patterns between their start and end
    try:
        for pattern, action in rules:
            if pattern == "BEGIN":
                machine.run(action)
        for line in _records(text):
            machine.vars["NR"] = float(machine.vars["NR"]) + 1
            machine.vars["FNR"] = machine.vars["NR"]
            machine.set_line(line)
            try:
                for pattern, action in rules:
                    if pattern in ("BEGIN", "END"):
                        continue
                    if _selects(machine, pattern, active):
                        machine.run(action)
            except Next:
                continue
    except Exit as stop:
        code = stop.code
        try:
            _end(machine, rules)
        except Exit as again:
            return again.code
        return code
    try:
        _end(machine, rules)
    except Exit as stop:
        return stop.code
    return 0


def _end(machine: Machine, rules: list[tuple[Any, Any]]) -> None:
    for pattern, action in rules:
        if pattern == "END":
            machine.run(action)


def _selects(machine: Machine, pattern: Any, active: set[int]) -> bool:
    if pattern is None:
        return True
    if isinstance(pattern, tuple) and pattern[0] == "range":
        _, first, last, index = pattern
        if index not in active:
            if not machine.truth(machine.eval(first)):
                return False
            active.add(index)
        if machine.truth(machine.eval(last)):
            active.discard(index)
        return True
    return machine.truth(machine.eval(pattern))


def _escapes(value: str) -> str:
    """A -v value's backslash escapes, as awk processes them (\\t, \\n, \\\\)."""
    table = {"t": "\t", "n": "\n", "\\": "\\", "/": "/", '"': '"', "r": "\r"}
    return re.sub(r"\\(.)", lambda m: table.get(m[1], "\\" + m[1]), value)
