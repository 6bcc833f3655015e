"""jq's string builtins that build text: sub/gsub over a regex, and the `@` formats (@text @json
@csv @tsv @sh @base64 @base64d @uri @html)."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator
from typing import Any

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.core.regex import compile_regex
from agentbench.sim.text.jq.values import JqError, dumps, type_name

Runner = Callable[[Any, Any], Iterator[Any]]


def substitute(every: bool, value: Any, pattern: Any, replacement: Any, run: Runner) -> str:
    """sub/gsub: each match replaced by the replacement evaluated on its named captures."""
    if not isinstance(value, str) or not isinstance(pattern, str):
        raise JqError(
            f"{type_name(value)} ({dumps(value)[:11]}) cannot be matched, as it is not a string"
        )
    try:
        regex = compile_regex(re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", pattern))
    except Exception as exc:  # Oniguruma's syntax differs: not a verdict on the program
        raise NotSimulated(f"jq regex {pattern!r}") from exc
    out: list[str] = []
    last = 0
    for found in regex.finditer(value):
        if found.start() == found.end():
            raise NotSimulated("jq sub/gsub with a regex that matches the empty string")
        captures = {k: v for k, v in found.groupdict().items()}
        texts = list(run(replacement, captures))
        if len(texts) != 1 or not isinstance(texts[0], str):
            raise NotSimulated("jq sub/gsub whose replacement is not one string")
        out += [value[last : found.start()], texts[0]]
        last = found.end()
        if not every:
            break
    out.append(value[last:])
    return "".join(out)


_URI_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")


def format_value(name: str, value: Any) -> str:
    """jq's @text @json @csv @tsv @sh @base64 @base64d @uri @html."""
    if name == "@text":
        return value if isinstance(value, str) else dumps(value)
    if name == "@json":
        return dumps(value)
    if name in ("@csv", "@tsv"):
        if not isinstance(value, list):
            shown = f"{type_name(value)} ({dumps(value)[:11]})"
            raise JqError(f"{shown} cannot be {name[1:]}-formatted, only an array can be")
        return ("," if name == "@csv" else "\t").join(_cell(name, v) for v in value)
    if name == "@sh":
        items = value if isinstance(value, list) else [value]
        return " ".join(_shell_word(v) for v in items)
    text = value if isinstance(value, str) else dumps(value)
    if name == "@base64":
        return base64.b64encode(text.encode()).decode()
    if name == "@base64d":
        try:
            raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise NotSimulated("jq @base64d of text that is not base64") from exc
        return raw.decode("utf-8", errors="replace")
    if name == "@uri":
        return "".join(
            c if c in _URI_SAFE else "".join(f"%{b:02X}" for b in c.encode()) for c in text
        )
    if name == "@html":
        table = {"<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&#39;", '"': "&quot;"}
        return "".join(table.get(c, c) for c in text)
    raise NotSimulated(f"jq format {name}")


def _cell(name: str, value: Any) -> str:
    kind = type_name(value)
    if kind in ("array", "object"):
        raise JqError(f"{kind} ({dumps(value)[:11]}) is not valid in a csv row")
    if value is None:
        return ""
    if kind != "string":
        return dumps(value)
    if name == "@csv":
        return '"' + value.replace('"', '""') + '"'
    table = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
    return "".join(table.get(c, c) for c in value)


def _shell_word(value: Any) -> str:
    kind = type_name(value)
    if kind in ("array", "object"):
        raise JqError(f"{kind} ({dumps(value)[:11]}) can not be escaped for shell")
    if kind != "string":
        return dumps(value)
    return "'" + value.replace("'", "'\\''") + "'"
