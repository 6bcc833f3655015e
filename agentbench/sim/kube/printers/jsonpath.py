"""The subset of kubectl's JSONPath templates agents use: `{.a.b}`, `{.items[*].metadata.name}`,
`[0]`, `[-1]`, `[1:3]`, `['k.e.y']`, `a\\.b` keys, `..name`, filters `[?(@.type=="Ready")]`,
`{range .items[*]}...{end}` and string literals `{"\\n"}`. Missing keys print nothing, as
kubectl's default (allow missing keys)."""

from __future__ import annotations

import json
import re
from typing import Any

from agentbench.sim.kube.cli.parse import KubectlError

_SEGMENT = re.compile(
    r"\.\.(?P<deep>(?:\\.|[\w/-])+)"
    r"|\.(?P<key>(?:\\.|[\w/-])+|\*)"
    r"|\[\?\((?P<filter>[^)]*)\)\]"
    r"|\[(?P<index>[^\]]*)\]"
)
_FILTER = re.compile(r"^\s*@((?:\.(?:\\.|[\w/-])+)*)\s*(?:(==|!=|<=|>=|<|>)\s*(.+?))?\s*$")


def _parse_path(path: str, whole: str) -> list[tuple[str, str]]:
    path = path.strip()
    if path.startswith(("$", "@")):
        path = path[1:]
    if path and not path.startswith((".", "[")):
        path = "." + path
    segments, pos = [], 0
    while pos < len(path):
        found = _SEGMENT.match(path, pos)
        if not found:
            raise KubectlError(
                f"error: error parsing jsonpath {whole}, unrecognized character "
                f"in action: {path[pos : pos + 1]!r}"
            )
        kind = found.lastgroup or "key"
        segments.append((kind, found.group(kind)))
        pos = found.end()
    return segments


def _key(text: str) -> str:
    return text.replace("\\.", ".")


def _walk_deep(value: Any, key: str, out: list[Any]) -> None:
    if isinstance(value, dict):
        if key in value:
            out.append(value[key])
        for child in value.values():
            _walk_deep(child, key, out)
    elif isinstance(value, list):
        for child in value:
            _walk_deep(child, key, out)


def _filter(items: list[Any], text: str, whole: str) -> list[Any]:
    found = _FILTER.match(text)
    if not found:
        raise KubectlError(f"error: error parsing jsonpath {whole}, unrecognized filter")
    path, op, literal = found.groups()
    if literal is not None:
        literal = literal.strip()
        want: Any = literal[1:-1] if literal[:1] in "'\"" else _number(literal)
    kept = []
    for item in items:
        got = evaluate(path or "", item, whole) if path else [item]
        if op is None:
            if got and got[0] not in (None, False):
                kept.append(item)
            continue
        if not got:
            continue
        value = got[0]
        try:
            ok = {"==": value == want, "!=": value != want}.get(op)
            if ok is None:
                a, b = _number(str(value)), _number(str(want))
                ok = {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        except TypeError:
            ok = False
        if ok:
            kept.append(item)
    return kept


def _number(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def evaluate(path: str, data: Any, whole: str | None = None) -> list[Any]:
    """Every value a path reaches from `data`."""
    current = [data]
    for kind, arg in _parse_path(path, whole or path):
        nxt: list[Any] = []
        for value in current:
            if kind == "key" and arg == "*":
                nxt.extend(
                    value.values()
                    if isinstance(value, dict)
                    else value
                    if isinstance(value, list)
                    else []
                )
            elif kind == "key":
                if isinstance(value, dict) and _key(arg) in value:
                    nxt.append(value[_key(arg)])
            elif kind == "deep":
                _walk_deep(value, _key(arg), nxt)
            elif kind == "filter":
                nxt.extend(
                    _filter(value if isinstance(value, list) else [value], arg, whole or path)
                )
            else:
                nxt.extend(_index(value, arg.strip()))
        current = nxt
    return current


def _index(value: Any, arg: str) -> list[Any]:
    if arg[:1] in "'\"":
        key = arg[1:-1]
        return [value[key]] if isinstance(value, dict) and key in value else []
    if not isinstance(value, list):
        return []
    if arg == "*":
        return list(value)
    if ":" in arg:
        start, _, stop = arg.partition(":")
        return value[int(start) if start else None : int(stop) if stop else None]
    try:
        return [value[int(arg)]]
    except (IndexError, ValueError):
        return []


def text_of(value: Any) -> str:
    """How a value prints: strings raw, everything else as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


_ACTION = re.compile(r"\{((?:\"(?:\\.|[^\"])*\"|'[^']*'|[^{}])*)\}")


def render(template: str, data: Any) -> str:
    """Execute a JSONPath template (the text after `-o jsonpath=`)."""
    parts: list[tuple[str, str]] = []
    pos = 0
    for found in _ACTION.finditer(template):
        if found.start() > pos:
            parts.append(("text", template[pos : found.start()]))
        parts.append(("action", found.group(1).strip()))
        pos = found.end()
    if pos < len(template):
        parts.append(("text", template[pos:]))
    out, _ = _run(parts, 0, data, template)
    return out


def _run(parts: list[tuple[str, str]], i: int, data: Any, whole: str) -> tuple[str, int]:
    out = []
    while i < len(parts):
        kind, text = parts[i]
        i += 1
        if kind == "text":
            out.append(text)
        elif text == "end":
            return "".join(out), i
        elif text.startswith("range "):
            items = evaluate(text[6:], data, whole)
            end = i
            for item in items:
                body, end = _run(parts, i, item, whole)
                out.append(body)
            if not items:
                _, end = _run(parts, i, None, whole)
            i = end
        elif text[:1] in "\"'":
            out.append(
                text[1:-1].encode().decode("unicode_escape") if text[0] == '"' else text[1:-1]
            )
        elif data is not None:
            out.append(" ".join(text_of(v) for v in evaluate(text, data, whole)))
    return "".join(out), i
