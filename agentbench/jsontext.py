"""JSON values written inside model text: the one finder the prompt-mode parser and scoring use.

A model that answers in text may wrap JSON in a fenced block, put prose around it, or write
several objects; `json_candidates` finds every JSON value in the order a reader would take them.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def json_values(text: str) -> list[tuple[int, int, Any]]:
    """(start, end, value) of each balanced top-level {...} or [...] in the text, in order."""
    decoder = json.JSONDecoder()
    found: list[tuple[int, int, Any]] = []
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                i += 1
                continue
            found.append((i, end, value))
            i = end
        else:
            i += 1
    return found


def json_candidates(text: str) -> list[Any]:
    """JSON values found in the text: fenced blocks first, then each balanced {...} or [...]."""
    found: list[Any] = []
    for block in _FENCE.findall(text):
        with contextlib.suppress(json.JSONDecodeError):
            found.append(json.loads(block))
    return found + [value for _, _, value in json_values(text)]
