"""ss's filter expression over a socket's ports: `sport = :8080`, `( sport = :80 or
sport = :443 )`, `sport != :22`, `sport gt :1024`, joined by `and` / `or` / `not` (one
argument or several, as the shell passed them). Listening sockets have no peer: their dport is 0."""

from __future__ import annotations

import re

_OPS = {
    "=": "eq",
    "==": "eq",
    "eq": "eq",
    "!=": "ne",
    "ne": "ne",
    "neq": "ne",
    ">": "gt",
    "gt": "gt",
    "<": "lt",
    "lt": "lt",
    ">=": "ge",
    "ge": "ge",
    "<=": "le",
    "le": "le",
}
_TOKEN = re.compile(r"\(|\)|!=|==|>=|<=|=|>|<|[^\s()=!<>]+")


class FilterError(ValueError):
    """An expression this module does not read (addresses, states, cgroups): not simulated."""


def _port(text: str) -> int:
    value = text.rsplit(":", 1)[-1]
    if not value.isdigit():
        raise FilterError(text)
    return int(value)


def parse_filter(words: list[str]) -> tuple[object, ...] | None:
    """The expression of `ss`'s trailing words; None when there are none."""
    tokens = _TOKEN.findall(" ".join(words))
    if not tokens:
        return None
    node, rest = _or(tokens)
    if rest:
        raise FilterError(" ".join(rest))
    return node


def _or(tokens: list[str]) -> tuple[tuple[object, ...], list[str]]:
    left, tokens = _and(tokens)
    while tokens and tokens[0] in ("or", "|", "||"):
        right, tokens = _and(tokens[1:])
        left = ("or", left, right)
    return left, tokens


def _and(tokens: list[str]) -> tuple[tuple[object, ...], list[str]]:
    left, tokens = _not(tokens)
    while tokens and tokens[0] not in ("or", "|", "||", ")"):
        if tokens[0] in ("and", "&", "&&"):
            tokens = tokens[1:]
        right, tokens = _not(tokens)
        left = ("and", left, right)
    return left, tokens


def _not(tokens: list[str]) -> tuple[tuple[object, ...], list[str]]:
    if tokens and tokens[0] in ("not", "!"):
        inner, rest = _not(tokens[1:])
        return ("not", inner), rest
    if tokens and tokens[0] == "(":
        inner, rest = _or(tokens[1:])
        if not rest or rest[0] != ")":
            raise FilterError("(")
        return inner, rest[1:]
    if len(tokens) >= 3 and tokens[0] in ("sport", "dport") and tokens[1] in _OPS:
        return (tokens[0], _OPS[tokens[1]], _port(tokens[2])), tokens[3:]
    if len(tokens) >= 2 and tokens[0] in ("sport", "dport", "src", "dst"):
        return (
            tokens[0].replace("src", "sport").replace("dst", "dport"),
            "eq",
            _port(tokens[1]),
        ), tokens[2:]
    if tokens and tokens[0].startswith(":"):  # a bare :PORT, as the simulator always took it
        return ("sport", "eq", _port(tokens[0])), tokens[1:]
    raise FilterError(" ".join(tokens))


def matches(node: tuple[object, ...], sport: int, dport: int = 0) -> bool:
    kind = node[0]
    if kind == "or":
        return matches(node[1], sport, dport) or matches(node[2], sport, dport)  # type: ignore[arg-type]
    if kind == "and":
        return matches(node[1], sport, dport) and matches(node[2], sport, dport)  # type: ignore[arg-type]
    if kind == "not":
        return not matches(node[1], sport, dport)  # type: ignore[arg-type]
    value = sport if kind == "sport" else dport
    wanted = node[2]
    assert isinstance(wanted, int)
    return {
        "eq": value == wanted,
        "ne": value != wanted,
        "gt": value > wanted,
        "lt": value < wanted,
        "ge": value >= wanted,
        "le": value <= wanted,
    }[str(node[1])]
