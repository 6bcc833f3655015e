"""How often something recurs, in any of the ways an answer says it.

A schedule's step ("every 30 minutes") is stated as `every 30 minutes`, `every thirty
minutes`, `every 30 min`, `every half hour`, `half-hourly`, `twice an hour`, `at :00 and :30`,
`at minutes 0 and 30`, `on the hour and at half past`, or by listing the runs themselves
(`02:00, 02:30, 03:00, 03:30`): three or more clock times a constant step apart. A fact's
`every` is held to whichever the answer uses (agentbench.scoring.assertions).
"""

from __future__ import annotations

import itertools
import re

from agentbench.scoring.quantities import unit_base
from agentbench.scoring.spelled import with_digits

_EVERY = re.compile(
    r"\bevery\s+(?P<n>\d+)[\s-]*(?P<u>seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|[smhd])\b"
    r"|\b(?P<n2>\d+)[\s-]*(?P<u2>minute|hour|second)(?:ly|\s+(?:intervals?|steps?|cadence))\b",
    re.IGNORECASE,
)
_NAMED = [
    (
        re.compile(
            r"\bevery\s+(?:half(?:\s+an)?[\s-]+hour|30[\s-]+min\w*)\b|\bhalf[\s-]hourly\b", re.I
        ),
        1800,
    ),
    (re.compile(r"\bevery\s+quarter(?:\s+of\s+an)?[\s-]+hour\b|\bquarter[\s-]hourly\b", re.I), 900),
    (
        re.compile(r"\bevery\s+hour\b|\bhourly\b|\bonce\s+(?:an|a|per|each|every)\s+hour\b", re.I),
        3600,
    ),
    (
        re.compile(
            r"\bon\s+the\s+hour\s+and\s+(?:at\s+)?(?:the\s+)?half(?:\s+past|[\s-]hour)\b", re.I
        ),
        1800,
    ),
    (re.compile(r"\bevery\s+minute\b", re.I), 60),
]
_TIMES_AN_HOUR = re.compile(
    r"\b(?P<k>\d+|twice|thrice)\s*(?:times\s+)?(?:an|a|per|each|every)\s+hour\b", re.IGNORECASE
)
_MARKS = re.compile(
    r"\b(?:at\s+)?(?:minutes?\s+)?(?P<marks>:?\d{1,2}(?:\s*(?:,\s*(?:\.\.\.|…)\s*,?|,|and|&|/)"
    r"\s*:?\d{1,2}){1,11})"
    r"(?:\s+(?:past|after)\s+(?:the|each|every)\s+hour)?",
    re.IGNORECASE,
)
_CLOCK = re.compile(r"(?<![\d:])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?![\d:])")


def interval_span(text: str, seconds: int) -> tuple[int, int] | None:
    """Where the text states a recurrence every `seconds`, else None."""
    found = _stated(text, seconds)
    if found is not None:
        return found
    digits = with_digits(text)
    if digits != text and _stated(digits, seconds) is not None:
        return 0, len(text)  # "every thirty minutes": the clause as a whole
    return None


def _stated(text: str, seconds: int) -> tuple[int, int] | None:
    spans: list[tuple[int, int]] = []
    for m in _EVERY.finditer(text):
        n, unit = (m["n"], m["u"]) if m["n"] else (m["n2"], m["u2"])
        if int(n) * _unit(unit) == seconds:
            spans.append(m.span())
    for pattern, step in _NAMED:
        if step == seconds:
            spans += [m.span() for m in pattern.finditer(text)]
    for m in _TIMES_AN_HOUR.finditer(text):
        k = {"twice": 2, "thrice": 3}.get(m["k"].lower()) or int(m["k"])
        if k and 3600 % k == 0 and 3600 // k == seconds:
            spans.append(m.span())
    if seconds < 3600 and 3600 % seconds == 0:
        spans += _minute_marks(text, seconds // 60)
    spans += _clock_run(text, seconds)
    return min(spans) if spans else None


def _unit(word: str) -> int:
    """Seconds in one of the unit ("m" after "every 30" is minutes, never MiB)."""
    if word.lower() == "m":
        return 60
    dimension, factor = unit_base(word)
    return int(factor) if dimension == "seconds" else 0


def _minute_marks(text: str, step: int) -> list[tuple[int, int]]:
    """`at :00 and :30`, `at minutes 0, 15, 30 and 45`: every mark of the hour, `step` apart."""
    out = []
    for m in _MARKS.finditer(text):
        marks = [int(x) for x in re.findall(r"\d{1,2}", m["marks"])]
        if ":" not in m["marks"] and not re.search(r"minute|past", m.group(0), re.I):
            continue  # "1 and 5" is no list of minutes
        if marks == list(range(marks[0], 60, step)) and marks[0] < step:
            out.append(m.span())
        elif re.search(r"\.\.\.|…", m["marks"]) and _elided(marks, step):
            out.append(m.span())  # "minute 0, 5, 10, ..., 55"
    return out


def _elided(marks: list[int], step: int) -> bool:
    """Marks of the hour with a run left out ("0, 5, 10, ..., 55"): `step` apart up to the
    ellipsis, and the last the hour's last mark."""
    head = marks[:-1]
    return (
        len(head) >= 2
        and marks[0] < step
        and all(b - a == step for a, b in itertools.pairwise(head))
        and marks[-1] == marks[0] + (60 // step - 1) * step
    )


def _clock_run(text: str, seconds: int) -> list[tuple[int, int]]:
    """Three or more clock times in a row, each `seconds` after the one before."""
    clocks = [(int(m["h"]) * 3600 + int(m["m"]) * 60, m.span()) for m in _CLOCK.finditer(text)]
    out = []
    run = clocks[:1]
    for prev, cur in itertools.pairwise(clocks):
        if cur[0] - prev[0] == seconds:
            run.append(cur)
        else:
            run = [cur]
        if len(run) == 3:
            out.append((run[0][1][0], run[-1][1][1]))
    return out
