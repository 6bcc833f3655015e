"""jq's lexical layer: tokens, string literals (whose interpolations may hold strings), and the
check that tells a program wrong in any jq (unbalanced) from one this parser does not read."""

from __future__ import annotations

import json
import re

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<field>\.[A-Za-z_]\w*)"
    r"|(?P<name>[A-Za-z_]\w*)|(?P<op>\.\.|//|==|!=|<=|>=|[.\[\]{}(),|:;<>+\-*/%?$@]))"
)


class JqSyntax(ValueError):
    """A program that does not compile (exit 3)."""


def tokens(text: str) -> list[tuple[str, str]]:
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


class JqUndefined(JqSyntax):
    """A `$name` no `as`, `reduce` or `--arg` binds: jq's compile error."""


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
