"""jq's values: their types, equality, total order, arithmetic and JSON text, as jq 1.7 has them.

Numbers are doubles: an integer past 2**53 becomes one, and an integral result prints without a
fraction (`add / length` of [1, 2, 3] is `2`). Every value built is sized against the call's
budget (sim/core/budget.py).
"""

from __future__ import annotations

import json
from typing import Any

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.core.budget import current


class JqError(ValueError):
    """A run-time error (exit 5)."""


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def truthy(value: Any) -> bool:
    return value is not None and value is not False


def arith(op: str, a: Any, b: Any) -> Any:
    """jq's arithmetic by the operands' jq types (a Python bool is not a number here)."""
    ta, tb = type_name(a), type_name(b)
    if op == "+" and (ta == "null" or tb == "null"):
        return b if ta == "null" else a
    if ta == tb == "number":
        if op == "/" or op == "%":
            if b == 0:
                raise JqError(
                    f"{ta} ({dumps(a)}) and {tb} ({dumps(b)}) cannot be divided because the "
                    "divisor is zero"
                )
            if op == "%":
                x, y = int(a), int(b)
                return abs(x) % abs(y) * (1 if x >= 0 else -1)
            return number(a / b)
        return number({"+": a + b, "-": a - b, "*": a * b}[op])
    if ta == tb and op == "+" and ta in ("string", "array"):
        budget = current()
        budget.value(budget.size_of(a) + budget.size_of(b), f"a {ta}")
        return a + b
    if ta == tb == "object" and op == "+":
        return {**a, **b}
    if ta == tb == "array" and op == "-":
        keep = [canonical(x) for x in b]
        return [x for x in a if canonical(x) not in keep]
    if ta == tb == "string" and op == "/":
        return a.split(b) if b else list(a)
    if {ta, tb} == {"string", "number"} and op == "*":
        text, times = (a, b) if ta == "string" else (b, a)
        if times <= 0:
            return None  # jq: a string repeated 0 times is null
        if times != int(times):
            raise NotSimulated("jq string * a fractional number")
        current().value(len(text) * int(times), "a repeated string")
        return text * int(times)
    if ta == tb == "object" and op == "*":
        raise NotSimulated("jq object * object (a deep merge)")
    verb = {"+": "added", "-": "subtracted", "*": "multiplied", "/": "divided", "%": "divided"}[op]
    raise JqError(f"{ta} ({dumps(a)[:11]}) and {tb} ({dumps(b)[:11]}) cannot be {verb}")


def number(x: float) -> float | int:
    """A computed number as jq keeps it: a double (an integer past 2**53 becomes one, never a
    huge int); integral values print without a fraction."""
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) > 2**53:
        return float(x)
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e17:
        return int(x)
    return x


def canonical(value: Any) -> str:
    """A value's identity for equality: its type and contents (1 == 1.0; 1 != true)."""
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"))


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return number(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def dumps(value: Any, indent: int | None = None) -> str:
    """jq's JSON text for a value (compact, or `indent` spaces), sized against the budget."""
    current().size_of(value)
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(_plain(value), indent=indent, separators=separators, ensure_ascii=False)


_RANK = {"null": 0, "boolean": 1, "number": 2, "string": 3, "array": 4, "object": 5}


def order_key(value: Any) -> Any:
    """jq's total order: null < false < true < numbers < strings < arrays < objects."""
    kind = type_name(value)
    if kind == "array":
        return (4, tuple(order_key(v) for v in value))
    if kind == "object":
        keys = sorted(value)
        return (5, tuple(keys), tuple(order_key(value[k]) for k in keys))
    return (_RANK[kind], value if value is not None else 0)
