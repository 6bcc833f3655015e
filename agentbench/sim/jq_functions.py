"""jq's built-in functions (the subset jq.py documents), each a generator over its input."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from agentbench.sim.budget import current
from agentbench.sim.jq import JqError, truthy, type_name
from agentbench.sim.regex import search

Runner = Callable[[Any, Any], Iterator[Any]]


def _one(node: Any, value: Any, run: Runner) -> Any:
    results = list(run(node, value))
    return results[0] if results else None


def _length(value: Any) -> Any:
    if value is None:
        return 0
    if isinstance(value, bool):
        raise JqError("boolean (true) has no length")
    if isinstance(value, int | float):
        return abs(value)
    return len(value)


def _keys(value: Any) -> Any:
    if isinstance(value, dict):
        return sorted(value)
    if isinstance(value, list):
        return list(range(len(value)))
    raise JqError(f"{type_name(value)} ({json.dumps(value)}) has no keys")


def _require_list(name: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise JqError(
            f"Cannot iterate over {type_name(value)}"
            if name == "map"
            else f"{type_name(value)} ({json.dumps(value)}) cannot be sorted, as it is not an array"
        )
    return value


def _sort_key(value: Any) -> Any:
    order = ["null", "boolean", "number", "string", "array", "object"]
    return (
        order.index(type_name(value)),
        json.dumps(value, sort_keys=True) if isinstance(value, list | dict) else value,
    )


_SIMPLE: dict[str, Callable[[Any], Any]] = {
    "length": _length,
    "keys": _keys,
    "to_entries": lambda v: [{"key": k, "value": x} for k, x in v.items()],
    "from_entries": lambda v: {str(e.get("key", e.get("name"))): e.get("value") for e in v},
    "sort": lambda v: sorted(_require_list("sort", v), key=_sort_key),
    "unique": lambda v: [json.loads(s) for s in sorted({json.dumps(x, sort_keys=True) for x in v})],
    "first": lambda v: v[0] if v else None,
    "last": lambda v: v[-1] if v else None,
    "add": lambda v: _add(v),
    "min": lambda v: min(v, key=_sort_key) if v else None,
    "max": lambda v: max(v, key=_sort_key) if v else None,
    "tostring": lambda v: v if isinstance(v, str) else json.dumps(v, separators=(",", ":")),
    "tonumber": lambda v: _tonumber(v),
    "ascii_downcase": lambda v: v.lower(),
    "ascii_upcase": lambda v: v.upper(),
    "type": type_name,
    "not": lambda v: not truthy(v),
    "reverse": lambda v: v[::-1],
    "floor": lambda v: int(v // 1),
}


def _add(values: list[Any]) -> Any:
    """Strings, arrays and objects are joined in one pass (never re-copied value by value);
    the result is no larger than `values`, which the budget already sized."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, str) for v in present):
        return "".join(present)
    if present and all(isinstance(v, list) for v in present):
        return [item for v in present for item in v]
    if present and all(isinstance(v, dict) for v in present):
        merged: dict[str, Any] = {}
        for v in present:
            merged.update(v)
        return merged
    total: Any = None
    for v in values:
        total = v if total is None else total + v
    return total


def _tonumber(value: Any) -> Any:
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise JqError(f"Cannot parse '{value}' as JSON") from exc
    return int(number) if number == int(number) else number


def call(name: str, args: list[Any], value: Any, run: Runner) -> Iterator[Any]:
    if name in _SIMPLE and not args:
        try:
            yield _SIMPLE[name](value)
        except (AttributeError, TypeError) as exc:
            raise JqError(
                f"{type_name(value)} ({json.dumps(value)[:40]}) cannot be used with {name}"
            ) from exc
        return
    if name == "empty":
        return
    if name == "values":
        if value is not None:
            yield value
        return
    if name == "select" and len(args) == 1:
        if any(truthy(r) for r in run(args[0], value)):
            yield value
    elif name == "map" and len(args) == 1:
        yield [r for item in _require_list("map", value) for r in run(args[0], item)]
    elif name in ("sort_by", "group_by", "unique_by", "min_by", "max_by") and len(args) == 1:
        items = sorted(_require_list(name, value), key=lambda x: _sort_key(_one(args[0], x, run)))
        if name == "sort_by":
            yield items
        elif name == "min_by":
            yield items[0] if items else None
        elif name == "max_by":
            yield items[-1] if items else None
        else:
            groups: list[list[Any]] = []
            for item in items:
                if groups and _one(args[0], groups[-1][0], run) == _one(args[0], item, run):
                    groups[-1].append(item)
                else:
                    groups.append([item])
            yield groups if name == "group_by" else [g[0] for g in groups]
    elif (
        name
        in (
            "has",
            "test",
            "contains",
            "startswith",
            "endswith",
            "split",
            "join",
            "ltrimstr",
            "rtrimstr",
        )
        and len(args) == 1
    ):
        for arg in run(args[0], value):
            yield _with_arg(name, value, arg)
    elif name in ("any", "all") and len(args) <= 1:
        items = _require_list(name, value)
        checks = [truthy(_one(args[0], x, run)) if args else truthy(x) for x in items]
        yield any(checks) if name == "any" else all(checks)
    else:
        raise JqError(f"{name}/{len(args)} is not defined")


def _with_arg(name: str, value: Any, arg: Any) -> Any:
    try:
        if name == "has":
            return arg in value if isinstance(value, dict) else 0 <= arg < len(value)
        if name == "test":
            return search(arg, value) is not None
        if name == "contains":
            return (
                arg in value
                if isinstance(value, str)
                else all(a in value for a in arg)
                if isinstance(arg, list)
                else value == arg
                or (isinstance(value, dict) and all(value.get(k) == v for k, v in arg.items()))
            )
        if name == "startswith":
            return value.startswith(arg)
        if name == "endswith":
            return value.endswith(arg)
        if name == "split":
            return value.split(arg)
        if name == "join":
            parts = ["" if v is None else v if isinstance(v, str) else json.dumps(v) for v in value]
            size = sum(map(len, parts)) + len(arg) * max(0, len(parts) - 1)
            current().value(size, "a joined string")
            return arg.join(parts)
        if name == "ltrimstr":
            return value[len(arg) :] if isinstance(value, str) and value.startswith(arg) else value
        return (
            value[: -len(arg)] if isinstance(value, str) and arg and value.endswith(arg) else value
        )
    except (TypeError, AttributeError) as exc:
        raise JqError(
            f"{type_name(value)} ({json.dumps(value)[:40]}) cannot be used with {name}"
        ) from exc
