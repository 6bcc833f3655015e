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
from typing import Any

from agentbench.scoring.claims import Stance, stance_at
from agentbench.scoring.figures import LABEL, Stated
from agentbench.scoring.numbers import worked_figures
from agentbench.scoring.quantities import quantities
from agentbench.scoring.reading import Reading
from agentbench.scoring.structured import parse
from agentbench.tasks.expectations import Fact

# a number that names a thing rather than measures it: "order 88412", "invoice 1207"
_NAMED_BY = re.compile(
    r"\b(?:orders?|invoices?|tickets?|customers?|users?|accounts?|jobs?|builds?|runs?|prs?"
    r"|issues?|incidents?|cases?|requests?|transactions?|payments?|deploys?|releases?)\W{0,3}$",
    re.IGNORECASE,
)
# a date or clock time is no figure of the record: 2026-11-26 08:12 holds neither 11 nor 6
_MOMENT = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?"
    r"|\b\d{1,2}:\d{2}(?::\d{2})?\b"
)
_FOREIGN = re.compile(r"^row:[\w.]+\.\w+_id$")  # a row named by a column that refers elsewhere
# entity kinds whose evidence is one record of a structured document, or one declared row
_RECORD_KIND = re.compile(r"^(?:row:|record|id:)")


def bound_figure_problems(reading: Reading, facts: list[Fact]) -> list[str]:
    """Why a figure said of one record is not that record's (empty: every one is)."""
    entities = reading.entities
    if not entities.simulated:
        return []
    required = [f.amount.value for f in facts if f.amount is not None]
    cache: dict[frozenset[str], Stated | None] = {}
    for s, group in enumerate(reading.groups):
        for c, clause in enumerate(group):
            found = _named(reading, s, c)
            if len({(a, b) for a, b, _ in found}) != 1:
                continue  # none, or two entities named: whose figure it is is unclear
            keys = frozenset(k for _, _, k in found)  # one name, served by two routes
            records = [entities.by_key[k] for k in sorted(keys)]
            if not all(_RECORD_KIND.match(e.kind) and e.evidence for e in records):
                continue
            if any(e.kind.startswith("row:") and len(e.evidence) > 1 for e in records):
                continue  # a value many rows share (the warehouse of twelve SKUs): no one record
            if any(_FOREIGN.search(e.kind) for e in records):
                continue  # a payment id in an order row: the payment's own facts are elsewhere
            if keys not in cache:
                texts = [_MOMENT.sub(" ", t) for e in records for t in e.evidence]
                own = Stated([*texts, _list_lengths(texts)], loose=False)
                cache[keys] = own if own.raws else None
            own_figures = cache[keys]
            if own_figures is None:
                continue
            for q in quantities(clause.text):
                if q.dimension is not None or not clause.text[q.start : q.end][:1].isdigit():
                    continue  # a unit, or a word ("once", "none") rather than a figure
                if stance_at(clause, (q.start, q.end)) is not Stance.asserted:
                    continue
                before = clause.text[: q.start]
                if (
                    LABEL.search(before)
                    or _NAMED_BY.search(before)
                    or any(abs(q.raw - r) < 0.005 for r in required)
                    or q.raw in worked_figures(clause.sentence or clause.text)
                ):
                    continue
                if not own_figures.plain(q.raw):
                    names = [n for e in records for n in e.names] or sorted(keys)
                    name = min(names, key=len)
                    said = clause.text[q.start : q.end]
                    return [f"figure {said!r} is said of {name}, whose record does not state it"]
    return []


def _named(reading: Reading, s: int, c: int) -> list[tuple[int, int, str]]:
    """The declared entities clause c names, else the one its sentence opens with when that
    opening is the name alone ("D-5487: 6 on hand, reorder point 17" is all about D-5487)."""
    by_key = reading.entities.by_key
    found = [(a, b, k) for a, b, k in reading.mentions[s][c] if k in by_key]
    if found or c == 0:
        return found
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
    lengths: set[int] = set()
    stack: list[Any] = [parse(t) for t in texts]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            lengths.add(len(node))
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
    return " ".join(str(n) for n in sorted(lengths))
