"""jq's grammar: a program text -> a tree of tuples that jq.py evaluates."""

from __future__ import annotations

import json
import re
from typing import Any

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<field>\.[A-Za-z_]\w*)"
    r"|(?P<name>[A-Za-z_]\w*)|(?P<op>\.\.|//|==|!=|<=|>=|[.\[\]{}(),|:;<>+\-*/%?$@]))"
)


_KEYWORDS = frozenset(
    {
        "then",
        "elif",
        "else",
        "end",
        "as",
        "def",
        "reduce",
        "foreach",
        "try",
        "catch",
        "label",
        "import",
        "include",
        "__loc__",
    }
)


class JqSyntax(ValueError):
    """A program that does not compile (exit 3)."""


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text.rstrip()):
        while text[pos].isspace():
            pos += 1
        if text[pos] == '"':
            end = string_end(text, pos)
            out.append(("str", text[pos:end]))
            pos = end
            continue
        match = _TOKEN.match(text, pos)
        if not match:
            raise JqSyntax(
                f"syntax error, unexpected INVALID_CHARACTER at '{text[pos : pos + 10]}'"
            )
        kind = match.lastgroup or "op"
        out.append((kind, match.group(kind)))
        pos = match.end()
    return out


class Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0

    def peek(self, offset: int = 0) -> str:
        j = self.i + offset
        return self.toks[j][1] if j < len(self.toks) else ""

    def take(self, expected: str | None = None) -> tuple[str, str]:
        if self.i >= len(self.toks) or (expected and self.peek() != expected):
            got = self.peek() or "end of file"
            raise JqSyntax(f"syntax error, unexpected {got}")
        self.i += 1
        return self.toks[self.i - 1]

    def parse(self) -> Any:
        node = self.pipe()
        if self.i != len(self.toks):
            raise JqSyntax(f"syntax error, unexpected {self.peek()}")
        return node

    def pipe(self) -> Any:
        left = self.comma()
        while self.peek() == "|":
            self.take()
            left = ("|", left, self.comma())
        return left

    def comma(self) -> Any:
        left = self.alt()
        while self.peek() == ",":
            self.take()
            left = (",", left, self.alt())
        return left

    def alt(self) -> Any:
        left = self.boolean()
        while self.peek() == "//":
            self.take()
            left = ("//", left, self.boolean())
        return left

    def boolean(self) -> Any:
        left = self.conjunction()
        while self.peek() == "or":
            self.take()
            left = ("or", left, self.conjunction())
        return left

    def conjunction(self) -> Any:
        left = self.compare()
        while self.peek() == "and":
            self.take()
            left = ("and", left, self.compare())
        return left

    def compare(self) -> Any:
        left = self.additive()
        if self.peek() in ("==", "!=", "<", "<=", ">", ">="):
            op = self.take()[1]
            return (op, left, self.additive())
        return left

    def additive(self) -> Any:
        left = self.multiplicative()
        while self.peek() in ("+", "-"):
            op = self.take()[1]
            left = (op, left, self.multiplicative())
        return left

    def multiplicative(self) -> Any:
        left = self.postfix()
        while self.peek() in ("*", "/", "%"):
            op = self.take()[1]
            left = (op, left, self.postfix())
        return left

    def postfix(self) -> Any:
        node = self.primary()
        while True:
            if self.toks[self.i : self.i + 1] and self.toks[self.i][0] == "field":
                node = ("|", node, ("key", self.take()[1][1:]))
            elif (self.peek() == "." and self.peek(1) == "[") or self.peek() == "[":
                if self.peek() == ".":
                    self.take()
                node = ("|", node, self.bracket())
            elif (
                self.peek() == "."
                and self.toks[self.i + 1 : self.i + 2]
                and self.toks[self.i + 1][0] == "str"
            ):
                self.take()
                node = ("|", node, ("key", json.loads(self.take()[1])))
            elif self.peek() == "?":
                self.take()
                node = ("?", node)
            else:
                return node

    def bracket(self) -> Any:
        self.take("[")
        if self.peek() == "]":
            self.take()
            return ("each",)
        index = self.pipe()
        self.take("]")
        return ("index", index)

    def primary(self) -> Any:
        kind, text = self.toks[self.i] if self.i < len(self.toks) else ("", "")
        if kind == "field":
            self.take()
            return ("key", text[1:])
        if text == ".":
            self.take()
            if self.peek() == "[":
                return self.bracket()
            if self.toks[self.i : self.i + 1] and self.toks[self.i][0] == "str":
                return ("key", json.loads(self.take()[1]))
            return ("identity",)
        if text == "..":
            self.take()
            return ("recurse",)
        if kind == "num":
            self.take()
            return ("literal", json.loads(text))
        if kind == "str":
            self.take()
            return string_node(text)
        if text == "(":
            self.take()
            node = self.pipe()
            self.take(")")
            return node
        if text == "[":
            self.take()
            if self.peek() == "]":
                self.take()
                return ("literal", [])
            node = self.pipe()
            self.take("]")
            return ("array", node)
        if text == "{":
            return self.object()
        if text == "-":
            self.take()
            return ("-", ("literal", 0), self.postfix())
        if (
            text == "@"
            and self.toks[self.i + 1 : self.i + 2]
            and self.toks[self.i + 1][0] == "name"
        ):
            self.take()
            name = self.take()[1]
            if self.toks[self.i : self.i + 1] and self.toks[self.i][0] == "str":
                raise JqSyntax(f"syntax error: @{name} applied to a string (not read here)")
            return ("call", "@" + name, [])
        if kind == "name" and text == "if":
            self.take()
            return self.conditional()
        if kind == "name":
            self.take()
            if text in _KEYWORDS:
                raise JqSyntax(f"syntax error, unexpected {text}")
            if text in ("true", "false", "null"):
                return ("literal", json.loads(text))
            args = []
            if self.peek() == "(":
                self.take()
                args.append(self.pipe())
                while self.peek() == ";":
                    self.take()
                    args.append(self.pipe())
                self.take(")")
            return ("call", text, args)
        raise JqSyntax(f"syntax error, unexpected {text or 'end of file'}")

    def conditional(self) -> Any:
        """After `if`: COND then A (elif COND then B)* (else C)? end; no else means `.`."""
        cond = self.pipe()
        self.take("then")
        then = self.pipe()
        if self.peek() == "elif":
            self.take()
            return ("if", cond, then, self.conditional())
        otherwise: Any = ("identity",)
        if self.peek() == "else":
            self.take()
            otherwise = self.pipe()
        self.take("end")
        return ("if", cond, then, otherwise)

    def object(self) -> Any:
        self.take("{")
        entries = []
        while self.peek() != "}":
            kind, text = self.take()
            key: Any = ("literal", json.loads(text) if kind == "str" else text)
            if kind == "op" and text == "(":
                key = self.pipe()
                self.take(")")
            value: Any = ("key", key[1]) if key[0] == "literal" else ("identity",)
            if self.peek() == ":":
                self.take()
                value = self.alt()
            entries.append((key, value))
            if self.peek() == ",":
                self.take()
        self.take("}")
        return ("object", entries)


def _unescape(segment: str) -> str:
    try:
        value = json.loads(f'"{segment}"')
    except json.JSONDecodeError as exc:
        raise JqSyntax(f"syntax error, invalid escape in string {segment!r}") from exc
    return str(value)


def string_end(text: str, start: int) -> int:
    """The index just past the string literal opening at `start` (interpolations `\\(…)` may
    hold strings and parentheses of their own)."""
    j = start + 1
    while j < len(text):
        ch = text[j]
        if ch == '"':
            return j + 1
        if ch == "\\" and text[j + 1 : j + 2] == "(":
            j = _interpolation_end(text, j + 2)
            continue
        j += 2 if ch == "\\" else 1
    raise JqSyntax("syntax error, unterminated string")


def _interpolation_end(text: str, j: int) -> int:
    """The index just past the `)` closing an interpolation whose body starts at `j`."""
    depth = 1
    while j < len(text):
        ch = text[j]
        if ch == '"':
            j = string_end(text, j)
            continue
        depth += {"(": 1, ")": -1}.get(ch, 0)
        j += 1
        if depth == 0:
            return j
    raise JqSyntax("syntax error, unterminated string interpolation")


def string_node(token: str) -> Any:
    """A string literal: a constant, or ("format", parts) when it interpolates `\\(expr)`."""
    body = token[1:-1]
    if "\\(" not in body:
        return ("literal", _unescape(body))
    parts: list[Any] = []
    i = start = 0
    while i < len(body):
        if body.startswith("\\(", i):
            if i > start:
                parts.append(("literal", _unescape(body[start:i])))
            j = _interpolation_end(body, i + 2)
            parts.append(Parser(body[i + 2 : j - 1]).parse())
            i = start = j
        elif body[i] == "\\":
            i += 2
        else:
            i += 1
    if start < len(body):
        parts.append(("literal", _unescape(body[start:])))
    return ("format", parts)
