"""A family's parameters: how each is declared and drawn (tasks/families/<category>/*.yaml).

    name: {pick: [a, b, c]}              one of the listed scalars
    name: {pick: [{k: a, n: 1}, ...]}    one of the listed rows (same keys): {{name.k}}, name.n
    name: {int: [LO, HI]}                an integer, both ends inclusive
    name: {expr: "a * 1048576 + b"}      ints, + - * // % and unary -, names of earlier params
    name: {hex: 10}                      that many random lowercase hex digits (1-64)
    name: {lines: {count, fields, line, insert, sort}}   a drawn block of text (families/lines.py)
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
from typing import Any, TypeGuard

NAME = re.compile(r"^[a-z_][a-z0-9_]{0,39}$")
KINDS = ("pick", "int", "expr", "hex", "lines")
MAX_INT = 10**15  # bounds of int params and of every expression value
MAX_PICK = 1000  # choices in one pick list
MAX_EXPR = 200  # characters of one expression
MAX_REDRAWS = 200  # draws tried to satisfy `distinct`
MAX_PARAMS = 256  # declarations in one params mapping (a family's, a case's, a lines' fields)
MAX_DRAWS = 5_000_000  # random draws of one family, all variants and redraws (~4x the largest)
RESERVED = frozenset({"case", "variant"})  # set by the generator: the case drawn, the number

Value = str | int | float | bool


class ParamError(ValueError):
    """A declaration or a draw failed; `field` is where, under `params`."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


class Draws(random.Random):
    """A seeded generator that counts what it draws (a hex digit, a pick, an int, a case) and
    refuses past `budget`: redraws and per-line fields multiply, so the count bounds time."""

    def __init__(self, seed: int, budget: list[int]) -> None:
        super().__init__(seed)
        self.budget = budget  # [draws left], shared by every variant of one family

    def _spend(self) -> None:
        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise ParamError(
                "params", f"the variants need over {MAX_DRAWS:,} random draws; draw fewer lines, "
                "fields or variants",
            )

    def choice(self, seq: Any) -> Any:
        self._spend()
        return super().choice(seq)

    def randint(self, a: int, b: int) -> int:
        self._spend()
        return super().randint(a, b)

    def choices(self, population: Any, weights: Any = None, **kw: Any) -> list[Any]:
        self._spend()
        return super().choices(population, weights, **kw)


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    arg: Any  # pick: list of scalars or rows; int: (lo, hi); expr: parsed tree; hex: length
    distinct: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()  # a pick of rows: the rows' keys


def names(params: list[Param]) -> set[str]:
    """What placeholders may name: each parameter, and `name.key` for a pick of rows."""
    return {p.name for p in params} | {f"{p.name}.{k}" for p in params for k in p.fields}


def parse_params(
    raw: Any, where: str, earlier: Mapping[str, tuple[str, ...]] | None = None
) -> list[Param]:
    """The declarations of a `params:` mapping, in order; `earlier` maps the names already
    drawn to their row keys (empty unless a pick of rows)."""
    if raw is None:
        return []
    if not isinstance(raw, Mapping):
        raise ParamError(where, "must map parameter names to {pick|int|expr|hex: ...}")
    if len(raw) > MAX_PARAMS:
        raise ParamError(where, f"{len(raw)} parameters; at most {MAX_PARAMS}")
    known = dict(earlier or {})
    out: list[Param] = []
    for name, spec in raw.items():
        field = f"{where}.{name}"
        if not isinstance(name, str) or not NAME.match(name):
            raise ParamError(field, "a parameter name is lowercase letters, digits and _")
        if name in RESERVED:
            raise ParamError(field, f"'{name}' is set by the generator; choose another name")
        if name in known:
            raise ParamError(field, f"'{name}' is declared twice")
        param = _parse_one(name, spec, field, known)
        out.append(param)
        known[name] = param.fields
    return out


def _parse_one(name: str, spec: Any, field: str, known: Mapping[str, tuple[str, ...]]) -> Param:
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
    arg = _parse_arg(kind, value, f"{field}.{kind}", known)
    fields = tuple(arg[0]) if kind == "pick" and isinstance(arg[0], dict) else ()
    return Param(name, kind, arg, tuple(distinct), fields)


def _parse_arg(kind: str, value: Any, field: str, known: Mapping[str, tuple[str, ...]]) -> Any:
    if kind == "pick":
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_PICK:
            raise ParamError(field, f"must be a list of 1 to {MAX_PICK} values")
        for i, item in enumerate(value):
            _check_choice(item, f"{field}.{i}", value[0])
        return [dict(v) if isinstance(v, Mapping) else v for v in value]
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
    if kind == "lines":
        from agentbench.tasks.families.lines import parse_lines  # it builds on this module

        return parse_lines(value, field, known)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_EXPR:
        raise ParamError(field, f"must be an expression of 1 to {MAX_EXPR} characters")
    try:
        tree = ast.parse(value.strip(), mode="eval")
    except SyntaxError as exc:
        raise ParamError(field, f"not an expression: {exc.msg}") from exc
    _check_expr(tree.body, field, known)
    return tree.body


def _check_choice(item: Any, field: str, first: Any) -> None:
    """A choice is a scalar, or a row (a flat mapping of names to scalars) with the keys of the
    first choice, so that `{{name.key}}` is defined whichever is drawn."""
    if isinstance(item, Mapping):
        if not isinstance(first, Mapping) or set(item) != set(first):
            raise ParamError(field, "every row of a pick has the same keys")
        for key, cell in item.items():
            if not isinstance(key, str) or not NAME.match(key):
                raise ParamError(field, "a row's keys are lowercase letters, digits and _")
            _check_choice(cell, f"{field}.{key}", cell)
        return
    if isinstance(first, Mapping):
        raise ParamError(field, "every choice of a pick of rows is a row")
    if not isinstance(item, Value) or (isinstance(item, str) and len(item) > 4096):
        raise ParamError(field, "each choice is a string (<= 4096 chars), a number or a row")


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}


def _check_expr(node: ast.AST, field: str, known: Mapping[str, tuple[str, ...]]) -> None:
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
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.attr not in known.get(node.value.id, ()):
            raise ParamError(field, f"'{node.value.id}.{node.attr}' is not an earlier row key")
    else:
        raise ParamError(
            field, "only integers, + - * // %, parentheses and earlier parameter names are allowed"
        )


def _is_int(value: Any) -> TypeGuard[int]:
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
    if param.kind == "lines":
        from agentbench.tasks.families.lines import draw_lines  # it builds on this module

        return draw_lines(param.arg, rng, values, f"{field}.lines")
    return _evaluate(param.arg, values, f"{field}.expr")


def _evaluate(node: ast.AST, values: Mapping[str, Any], field: str) -> int:
    if isinstance(node, ast.Constant):
        assert _is_int(node.value)  # _check_expr allowed no other constant
        return node.value
    if isinstance(node, ast.Name | ast.Attribute):
        if isinstance(node, ast.Attribute):
            assert isinstance(node.value, ast.Name)  # _check_expr allowed nothing else
            shown, value = f"{node.value.id}.{node.attr}", values[node.value.id][node.attr]
        else:
            shown, value = node.id, values[node.id]
        if not _is_int(value):
            raise ParamError(field, f"'{shown}' is {value!r}, not an integer")
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
