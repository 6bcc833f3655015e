"""awk's grammar: a program text -> rules of (pattern, statements) that eval.py runs.

Syntax this parser does not read raises `AwkError`; program.py reports it not simulated unless the
program is unbalanced (wrong in any awk). Constructs it reads but the simulator does not carry
out (getline, user functions, output redirection, ...) raise `NotSimulated` here.
"""

from __future__ import annotations

import re
from typing import Any

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.text.awk.values import AwkError

_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(?P<str>\"(?:[^\"\\]|\\.)*\")|(?P<re>/(?:[^/\\\n]|\\.)+/)"
    r"|(?P<name>[A-Za-z_]\w*)|(?P<op>\*\*=|\*\*|\+\+|--|\+=|-=|\*=|/=|%=|\^=|==|!=|<=|>=|>>|&&|\|\||!~|[-+*/%^<>!~=$(){};,\[\]?:|\n]))"
)


def tokens(program: str) -> list[tuple[str, str]]:
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


class Parser:
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

    def skip_lines(self) -> None:
        """Newlines only: a `;` right after `while (…)` is the loop's empty body."""
        while self.peek() == "\n":
            self.i += 1

    def skip_newlines(self) -> None:
        while self.peek() in ("\n", ";"):
            self.i += 1

    def program(self) -> list[tuple[Any, Any]]:
        rules: list[tuple[Any, Any]] = []
        self.skip_newlines()
        while self.i < len(self.toks):
            pattern: Any = None
            if self.peek() == "function" or self.peek() == "func":
                raise NotSimulated("awk user-defined functions")
            if self.peek() in ("BEGIN", "END"):
                pattern = self.take()
            elif self.peek() != "{":
                pattern = self.expr()
                if self.peek() == ",":
                    self.take()
                    self.skip_newlines()
                    pattern = ("range", pattern, self.expr(), len(rules))
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
        if word in _UNSUPPORTED_STATEMENTS:
            raise NotSimulated(f"awk {word}")
        if word in ("print", "printf"):
            self.take()
            args = self.parenthesized_list()
            if args is None:
                args = []
                while self.peek() not in (";", "\n", "}", "", ">", ">>", "|"):
                    args.append(self.expr(no_gt=True))
                    if self.peek() == ",":
                        self.take()
            if self.peek() in (">", ">>", "|"):
                raise NotSimulated(f"awk {word} redirected to a file or command")
            return (word, args)
        if word == "exit":
            self.take()
            code = None if self.peek() in (";", "\n", "}", "") else self.expr()
            return ("exit", code)
        if word == "delete":
            self.take()
            name = self.take()
            key = None
            if self.peek() == "[":
                self.take()
                key = self.expr()
                self.take("]")
            return ("delete", name, key)
        if word == "while":
            self.take()
            cond = self.condition()
            self.skip_lines()
            return ("while", cond, self.statement_or_empty())
        if word == "do":
            self.take()
            self.skip_lines()
            body = self.statement_or_empty()
            self.skip_newlines()
            self.take("while")
            return ("do", self.condition(), body)
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
            if self.kind() == "name" and self.toks[self.i + 1 : self.i + 2] == [("name", "in")]:
                var = self.take()
                self.take("in")
                arr = self.take()
                self.take(")")
                self.skip_newlines()
                return ("for", var, arr, self.statement())
            init = None if self.peek() == ";" else self.expr()
            self.take(";")
            cond = None if self.peek() == ";" else self.expr()
            self.take(";")
            step = None if self.peek() == ")" else self.expr()
            self.take(")")
            self.skip_lines()
            return ("loop", init, cond, step, self.statement_or_empty())
        if word == ";":
            self.take()
            return ("block", [])
        return ("expr", self.expr())

    def statement_or_empty(self) -> Any:
        if self.peek() == ";":
            self.take()
            return ("block", [])
        return self.statement()

    def condition(self) -> Any:
        self.take("(")
        cond = self.expr()
        self.take(")")
        return cond

    def parenthesized_list(self) -> list[Any] | None:
        """`printf("%s\n", x)`: the arguments in parentheses, when the statement ends there."""
        if self.peek() != "(":
            return None
        save = self.i
        try:
            self.take("(")
            args = [self.expr()]
            while self.peek() == ",":
                self.take()
                args.append(self.expr())
            self.take(")")
        except AwkError:
            self.i = save
            return None
        if self.peek() in (";", "\n", "}", "", ">", ">>", "|"):
            return args
        self.i = save
        return None

    # expressions, lowest precedence first
    def expr(self, no_gt: bool = False) -> Any:
        left = self.ternary(no_gt)
        if self.peek() in ("%=", "^=", "**="):
            raise NotSimulated(f"awk {self.peek()}")
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
        if self.peek() in ("^", "**"):
            self.take()
            return ("^", value, self.unary())
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
            if text in _UNSUPPORTED_WORDS:
                raise NotSimulated(f"awk {text}")
            if text == "length" and self.peek() != "(":
                return ("call", "length", [])
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


_UNSUPPORTED_STATEMENTS = frozenset(
    {"break", "continue", "getline", "nextfile", "return", "switch", "BEGINFILE", "ENDFILE"}
)
_UNSUPPORTED_WORDS = frozenset(
    {
        "getline",
        "in",
        "ENVIRON",
        "PROCINFO",
        "ARGV",
        "ARGC",
        "SUBSEP",
        "RS",
        "system",
        "close",
        "fflush",
        "rand",
        "srand",
        "systime",
        "strftime",
        "gensub",
        "asort",
        "asorti",
        "patsplit",
    }
)
