"""jq's grammar: a program text -> a tree of tuples that text/jq/program.py evaluates."""

from __future__ import annotations

import json
from typing import Any

from agentbench.sim.text.jq.lex import (
    JqSyntax,
    JqUndefined,
    _interpolation_end,
    _unescape,
    tokens,
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


_TERMS = frozenset(
    {
        "identity",
        "literal",
        "format",
        "key",
        "index",
        "slice",
        "each",
        "recurse",
        "?",
        "|",
        "array",
        "object",
        "call",
        "if",
        "var",
        "reduce",
        "try",
    }
)


class Parser:
    def __init__(self, text: str, bound: frozenset[str] = frozenset()) -> None:
        self.toks = tokens(text)
        self.i = 0
        self.bound = bound  # the $names in scope

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
        if self.peek() == "as":
            if left[0] not in _TERMS:
                raise JqSyntax("syntax error: `as` after an expression that is not a term")
            self.take()
            name = self.variable()
            self.take("|")
            outer, self.bound = self.bound, self.bound | {name}
            try:
                return ("as", left, name, self.pipe())
            finally:
                self.bound = outer
        if self.peek() == "|":  # right-nested: `a | b | c` means the same either way
            self.take()
            return ("|", left, self.pipe())
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

    def variable(self) -> str:
        self.take("$")
        kind, name = self.take()
        if kind != "name" or name in ("__loc__", "ENV", "ARGS", "__prog_args"):
            raise JqSyntax(f"syntax error: ${name} (not read here)")
        return name

    def bracket(self) -> Any:
        self.take("[")
        if self.peek() == "]":
            self.take()
            return ("each",)
        start = None if self.peek() == ":" else self.pipe()
        if self.peek() == ":":
            self.take()
            end = None if self.peek() == "]" else self.pipe()
            self.take("]")
            return ("slice", start, end)
        self.take("]")
        return ("index", start)

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
            return string_node(text, self.bound)
        if text == "$":
            name = self.variable()
            if name not in self.bound:
                raise JqUndefined(f"${name} is not defined")
            return ("var", name)
        if kind == "name" and text == "reduce":
            self.take()
            source = self.postfix()
            self.take("as")
            name = self.variable()
            self.take("(")
            init = self.pipe()
            self.take(";")
            outer, self.bound = self.bound, self.bound | {name}
            try:
                update = self.pipe()
            finally:
                self.bound = outer
            self.take(")")
            return ("reduce", source, name, init, update)
        if kind == "name" and text == "try":
            self.take()
            body = self.postfix()
            handler = None
            if self.peek() == "catch":
                self.take()
                handler = self.postfix()
                if handler[0] != "literal" and handler != ("call", "empty", []):
                    raise JqSyntax("syntax error: a catch that reads the error (not read here)")
            return ("try", body, handler)
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


def string_node(token: str, bound: frozenset[str] = frozenset()) -> Any:
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
            parts.append(Parser(body[i + 2 : j - 1], bound).parse())
            i = start = j
        elif body[i] == "\\":
            i += 2
        else:
            i += 1
    if start < len(body):
        parts.append(("literal", _unescape(body[start:])))
    return ("format", parts)
