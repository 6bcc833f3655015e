"""Figures said of one declared record, held against that record.

A clause that names exactly one declared entity (or names none and follows, in its sentence,
one that does: "D-5487: 6 on hand, reorder point 17") with structured evidence of its own (a
warehouse's row of an inventory response, one deploy of a history, one SKU's record) and
states a plain figure about it ("AMS-1 contributes 27", "E-6683 (8 short)") must state a
figure the record holds, or the sum, difference or ratio of two of them; otherwise the figure
belongs to another record (two warehouses swapped) or to none (an off-by-one shortfall).

Left alone: figures with a unit (sizes, durations, percentages and money have their own
checks in agentbench.scoring.figures), figures that label ("row 17", "port 8080", "exit code
137"), the task's required amounts (an answer's total is no one record's), clauses that name
two or more entities, and entities whose evidence states no figure at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from agentbench.jsontext import json_values
from agentbench.scoring.claims import Clause
from agentbench.scoring.counts import field_count
from agentbench.scoring.entities import Entities, Entity
from agentbench.scoring.figures import LABEL, Stated
from agentbench.scoring.numbers import worked_figures
from agentbench.scoring.printed import MOMENT
from agentbench.scoring.quantities import Moment, moments, quantities
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at
from agentbench.scoring.structured import nodes, parse
from agentbench.tasks.expectations import Fact

# a number that names a thing rather than measures it: "order 88412", "invoice 1207"
NAMED_BY = re.compile(
    r"\b(?:orders?|invoices?|tickets?|customers?|users?|accounts?|jobs?|builds?|runs?|prs?"
    r"|issues?|incidents?|cases?|requests?|transactions?|payments?|deploys?|releases?)\W{0,3}"
    r"(?:\d+\W{0,2}(?:,|and|or|&)\s*)*$",  # and the rest of its list: "PR 4398, 4411"
    re.IGNORECASE,
)
_FOREIGN = re.compile(r"^row:[\w.]+\.\w+_id$")  # a row named by a column that refers elsewhere
# entity kinds whose evidence is one record of a structured document, or one declared row
_RECORD_KIND = re.compile(r"^(?:row:|record|id:)")


def bound_figure_problems(
    reading: Reading, facts: list[Fact], outputs: Sequence[str] = ()
) -> list[str]:
    """Why a figure said of one record is not that record's (empty: every one is). A figure an
    output prints on a line naming the record is its own too: an aggregate's row
    (`marco.rossi@example.com | 13` of a GROUP BY) states what no table row holds."""
    entities = reading.entities
    if not entities.simulated:
        return []
    required = [f.amount.value for f in facts if f.amount is not None]
    cache: dict[frozenset[str], Stated | None] = {}
    for s, group in enumerate(reading.groups):
        for c, clause in enumerate(group):
            for keys, lo, hi in segments(clause.text, _named(reading, s, c)):
                problem = _segment_problem(
                    reading, clause, keys, lo, hi, required, cache, outputs
                )
                if problem:
                    return [problem]
    return []


def segments(
    text: str, found: list[tuple[int, int, str]]
) -> list[tuple[frozenset[str], int, int]]:
    """The parts of a clause that each name one entity, with the keys it names: the whole
    clause when it names one; "12 in RTM-1 and 19 in FRA-1" cut at its "and" when every part
    then names exactly one; none when whose figure is whose stays unclear."""
    spans = sorted({(a, b) for a, b, _ in found})
    if len(spans) == 1:
        return [(frozenset(k for _, _, k in found), 0, len(text))]
    if len(spans) < 2:
        return []
    cuts = [m.start() for m in _JOINS.finditer(text)]
    bounds = [0]
    for (_, end), (start, _) in pairwise(spans):
        between = [x for x in cuts if end <= x < start]
        if len(between) != 1:
            return []
        bounds.append(between[0])
    bounds.append(len(text))
    starts = [q.start for q in quantities(text)]
    if not all(any(lo <= x < hi for x in starts) for lo, hi in pairwise(bounds)):
        return []  # "RTM-1, FRA-1 and MAD-2 show 73": a list of names, not figure by figure
    return [
        (frozenset(k for a, b, k in found if (a, b) == span), lo, hi)
        for span, (lo, hi) in zip(spans, pairwise(bounds), strict=True)
    ]


_JOINS = re.compile(r"[,;]?\s+(?:and|while|whereas|but|plus)\s+|;\s+", re.IGNORECASE)


def _segment_problem(
    reading: Reading,
    clause: Clause,
    keys: frozenset[str],
    lo: int,
    hi: int,
    required: list[float],
    cache: dict[frozenset[str], Stated | None],
    outputs: Sequence[str] = (),
) -> str:
    """Why a figure the part [lo, hi) of the clause says of these entities is not theirs."""
    entities = reading.entities
    records = [entities.by_key[k] for k in sorted(keys)]
    # a host's responses are its record for figures ("auth ... up 404349 s"); its name is too
    # common a word ("a manual deploy") to own handles and times
    if not all((_RECORD_KIND.match(e.kind) or _served(e)) and e.evidence for e in records):
        return ""
    if any(e.kind.startswith("row:") and len(e.evidence) > 1 for e in records):
        return ""  # a value many rows share (the warehouse of twelve SKUs): no one record
    if any(_FOREIGN.search(e.kind) for e in records):
        return ""  # a payment id in an order row: the payment's own facts are elsewhere
    if keys not in cache:
        texts = [MOMENT.sub(" ", t) for e in records for t in e.evidence]
        own = Stated([*texts, _list_lengths(texts)], loose=False)
        cache[keys] = own if own.raws else None
    own_figures = cache[keys]
    if own_figures is None:
        return ""
    moments_at = [m.span() for m in MOMENT.finditer(clause.text)]
    fields = {(a or b).lower().rstrip("s") for e in records for t in e.evidence for a, b in
              _FIELD.findall(t)}  # the record's field names: "warehouses", "on_hand"
    for q in quantities(clause.text):
        if not lo <= q.start < hi or any(a <= q.start < b for a, b in moments_at):
            continue  # outside the part, or inside a date or clock time ("09:14:00+00")
        if not clause.text[q.start : q.end][:1].isdigit():
            continue  # a word ("once", "none") rather than a figure
        if stance_at(clause, (q.start, q.end)) is not Stance.asserted:
            continue
        before = clause.text[lo : q.start]
        counted = _PLURAL.match(clause.text, q.end)
        if counted and counted.group(1).lower().rstrip("s") in fields:
            continue  # "the three warehouses": a count of its rows' warehouses, not a field
        if (
            LABEL.search(before)
            or NAMED_BY.search(before)
            or any(abs(q.raw - r) < 0.005 for r in required)
            or q.raw in worked_figures(clause.sentence or clause.text)
        ):
            continue
        if q.raw < 10 and any(e.kind == "host" for e in records):
            continue  # "after 3 tries", "2 of its checks": a host's small counts are the agent's
        if own_figures.plain(q.raw) or (q.dimension is not None and own_figures.sized(q)):
            continue
        said = clause.text[q.start : q.end]
        if said in _names(entities) or _in_prompt(said, entities.prompt):
            continue  # "returned 88412 | refunded": the order the prompt names, not a figure
        if _printed_beside(said, [n for e in records for n in e.names], outputs):
            continue
        if field_count(clause.text, q.start, q.raw, list(outputs)):
            continue  # "which of the 12 unassigned shards": the cluster's field, not the index's
        name = record_name(reading, keys)
        return f"figure {said!r} is said of {name}, whose record does not state it"
    return ""


def _printed_beside(said: str, names: list[str], outputs: Sequence[str]) -> bool:
    """Whether an output line names the record and prints the figure as written."""
    digits = re.sub(r"[^\d.]", "", said).strip(".")
    if not digits:
        return False
    figure = re.compile(rf"(?<![\w.]){re.escape(digits)}(?![\w]|\.\d)")
    named = [n.lower() for n in names if len(n) >= 3]
    return any(
        figure.search(line) and any(n in line.lower() for n in named)
        for text in outputs
        for line in text[:200_000].splitlines()
    )


def _in_prompt(token: str, prompt: str) -> bool:
    return bool(re.search(rf"(?<![\w.,]){re.escape(token)}(?![\w.,]\d|\w)", prompt))


def _names(entities: Entities) -> set[str]:
    return {n for e in entities.by_key.values() for n in e.names}


def _served(entity: Entity) -> bool:
    """An HTTP host whose declared responses are its record (`status 503 {...}`)."""
    return entity.kind == "host" and all(t.startswith("status ") for t in entity.evidence)


_PLURAL = re.compile(r"\s+([a-z]+s)\b", re.IGNORECASE)
_FIELD = re.compile(r"\b([a-z][a-z_]*)=|\"([a-z][a-z_]*)\"\s*:")
_PRONOUN_START = re.compile(r"^\W*(?:it|its|it's|it’s|this\s+one|that\s+one)\b", re.IGNORECASE)


def _named(reading: Reading, s: int, c: int) -> list[tuple[int, int, str]]:
    """The declared entities clause c names, else the one its sentence opens with when that
    opening is the name alone ("D-5487: 6 on hand, reorder point 17" is all about D-5487)."""
    by_key = reading.entities.by_key
    found = [(a, b, k) for a, b, k in reading.mentions[s][c] if k in by_key]
    pronoun = s > 0 and bool(_PRONOUN_START.match(reading.groups[s][0].text))
    if not found and c == 0 and pronoun and not any(reading.mentions[s]):
        # "auth is unhealthy: ... It is running 2.3.4 ...": the subject the sentence before
        # opens with (the first of its clauses to name a record)
        for named in reading.mentions[s - 1]:
            before = {k for _, _, k in named if k in by_key}
            if before:
                return [(0, 0, k) for k in before] if len(before) == 1 else []
        return []
    if found or c == 0:
        return found
    if any(k in by_key for i in range(1, c) for _, _, k in reading.mentions[s][i]):
        return []  # "M-4223, K-1102 (+40 each) and T-8161 (+134)": not all the opener's
    label = reading.groups[s][0].text
    lead = [(a, b, k) for a, b, k in reading.mentions[s][0] if k in by_key]
    spans = {(a, b) for a, b, _ in lead}
    if len(spans) == 1:  # the sentence opens with the name alone: "- D-5487: 6 on hand"
        a, b = next(iter(spans))
        if not re.sub(r"[\W_]+", "", label[:a] + label[b:]):
            return lead
    return []


def _list_lengths(texts: list[str]) -> str:
    """How many items each list of a record holds ("declined 3 times" for a record whose
    `attempts` list has three entries): a record states its counts by listing."""
    documents: list[Any] = []
    for text in texts:  # a document, or the JSON after a status line ("status 200 {...}")
        document = parse(text)
        if document is not None:
            documents.append(document)
        else:
            documents += [v for _, _, v in json_values(text[:200_000])]
    lengths = {len(v) for d in documents for v in nodes(d) if isinstance(v, list)}
    return " ".join(str(n) for n in sorted(lengths))


def bound_moment_problems(reading: Reading) -> list[str]:
    """A moment said of one record (to the minute) that its record does not state but another
    record does: the resolution time of the incident beside the one asked about."""
    entities = reading.entities
    if not entities.simulated:
        return []
    stated: dict[str, list[Moment]] = {}
    for key, texts in record_texts(reading):
        held = [m for t in texts for m, _, _ in moments(t[:20_000])]
        stated[key] = [m for m in held if m.hour is not None and m.minute is not None]
    if not any(stated.values()):
        return []
    for s, group in enumerate(reading.groups):
        for c, clause in enumerate(group):
            found = _named(reading, s, c)
            if len({(a, b) for a, b, _ in found}) != 1:
                continue
            keys = [k for _, _, k in found]
            own = [m for k in keys for m in stated.get(k, [])]
            if not own:
                continue
            others = [m for k, ms in stated.items() if k not in keys for m in ms]
            for said, start, end in moments(clause.text):
                if said.hour is None or said.minute is None:
                    continue
                if stance_at(clause, (start, end)) is not Stance.asserted:
                    continue
                if any(_same(said, m) for m in own) or not any(_same(said, m) for m in others):
                    continue
                name = record_name(reading, keys)
                return [
                    f"time {clause.text[start:end]!r} is said of {name}, whose record does not "
                    "state it (another record does)"
                ]
    return []


def _same(a: Moment, b: Moment) -> bool:
    """Whether two moments as written agree on every field both state, to the minute."""
    pairs = [(a.year, b.year), (a.month, b.month), (a.day, b.day), (a.hour, b.hour)]
    pairs.append((a.minute, b.minute))
    return all(x is None or y is None or x == y for x, y in pairs)


def records_about(
    reading: Reading, s: int, c: int, records: dict[str, set[str]]
) -> list[tuple[int, int, str]]:
    """The records clause c names, else those the nearest earlier clause of its sentence names
    ("3.20.1, finished …; it was triggered by p.raman" is about 3.20.1), else, in a sentence
    naming nothing declared, those of the nearest of the three sentences before it that names
    any (a list: "- Version: 2.17.4", "- Finished: …", "- Triggered by m.silva")."""
    for i in range(c, -1, -1):
        found = [(a, b, k) for a, b, k in reading.mentions[s][i] if k in records]
        if found:
            return found if i == c else [(0, 0, k) for _, _, k in found]
    if any(reading.mentions[s][i] for i in range(len(reading.mentions[s]))):
        return []
    for earlier in range(s - 1, max(-1, s - 4), -1):
        keys = [k for m in reading.mentions[earlier] for _, _, k in m if k in records]
        if keys:
            return [(0, 0, k) for k in keys]
    return []


def record_texts(reading: Reading) -> list[tuple[str, tuple[str, ...]]]:
    """(key, evidence) of every declared record that has evidence."""
    return [
        (key, tuple(e.evidence))
        for key, e in reading.entities.by_key.items()
        if _RECORD_KIND.match(e.kind) and e.evidence
    ]


def record_name(reading: Reading, keys: frozenset[str] | list[str]) -> str:
    """The shortest name of these records (one name may be served by two routes)."""
    by_key = reading.entities.by_key
    names = [n for k in keys if k in by_key for n in by_key[k].names]
    return min(names, key=len) if names else min(keys)


def strings(document: Any) -> list[str]:
    """Every string value of a parsed document, at any depth."""
    return [v for v in nodes(document) if isinstance(v, str)][:5_000]
