"""Reported values held to the document that passed validation.

A prompt that asks the agent to fix a document, validate the fix until it passes and report
"your fixed value" asks for the value of the text that passed, not of a draft before it or of
the value the agent meant to write. A JSON answer's scalar whose key names a field of that
document (`restart_policy` for `restartPolicy:`, `schedule` for `schedule:`) must hold the
value that document gave the field; a schedule may be spelled another way that fires at the
same times (`0,15,30,45 * * * *` for `*/15 * * * *`).

The document is read line by line (`key: value`), not parsed: it is model output, and a
line reader has no aliases to expand and no size to grow.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agentbench.scoring.cron import cron_times
from agentbench.scoring.facts import CallFact

_PASSED = re.compile(r"^\s*PASS\b")
_LIMIT = 200_000  # characters of a document read


def _passed_document(calls: Sequence[CallFact]) -> str | None:
    """The text of the last document a validator passed (None: none passed, or the
    document was named by path rather than given as text)."""
    for call in reversed(calls):
        if not call.ok or not _PASSED.match(call.output or ""):
            continue
        text = (call.args or {}).get("document")
        if isinstance(text, str) and "\n" in text.strip():
            return text[:_LIMIT]
        return None
    return None


def _spellings(key: str) -> set[str]:
    """The field names a JSON key can stand for: itself and its camelCase form."""
    head, *rest = key.split("_")
    return {key, head + "".join(part[:1].upper() + part[1:] for part in rest)}


def _values(document: str, names: set[str]) -> set[str]:
    """The values the document gives any of the field names (quotes and comments off)."""
    out: set[str] = set()
    for name in names:
        line = re.compile(rf"^[ \t-]*{re.escape(name)}[ \t]*:[ \t]*(.*?)[ \t]*(?:#.*)?$", re.M)
        for m in line.finditer(document):
            value = m.group(1).strip().strip("\"'").strip()
            if value:
                out.add(value)
    return out


def _same(reported: str, written: str) -> bool:
    if reported.strip().lower() == written.strip().lower():
        return True
    left, right = reported.split(), written.split()
    if len(left) == len(right) == 5 and left[2:] == right[2:]:
        times = cron_times(reported)
        return bool(times) and times == cron_times(written)
    return False


def validated_value_problems(obj: dict[str, Any], calls: Sequence[CallFact]) -> list[str]:
    """JSON values that differ from the value the document that passed gave the same field."""
    document = _passed_document(calls)
    if document is None:
        return []
    problems: list[str] = []
    for key, value in obj.items():
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            continue
        written = _values(document, _spellings(key))
        if len(written) != 1:
            continue  # the field is not in the document, or it holds several values
        (only,) = written
        if not _same(str(value), only):
            problems.append(
                f"JSON key {key!r} is {value!r}, but the document that passed validation "
                f"has {only!r}"
            )
    return problems
