"""jq's built-in functions (the subset program.py documents), each a generator over its input."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.core.budget import current
from agentbench.sim.core.regex import search
from agentbench.sim.text.jq.strings import format_value, substitute
from agentbench.sim.text.jq.values import (
    JqError,
    arith,
    canonical,
    dumps,
    number,
    order_key,
    truthy,
    type_name,
)

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


_sort_key = order_key


def _entries(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, list):
        return [{"key": i, "value": x} for i, x in enumerate(value)]
    return [{"key": k, "value": x} for k, x in value.items()]


def _from_entries(entries: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for e in entries:
        key = next(
            (e[k] for k in ("key", "k", "name", "Name", "K", "Key") if truthy(e.get(k))), None
        )
        if key is None and "key" in e and e["key"] is False:
            key = False
        value = next((e[k] for k in ("value", "v", "Value", "V") if k in e), None)
        out[key if isinstance(key, str) else dumps(key)] = value
    return out


def _unique(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in sorted(_require_list("unique", values), key=order_key):
        if not out or canonical(out[-1]) != canonical(v):
            out.append(v)
    return out


def _paths(value: Any, prefix: list[Any]) -> Iterator[tuple[list[Any], Any]]:
    """Every (path, value) below `value`, in jq's order (a node before its children)."""
    if isinstance(value, dict):
        children: Any = value.items()
    elif isinstance(value, list):
        children = enumerate(value)
    else:
        return
    for key, child in children:
        yield [*prefix, key], child
        yield from _paths(child, [*prefix, key])


_SIMPLE: dict[str, Callable[[Any], Any]] = {
    "length": _length,
    "keys": _keys,
    "to_entries": _entries,
    "from_entries": _from_entries,
    "sort": lambda v: sorted(_require_list("sort", v), key=_sort_key),
    "unique": _unique,
    "tojson": dumps,
    "paths": lambda v: [p for p, _ in _paths(v, [])],
    "first": lambda v: v[0] if v else None,
    "last": lambda v: v[-1] if v else None,
    "add": lambda v: _add(v),
    "min": lambda v: min(v, key=_sort_key) if v else None,
    "max": lambda v: max(v, key=_sort_key) if v else None,
    "tostring": lambda v: v if isinstance(v, str) else dumps(v),
    "tonumber": lambda v: _tonumber(v),
    "ascii_downcase": lambda v: v.lower(),
    "ascii_upcase": lambda v: v.upper(),
    "type": type_name,
    "not": lambda v: not truthy(v),
    "reverse": lambda v: v[::-1],
    "floor": lambda v: number(float(v // 1)) if type_name(v) == "number" else v + "",
}
_STREAMS = frozenset({"paths"})  # zero-argument builtins that yield each item, not a list


def _add(values: Any) -> Any:
    """`reduce .[] as $x (null; . + $x)`; strings, arrays and objects are joined in one pass
    (never re-copied value by value): the result is no larger than `values`, already sized."""
    items = list(values.values()) if isinstance(values, dict) else _require_list("add", values)
    present = [v for v in items if v is not None]
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
    for v in items:
        total = arith("+", total, v)
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
            result = _SIMPLE[name](value)
            if name in _STREAMS:
                yield from result
            else:
                yield result
        except (AttributeError, TypeError, KeyError) as exc:
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
    elif name in ("any", "all") and len(args) == 2:
        hits = (truthy(_one(args[1], x, run)) for x in run(args[0], value))
        yield any(hits) if name == "any" else all(hits)
    elif name in ("any", "all") and len(args) <= 1:
        items = _require_list(name, value)
        checks = [truthy(_one(args[0], x, run)) if args else truthy(x) for x in items]
        yield any(checks) if name == "any" else all(checks)
    elif name in ("first", "limit") and len(args) == (1 if name == "first" else 2):
        counts = [1] if name == "first" else list(run(args[0], value))
        for count in counts:
            if type_name(count) != "number":
                raise NotSimulated(f"jq limit with a {type_name(count)} count")
            if count <= 0:
                continue
            for taken, item in enumerate(run(args[-1], value), start=1):
                yield item
                if taken >= count:
                    break
    elif name == "paths" and len(args) == 1:
        for path, child in _paths(value, []):
            if any(truthy(r) for r in run(args[0], child)):
                yield path
    elif name == "with_entries" and len(args) == 1:
        if not isinstance(value, dict | list):
            raise JqError(f"{type_name(value)} ({dumps(value)[:11]}) has no keys")
        mapped = [r for e in _entries(value) for r in run(args[0], e)]
        yield _from_entries(mapped)
    elif name in ("sub", "gsub") and len(args) == 2:
        for pattern in run(args[0], value):
            yield substitute(name == "gsub", value, pattern, args[1], run)
    elif name.startswith("@") and not args:
        yield format_value(name, value)
    elif name == "index" and len(args) == 1:
        for arg in run(args[0], value):
            yield _index(value, arg)
    else:
        # a real jq builtin this simulator lacks, or a name jq does not define either
        raise NotSimulated(f"jq function {name}/{len(args)}")


def _index(value: Any, arg: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, str) and isinstance(arg, str):
        if not arg:
            return None
        if not (value.isascii() and arg.isascii()):
            raise NotSimulated("jq index on non-ASCII text")
        found = value.find(arg)
        return None if found < 0 else found
    if isinstance(value, list):
        needle = [canonical(x) for x in (arg if isinstance(arg, list) else [arg])]
        hay = [canonical(x) for x in value]
        for i in range(len(hay) - len(needle) + 1):
            if hay[i : i + len(needle)] == needle:
                return i
        return None
    raise NotSimulated(f"jq index on {type_name(value)}")


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
            nested = [v for v in value if isinstance(v, list | dict)]
            if nested:
                raise JqError(f"Cannot join with {type_name(nested[0])}")
            parts = ["" if v is None else v if isinstance(v, str) else dumps(v) for v in value]
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
