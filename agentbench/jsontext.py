"""JSON written by a model or a server: bounded decoding, and the one finder of JSON in text.

Everything here reads untrusted text, so it is bounded: a value nested deeper than MAX_DEPTH
levels, or a number Python will not convert (over 4,300 digits), is a `json.JSONDecodeError`
like any other malformed JSON, never a RecursionError; lone surrogate escapes (`"\\ud800"`, which
no UTF-8 store can hold) come back as U+FFFD. `json_values` gives up after MAX_FAILED_STARTS
openings that hold no JSON, so a text of 50,000 `[` costs milliseconds.

A model that answers in text may wrap JSON in a fenced block, put prose around it, or write
several objects; `json_candidates` finds every JSON value in the order a reader would take them.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 64  # no tool call or stream chunk of any server comes near; json's C decoder would
# recurse to the interpreter's limit (~1,000) and raise RecursionError
MAX_FAILED_STARTS = 500
_orjson: Any
try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - optional: the stdlib path below is the reference
    _orjson = None

_FENCE = re.compile(r"```(?:json)?(.*?)```", re.DOTALL)  # no \s* before a lazy group: quadratic
_DECODER = json.JSONDecoder()
_STRUCTURE = re.compile(r'[\[\]{}"]')
_STRING_REST = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_START = re.compile(r"[{\[]")
_OPEN_RUN = re.compile(r"[\[{][\[{ \t\r\n]*")
_WHITESPACE = re.compile(r"[ \t\r\n]*")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _too_deep_at(text: str, start: int, max_depth: int) -> int | None:
    """Where the value at `start` opens its (max_depth + 1)-th level, or None if it never does.
    Strings are skipped whole, so the cost is the number of brackets the value holds."""
    depth, i = 0, start
    while (m := _STRUCTURE.search(text, i)) is not None:
        char = m.group()
        if char == '"':
            rest = _STRING_REST.match(text, m.end())
            if rest is None or depth == 0:
                return None  # an unterminated string (the decoder stops there) or a bare one
            i = rest.end()
            continue
        if char in "[{":
            depth += 1
            if depth > max_depth:
                return m.start()
        else:
            depth -= 1
            if depth <= 0:
                return None
        i = m.end()
    return None


def _clean(value: Any) -> Any:
    """`value` with lone surrogates replaced by U+FFFD (depth is bounded by the caller)."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    return value


def decode_at(text: str, start: int = 0, max_depth: int = MAX_DEPTH) -> tuple[Any, int]:
    """`json.JSONDecoder().raw_decode(text, start)` for untrusted text: (value, end), or
    json.JSONDecodeError for malformed, too deeply nested or unconvertible JSON."""
    deep = _too_deep_at(text, start, max_depth)
    if deep is not None:
        raise json.JSONDecodeError(f"nested deeper than {max_depth} levels", text, deep)
    try:
        value, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError) as exc:  # e.g. an integer of over 4,300 digits
        raise json.JSONDecodeError(str(exc)[:120], text, start) from exc
    if _SURROGATE_ESCAPE.search(text, start, end):
        value = _clean(value)
    return value, end


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads` for untrusted text, bounded as `decode_at` is.

    The hot path (a stream chunk) goes through orjson when it is installed: it never recurses
    past its own limit and is several times faster; a value with fewer openings than
    `max_depth` cannot be too deep, so only a text with more is scanned. Whatever orjson refuses
    (NaN, lone surrogates, huge integers, too deep) takes the bounded path below, so what
    parses is exactly what the bounded decoder parses."""
    if _orjson is not None:
        try:
            value = _orjson.loads(text)
        except _orjson.JSONDecodeError:
            pass
        else:
            as_text = text if isinstance(text, str) else text.decode("utf-8", "replace")
            opens = as_text.count("[") + as_text.count("{")
            if opens <= max_depth or _too_deep_at(as_text, 0, max_depth) is None:
                return value
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    start = _WHITESPACE.match(text).end()  # type: ignore[union-attr]  # matches the empty string
    value, end = decode_at(text, start, max_depth)
    rest = _WHITESPACE.match(text, end).end()  # type: ignore[union-attr]
    if rest != len(text):
        raise json.JSONDecodeError("Extra data", text, rest)
    return value


def _next_start(text: str, failed: int) -> int:
    """Where to look for JSON after a failed opening: the next character, or past the part of a
    run of openings that is too deep from wherever in it a value would start."""
    run = _OPEN_RUN.match(text, failed)
    if run is None:
        return failed + 1
    opens = [failed + j for j, c in enumerate(run.group()) if c in "[{"]
    return max(failed + 1, opens[-MAX_DEPTH] if len(opens) > MAX_DEPTH else 0)


def json_values(text: str) -> list[tuple[int, int, Any]]:
    """(start, end, value) of each balanced top-level {...} or [...] in the text, in order."""
    found: list[tuple[int, int, Any]] = []
    failures, i = 0, 0
    while failures < MAX_FAILED_STARTS and (m := _START.search(text, i)) is not None:
        try:
            value, end = decode_at(text, m.start())
        except json.JSONDecodeError:
            failures += 1
            i = _next_start(text, m.start())
            continue
        found.append((m.start(), end, value))
        i = end
    return found


def json_candidates(text: str) -> list[Any]:
    """JSON values found in the text: fenced blocks first, then each balanced {...} or [...]."""
    found: list[Any] = []
    for block in _FENCE.findall(text):
        try:
            found.append(loads(block))
        except json.JSONDecodeError:
            continue
    return found + [value for _, _, value in json_values(text)]
