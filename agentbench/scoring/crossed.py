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
from functools import lru_cache
from itertools import pairwise

from agentbench.scoring.bound_figures import (
    record_name,
    record_texts,
    records_about,
    segments,
    strings,
)
from agentbench.scoring.printed import MOMENT
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at
from agentbench.scoring.structured import parse

_VALUE_TOKEN = re.compile(r"(?<![\w.@-])([A-Za-z][\w.@-]*[.@_][\w.@-]*[A-Za-z0-9])(?![\w@-])")
_NUMBER = re.compile(r"[+-]?[\d,]*\.?\d+%?")


def _phrase(value: str) -> bool:
    """Whether a cell's value is distinctive enough that stating it names its record: six
    characters or more, with a space or a digit, and not a plain number or a date."""
    if len(value) < 6 or len(value) > 120 or not re.search(r"[\s\d]", value):
        return False
    return not _NUMBER.fullmatch(value) and not MOMENT.match(value)


@lru_cache(maxsize=4096)
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


# what glosses a record right after its name: "(deploy dep-9b77e0, commit 8e1f0a3)", or a
# title after a dash or a colon ("INC-2291 – Nightly invoice export stuck")
_GLOSS = re.compile(r"[*_`]*[ \t]*(?:\(([^()\n]{1,200})\)|[ \t]*[–—:-][ \t]+([^\n.;()]{1,120}))")
# an item that relates the record to another rather than glossing it: "(after 2.14.1 failed)"
_RELATING = re.compile(
    r"\b(?:after|before|since|than|unlike|like|not|vs\.?|versus|from|to|replac\w*|instead|"
    r"follow\w*|preced\w*|previous|next|prior|earlier|later|same|as|with|and|or|but|by|of)\b",
    re.IGNORECASE,
)


def glossed_record_problems(reading: Reading, answer: str) -> list[str]:
    """A record glossed with another record's name: "INC-2291 (Nightly invoice export stuck)"
    where that is INC-2288's title, "2.14.0 (deploy dep-9b77e0, commit 8e1f0a3)" where that
    commit is the next deploy's. Each comma-separated item of the gloss that is a name with at
    most two label words beside it ("commit", "title") must name the record itself."""
    entities = reading.entities
    if not entities.simulated:
        return []
    text = answer[:50_000]
    found = entities.mentions(text)
    for start, end, key in found:
        record = entities.by_key.get(key)
        if record is None or not (record.cells or record.kind == "record"):
            continue
        gloss = _GLOSS.match(text, end)
        if gloss is None or any(a < end and b > end for a, b, _ in found):
            continue
        lo = gloss.start(1) if gloss.group(1) is not None else gloss.start(2)
        own = {k for a, b, k in found if (a, b) == (start, end)}
        for item_lo, item_hi in _items(text, lo, gloss.end(1) if gloss.group(1) else gloss.end()):
            inside = [(a, b, k) for a, b, k in found if item_lo <= a and b <= item_hi]
            if not inside or _RELATING.search(text, item_lo, item_hi):
                continue
            if re.match(r"[*_`]*\s*[:=]", text[inside[-1][1] : item_hi]):
                continue  # "AMS-1: 11-4=7, BER-2: 36-9=27": another key of a list, no gloss
            label = text[item_lo : inside[0][0]] + text[inside[-1][1] : item_hi]
            if len(re.findall(r"[A-Za-z]+", label)) > 2:
                continue
            keys = {k for _, _, k in inside}
            if keys & own or any(_same_record(reading, k, o) for k in keys for o in own):
                continue
            if not all(_collection(reading, k) == _collection(reading, key) for k in keys):
                continue
            said = text[inside[0][0] : inside[-1][1]]
            return [f"{said!r} glosses {record_name(reading, [key])}, but it names another record"]
    return []


def _items(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The comma- or semicolon-separated items of text[lo:hi], as spans."""
    commas = [lo + m.start() for m in re.finditer(r"[,;]", text[lo:hi])]
    return [(a + 1, b) for a, b in pairwise([lo - 1, *commas, hi])]


def _collection(reading: Reading, key: str) -> str:
    """The table or document a record belongs to (`row:incidents`, `deploy.internal/deployments`):
    a record served by two routes is of one collection."""
    entity = reading.entities.by_key.get(key)
    if entity is None:
        return key
    if entity.kind.startswith("row:"):
        return entity.kind.split(".")[0]
    return re.sub(r"^route\d+:", "", key.rsplit("#", 1)[0])


def _same_record(reading: Reading, a: str, b: str) -> bool:
    by_key = reading.entities.by_key
    if a not in by_key or b not in by_key:
        return False
    return bool(set(by_key[a].evidence) & set(by_key[b].evidence)) or bool(
        by_key[a].cells and by_key[a].cells == by_key[b].cells
    )


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
