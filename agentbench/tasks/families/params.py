"""A family's parameters: how each is declared and drawn (tasks/families/<category>/*.yaml).

    name: {pick: [a, b, c]}              one of the listed scalars
    name: {int: [LO, HI]}                an integer, both ends inclusive
    name: {expr: "a * 1048576 + b"}      ints, + - * // % and unary -, names of earlier params
    name: {hex: 10}                      that many random lowercase hex digits (1-64)
    name: {..., distinct: [other, ...]}  redrawn until it differs from those earlier params

Every declaration is hostile input: a bad one is a `ParamError` naming the field, every value
is bounded (list lengths, integer magnitudes, expression size), and an expression is evaluated
by walking its syntax tree, never by `eval`.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

NAME = re.compile(r"^[a-z_][a-z0-9_]{0,39}$")
KINDS = ("pick", "int", "expr", "hex")
MAX_INT = 10**15  # bounds of int params and of every expression value
MAX_PICK = 1000  # choices in one pick list
MAX_EXPR = 200  # characters of one expression
MAX_REDRAWS = 200  # draws tried to satisfy `distinct`
RESERVED = frozenset({"case", "variant"})  # set by the generator: the case drawn, the number

Value = str | int | float | bool


class ParamError(ValueError):
    """A declaration or a draw failed; `field` is where, under `params`."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    arg: Any  # pick: list of scalars; int: (lo, hi); expr: parsed tree; hex: length
    distinct: tuple[str, ...] = ()


def parse_params(raw: Any, where: str, earlier: tuple[str, ...] = ()) -> list[Param]:
    """The declarations of a `params:` mapping, in order; `earlier` are names already drawn."""
    if raw is None:
        return []
    if not isinstance(raw, Mapping):
        raise ParamError(where, "must map parameter names to {pick|int|expr|hex: ...}")
    known = list(earlier)
    out: list[Param] = []
    for name, spec in raw.items():
        field = f"{where}.{name}"
        if not isinstance(name, str) or not NAME.match(name):
            raise ParamError(field, "a parameter name is lowercase letters, digits and _")
        if name in RESERVED:
            raise ParamError(field, f"'{name}' is set by the generator; choose another name")
        if name in known:
            raise ParamError(field, f"'{name}' is declared twice")
        out.append(_parse_one(name, spec, field, tuple(known)))
        known.append(name)
    return out


def _parse_one(name: str, spec: Any, field: str, known: tuple[str, ...]) -> Param:
    if not isinstance(spec, Mapping):
        raise ParamError(field, "must be a mapping such as {pick: [a, b]} or {int: [1, 9]}")
    kinds = [k for k in spec if k != "distinct"]
    if len(kinds) != 1 or kinds[0] not in KINDS:
        shown = ", ".join(map(str, kinds)) or "none"
        raise ParamError(field, f"needs exactly one kind of {', '.join(KINDS)} (got {shown})")
    kind = kinds[0]
    distinct = spec.get("distinct", [])
    if not isinstance(distinct, list) or not all(isinstance(d, str) for d in distinct):
        raise ParamError(f"{field}.distinct", "must be a list of earlier parameter names")
    for other in distinct:
        if other not in known:
            raise ParamError(f"{field}.distinct", f"'{other}' is not an earlier parameter")
    if distinct and kind == "expr":
        raise ParamError(f"{field}.distinct", "an expr has one value; it cannot be redrawn")
    value = spec[kind]
    return Param(name, kind, _parse_arg(kind, value, f"{field}.{kind}", known), tuple(distinct))


def _parse_arg(kind: str, value: Any, field: str, known: tuple[str, ...]) -> Any:
    if kind == "pick":
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_PICK:
            raise ParamError(field, f"must be a list of 1 to {MAX_PICK} values")
        for item in value:
            if not isinstance(item, Value) or (isinstance(item, str) and len(item) > 4096):
                raise ParamError(field, "each choice is a string (<= 4096 chars) or a number")
        return list(value)
    if kind == "int":
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(_is_int(v) and abs(v) <= MAX_INT for v in value)
            or value[0] > value[1]
        ):
            raise ParamError(field, f"must be [LO, HI], integers, LO <= HI, |x| <= {MAX_INT:.0e}")
        return (value[0], value[1])
    if kind == "hex":
        if not _is_int(value) or not 1 <= value <= 64:
            raise ParamError(field, "must be a length from 1 to 64")
        return value
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_EXPR:
        raise ParamError(field, f"must be an expression of 1 to {MAX_EXPR} characters")
    try:
        tree = ast.parse(value.strip(), mode="eval")
    except SyntaxError as exc:
        raise ParamError(field, f"not an expression: {exc.msg}") from exc
    _check_expr(tree.body, field, known)
    return tree.body


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}


def _check_expr(node: ast.AST, field: str, known: tuple[str, ...]) -> None:
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        _check_expr(node.left, field, known)
        _check_expr(node.right, field, known)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        _check_expr(node.operand, field, known)
    elif isinstance(node, ast.Constant) and _is_int(node.value):
        if abs(node.value) > MAX_INT:
            raise ParamError(field, f"constant {node.value} is out of range (|x| <= {MAX_INT:.0e})")
    elif isinstance(node, ast.Name):
        if node.id not in known:
            raise ParamError(field, f"'{node.id}' is not an earlier parameter")
    else:
        raise ParamError(
            field, "only integers, + - * // %, parentheses and earlier parameter names are allowed"
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def draw(params: list[Param], rng: random.Random, values: dict[str, Any], where: str) -> None:
    """Draw each parameter in order into `values` (which holds the earlier ones)."""
    for param in params:
        field = f"{where}.{param.name}"
        for _ in range(MAX_REDRAWS):
            value = _draw_one(param, rng, values, field)
            if all(value != values[other] for other in param.distinct):
                break
        else:
            others = ", ".join(param.distinct)
            raise ParamError(
                f"{field}.distinct", f"no value differing from {others} in {MAX_REDRAWS} draws"
            )
        values[param.name] = value


def _draw_one(param: Param, rng: random.Random, values: Mapping[str, Any], field: str) -> Any:
    if param.kind == "pick":
        return rng.choice(param.arg)
    if param.kind == "int":
        return rng.randint(*param.arg)
    if param.kind == "hex":
        return "".join(rng.choice("0123456789abcdef") for _ in range(param.arg))
    return _evaluate(param.arg, values, f"{field}.expr")


def _evaluate(node: ast.AST, values: Mapping[str, Any], field: str) -> int:
    if isinstance(node, ast.Constant):
        return int(node.value)
    if isinstance(node, ast.Name):
        value = values[node.id]
        if not _is_int(value):
            raise ParamError(field, f"'{node.id}' is {value!r}, not an integer")
        return int(value)
    if isinstance(node, ast.UnaryOp):
        operand = _evaluate(node.operand, values, field)
        return -operand if isinstance(node.op, ast.USub) else operand
    assert isinstance(node, ast.BinOp)  # _check_expr allowed nothing else
    left, right = _evaluate(node.left, values, field), _evaluate(node.right, values, field)
    if isinstance(node.op, ast.FloorDiv | ast.Mod) and right == 0:
        raise ParamError(field, "division by zero")
    result = {
        ast.Add: lambda: left + right,
        ast.Sub: lambda: left - right,
        ast.Mult: lambda: left * right,
        ast.FloorDiv: lambda: left // right,
        ast.Mod: lambda: left % right,
    }[type(node.op)]()
    if abs(result) > MAX_INT:
        raise ParamError(field, f"value {result} is out of range (|x| <= {MAX_INT:.0e})")
    return result
