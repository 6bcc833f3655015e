"""A value said of one record that belongs to its neighbour: a field read off the wrong row.

"The payments primary is Priya Raman; call her on +49 30 5550 2587" where that number is in
Omar Haddad's row, not hers; "INC-2291 (Nightly invoice export stuck)" where that title is
INC-2288's; "deployed by a.tanaka" where a.tanaka triggered another deploy. A clause (or the
clauses after it in its sentence) names one declared record: a SQL row named by one of its
identifying cells, or a record of a structured document. A value it states fails when another
record of the same kind holds it and the named one does not.

The values held against the clause are distinctive ones: handles and identifiers (`a.tanaka`,
`svc_backup`), and values of six characters or more with a space or a digit in them (phone
numbers, titles, addresses). Plain numbers are figures and have their own check
(`bound_figures`); one-word values (`resolved`, `payments`) are too common to own. A value the
clause denies or hedges is not stated. So is a record's name glossed by another record's, the
two in apposition ("INC-2291 (Nightly invoice export stuck)"): the gloss belongs to the other row.
"""

from __future__ import annotations

import re
from itertools import pairwise

from agentbench.scoring.bound_figures import (
    record_name,
    record_texts,
    records_about,
    segments,
    strings,
)
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at
from agentbench.scoring.structured import parse

_VALUE_TOKEN = re.compile(r"(?<![\w.@-])([A-Za-z][\w.@-]*[.@_][\w.@-]*[A-Za-z0-9])(?![\w@-])")
_NUMBER = re.compile(r"[+-]?[\d,]*\.?\d+%?")
_DATE = re.compile(r"\d{4}-\d\d-\d\d|\d{1,2}:\d\d")


def _phrase(value: str) -> bool:
    """Whether a cell's value is distinctive enough that stating it names its record: six
    characters or more, with a space or a digit, and not a plain number or a date."""
    if len(value) < 6 or len(value) > 120 or not re.search(r"[\s\d]", value):
        return False
    return not _NUMBER.fullmatch(value) and not _DATE.match(value)


def _spelled(value: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in value.split()]
    return re.compile(r"(?<![\w+.@-])" + r"\s+".join(words) + r"(?![\w@-]|\.\d)", re.IGNORECASE)


def crossed_value_problems(reading: Reading) -> list[str]:
    """Why a value said of one record is its neighbour's (module docstring; empty: none is)."""
    entities = reading.entities
    if not entities.simulated:
        return []
    values = {
        key: {v.lower() for t in texts for v in strings(parse(t))}
        | {v.lower() for v in entities.by_key[key].cells}
        for key, texts in record_texts(reading)
    }
    for s, group in enumerate(reading.groups):
        for c, clause in enumerate(group):
            for keys, lo, hi in segments(clause.text, records_about(reading, s, c, values)):
                keys = _narrowest(reading, keys)
                own = set().union(*(values.get(k, set()) for k in keys))
                kinds = {entities.by_key[k].kind for k in keys if k in entities.by_key}
                if not own:
                    continue
                others = {
                    v
                    for k, vs in values.items()
                    if k not in keys and entities.by_key[k].kind in kinds
                    for v in vs
                    if v not in own
                }
                for start, end in _stated(clause.text, lo, hi, others):
                    said = clause.text[start:end]
                    if any(said.lower() in v for v in own):
                        continue
                    if stance_at(clause, (start, end)) is not Stance.asserted:
                        continue
                    name = record_name(reading, keys)
                    return [
                        f"{said!r} is said of {name}, whose record does not hold it "
                        "(another record does)"
                    ]
    return []


_GLOSS = re.compile(r"\s*\(\s*[\"'“`]?")
_GLOSS_END = re.compile(r"[\"'”`]?\s*\)")


def glossed_record_problems(reading: Reading, answer: str) -> list[str]:
    """A record named with another record's name in parentheses after it, the two rows of one
    table: "INC-2291 (Nightly invoice export stuck)" where that is INC-2288's title."""
    entities = reading.entities
    if not entities.simulated:
        return []
    found = sorted(entities.mentions(answer[:50_000]))
    for (_, end, key), (start, stop, other) in pairwise(found):
        first, second = entities.by_key.get(key), entities.by_key.get(other)
        if first is None or second is None or not first.cells or not second.cells:
            continue
        if first.kind.split(".")[0] != second.kind.split(".")[0]:
            continue  # rows of two tables: an order and its customer
        if not _GLOSS.fullmatch(answer, end, start) or not _GLOSS_END.match(answer, stop):
            continue
        if answer[start:stop].lower() in {c.lower() for c in first.cells}:
            continue  # the same row by another of its cells
        return [
            f"{answer[start:stop]!r} glosses {record_name(reading, [key])}, but it names another "
            "row of that table"
        ]
    return []


def _stated(text: str, lo: int, hi: int, others: set[str]) -> list[tuple[int, int]]:
    """Where the part [lo, hi) of a clause states one of the other records' values."""
    found = [m.span(1) for m in _VALUE_TOKEN.finditer(text, lo, hi) if m.group(1).lower() in others]
    for value in sorted(v for v in others if _phrase(v)):
        match = _spelled(value).search(text, lo, hi)
        if match:
            found.append(match.span())
    return sorted(found)


def _narrowest(reading: Reading, keys: frozenset[str]) -> frozenset[str]:
    """The one-row records among these when a many-row one of the same table is named beside
    them ("Search primary on-call is Jonas Weber": the team's rows are not Jonas's)."""
    by_key = reading.entities.by_key
    single = {k for k in keys if k in by_key and len(by_key[k].evidence) == 1}
    tables = {by_key[k].kind.split(".")[0] for k in single if by_key[k].kind.startswith("row:")}
    narrowed = {
        k
        for k in keys
        if k in single or not (k in by_key and by_key[k].kind.split(".")[0] in tables)
    }
    return frozenset(narrowed) if narrowed else keys
