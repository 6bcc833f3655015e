"""A small awk: the one-liners people pipe output through.

Covered: `-F SEP`, `-v VAR=VALUE`; rules `PATTERN { ACTIONS }` with BEGIN/END, `/re/`, `!/re/`,
and expressions (`$N`, `$NF`, `NR`, `NF`, numbers, strings, variables, `arr[k]`, arithmetic,
comparisons, `~` `!~`, `&&` `||` `!`, concatenation, `length()`, `tolower()`, `toupper()`);
actions `print`, `printf`, assignments (`=` `+=` `-=` `++` `--`), `next`, `for (k in arr)`,
`if (...) ... else ...`. Anything else is awk's own syntax error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from agentbench.sim.awk_eval import AwkError, Machine, Next
from agentbench.sim.base import CommandResult
from agentbench.sim.filters import Files, Inputs, lines_of, parse_options

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<str>\"(?:[^\"\\]|\\.)*\")|(?P<re>/(?:[^/\\\n]|\\.)+/)"
    r"|(?P<name>[A-Za-z_]\w*)|(?P<op>\+\+|--|\+=|-=|\*=|/=|==|!=|<=|>=|&&|\|\||!~|[-+*/%<>!~=$(){};,\[\]?:\n]))"
)


def _tokens(program: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    program = program.strip()
    while pos < len(program):
        match = _TOKEN.match(program, pos)
        if not match or match.end() == pos:
            if program[pos:].strip() == "":
                break
            raise AwkError(program[pos:])
        kind = match.lastgroup or "op"
        text = match.group(kind)
        # a '/' after a value is division, not a regex
        if (
            kind == "re"
            and out
            and (out[-1][0] in ("num", "name", "str") or out[-1][1] in (")", "]"))
        ):
            match = re.compile(r"\s*(/)").match(program, pos)
            assert match
            kind, text = "op", "/"
        out.append((kind, text))
        pos = match.end()
    return out


_LEVELS: tuple[tuple[str, ...], ...] = (
    ("||",),
    ("&&",),
    ("~", "!~"),
    ("<", "<=", ">", ">=", "==", "!="),
    ("concat",),
    ("+", "-"),
    ("*", "/", "%"),
)


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self) -> str:
        return self.toks[self.i][1] if self.i < len(self.toks) else ""

    def kind(self) -> str:
        return self.toks[self.i][0] if self.i < len(self.toks) else ""

    def take(self, expected: str | None = None) -> str:
        if self.i >= len(self.toks) or (expected is not None and self.peek() != expected):
            raise AwkError(self.peek() or "end of program")
        self.i += 1
        return self.toks[self.i - 1][1]

    def skip_newlines(self) -> None:
        while self.peek() in ("\n", ";"):
            self.i += 1

    def program(self) -> list[tuple[Any, Any]]:
        rules = []
        self.skip_newlines()
        while self.i < len(self.toks):
            pattern: Any = None
            if self.peek() in ("BEGIN", "END"):
                pattern = self.take()
            elif self.peek() != "{":
                pattern = self.expr()
            action = self.block() if self.peek() == "{" else [("print", [])]
            rules.append((pattern, action))
            self.skip_newlines()
        return rules

    def block(self) -> list[Any]:
        self.take("{")
        stmts = []
        self.skip_newlines()
        while self.peek() != "}":
            stmts.append(self.statement())
            self.skip_newlines()
        self.take("}")
        return stmts

    def statement(self) -> Any:
        word = self.peek()
        if word == "{":
            return ("block", self.block())
        if word in ("print", "printf"):
            self.take()
            args = []
            while self.peek() not in (";", "\n", "}", ""):
                args.append(self.expr(no_gt=True))
                if self.peek() == ",":
                    self.take()
            return (word, args)
        if word == "next":
            self.take()
            return ("next",)
        if word == "if":
            self.take()
            self.take("(")
            cond = self.expr()
            self.take(")")
            self.skip_newlines()
            then = self.statement()
            other = None
            save = self.i
            self.skip_newlines()
            if self.peek() == "else":
                self.take()
                self.skip_newlines()
                other = self.statement()
            else:
                self.i = save
            return ("if", cond, then, other)
        if word == "for":
            self.take()
            self.take("(")
            var = self.take()
            self.take("in")
            arr = self.take()
            self.take(")")
            self.skip_newlines()
            return ("for", var, arr, self.statement())
        return ("expr", self.expr())

    # expressions, lowest precedence first
    def expr(self, no_gt: bool = False) -> Any:
        left = self.ternary(no_gt)
        if self.peek() in ("=", "+=", "-=", "*=", "/="):
            op = self.take()
            return ("assign", op, left, self.expr(no_gt))
        return left

    def ternary(self, no_gt: bool) -> Any:
        cond = self.binary(0, no_gt)
        if self.peek() == "?":
            self.take()
            a = self.ternary(no_gt)
            self.take(":")
            return ("?:", cond, a, self.ternary(no_gt))
        return cond

    def binary(self, level: int, no_gt: bool) -> Any:
        if level == len(_LEVELS):
            return self.unary()
        ops = _LEVELS[level]
        left = self.binary(level + 1, no_gt)
        while True:
            if ops == ("concat",):
                starts_value = self.kind() in ("num", "str", "re") or self.peek() in ("$", "(")
                if self.kind() == "name" and self.peek() not in ("in", "else"):
                    starts_value = True
                if not starts_value:
                    break
                left = ("concat", left, self.binary(level + 1, no_gt))
                continue
            op = self.peek()
            if op not in ops or (no_gt and op == ">"):
                break
            self.take()
            left = (op, left, self.binary(level + 1, no_gt))
        return left

    def unary(self) -> Any:
        op = self.peek()
        if op == "!":
            self.take()
            return ("!", self.unary())
        if op == "-":
            self.take()
            return ("neg", self.unary())
        if op in ("++", "--"):
            self.take()
            return ("pre", op, self.primary())
        value = self.primary()
        if self.peek() in ("++", "--"):
            return ("post", self.take(), value)
        return value

    def primary(self) -> Any:
        kind, text = self.kind(), self.peek()
        if text == "$":
            self.take()
            return ("field", self.primary())
        if text == "(":
            self.take()
            value = self.expr()
            self.take(")")
            return value
        self.take()
        if kind == "num":
            return ("num", float(text))
        if kind == "str":
            return ("str", bytes(text[1:-1], "utf-8").decode("unicode_escape"))
        if kind == "re":
            return ("re", text[1:-1])
        if kind == "name":
            if self.peek() == "(":
                self.take()
                args = []
                while self.peek() != ")":
                    args.append(self.expr())
                    if self.peek() == ",":
                        self.take()
                self.take(")")
                return ("call", text, args)
            if self.peek() == "[":
                self.take()
                key = self.expr()
                self.take("]")
                return ("index", text, key)
            return ("var", text)
        raise AwkError(text)


def _records(text: str) -> Iterator[str]:
    yield from lines_of(text)


def awk(argv: list[str], stdin: str | None, files: Files) -> CommandResult:
    opts, rest, error = parse_options("awk", argv[1:], "F:v:f:", [])
    if error:
        return error
    if not rest:
        return CommandResult(
            stderr="usage: awk [-F fs][-v var=value][prog | -f progfile][file ...]\n", exit_code=2
        )
    program, operands = rest[0], rest[1:]
    sep = next((v for o, v in opts if o == "-F"), None)
    if sep == "\\t":
        sep = "\t"
    variables = dict(v.split("=", 1) for o, v in opts if o == "-v" and "=" in v)
    try:
        rules = _Parser(_tokens(program)).program()
    except AwkError as exc:
        near = str(exc).splitlines()[0][:20] if str(exc) else "end of program"
        text = f"awk: line 1: syntax error at or near {near}\n"
        return CommandResult(stderr=text, exit_code=2)
    inputs = Inputs("awk", operands, stdin, files)
    if inputs.result.stderr:
        inputs.result.stderr = inputs.result.stderr.replace("awk: ", "awk: cannot open ", 1)
    machine = Machine(sep, variables)
    try:
        for pattern, action in rules:
            if pattern == "BEGIN":
                machine.run(action)
        for line in _records(inputs.joined):
            machine.vars["NR"] = float(machine.vars["NR"]) + 1
            machine.set_line(line)
            try:
                for pattern, action in rules:
                    if pattern in ("BEGIN", "END"):
                        continue
                    if pattern is None or machine.truth(machine.eval(pattern)):
                        machine.run(action)
            except Next:
                continue
        for pattern, action in rules:
            if pattern == "END":
                machine.run(action)
    except AwkError as exc:
        return CommandResult(
            stdout="".join(machine.out), stderr=f"awk: run time error: {exc}\n", exit_code=2
        )
    return inputs.finish("".join(machine.out))
