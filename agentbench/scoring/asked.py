"""What the prompt asks of each key of a structured answer, beyond its schema.

A prompt describes its keys in parentheses: `"first_seen" (timestamp of the first occurrence,
exactly as written in the log)`, `"upstream" (the backend address as host:port)`. Two kinds of
description bind the value's spelling, whatever the task's own field check accepts:

- **verbatim** ("as logged", "as written", "as printed", "as in the log", "exactly as",
  "verbatim"): the value must be text a tool output (the prompt, where no tool was called)
  holds as it stands, spaces and letter case aside; `2026-11-16T16:09:28Z` for a log's
  `Nov 16 16:09:28` is a rewrite, and so is `1 MB` for a directive's `1m`;
- **host:port**: the value is a host and a port and nothing more (no scheme, no path).
"""

from __future__ import annotations

import re
from typing import Any

_KEY_DESCRIPTION = re.compile(r'"(?P<key>[A-Za-z_][\w.-]{0,60})"\s*\((?P<about>[^()]{1,400})\)')
_VERBATIM = re.compile(
    r"\b(?:as\s+(?:it\s+is\s+|it's\s+)?(?:logged|written|printed|shown|recorded|it\s+appears)"
    r"|as\s+(?:in|on)\s+the\s+(?:log|file|output|config\w*|line|entry)|exactly\s+as|verbatim"
    r"|as-is|unchanged)\b",
    re.IGNORECASE,
)
_HOST_PORT_ASKED = re.compile(r"\bhost:port\b", re.IGNORECASE)
_HOST_PORT = re.compile(r"^\[?[\w.:-]+\]?:\d{1,5}$")
_SPACE = re.compile(r"\s+")


def asked_spelling(prompt: str) -> dict[str, str]:
    """key -> "verbatim" or "host:port", for the keys the prompt binds the spelling of."""
    asked: dict[str, str] = {}
    for m in _KEY_DESCRIPTION.finditer(_SPACE.sub(" ", prompt)):
        about = m.group("about")
        if _HOST_PORT_ASKED.search(about):
            asked[m.group("key")] = "host:port"
        elif _VERBATIM.search(about):
            asked[m.group("key")] = "verbatim"
    return asked


def spelling_problems(prompt: str, obj: dict[str, Any], seen: list[str]) -> list[str]:
    """Keys whose value is not spelt the way the prompt asks (empty: all are)."""
    asked = asked_spelling(prompt)
    if not asked:
        return []
    text = _SPACE.sub(" ", "\n".join(seen)).lower()  # `1M` for nginx's `1m` is its own spelling
    problems: list[str] = []
    for key, how in asked.items():
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip():
            continue  # absent or not text: the schema and the field checks say so
        if how == "host:port" and not _HOST_PORT.match(value.strip()):
            problems.append(f"JSON key {key!r} is {value!r}, not host:port as the prompt asks")
        elif how == "verbatim" and _SPACE.sub(" ", value.strip()).lower() not in text:
            problems.append(
                f"JSON key {key!r} is {value!r}, which no tool output holds as written "
                "(the prompt asks for it verbatim)"
            )
    return problems
