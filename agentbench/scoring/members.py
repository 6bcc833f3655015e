"""What a list in the answer may hold: a fact's `members`.

A listing is a sentence that asserts one of the members (or the fact's own predicate), or a run
of consecutive short items each naming an entity (a bulleted list of pods, one per line, with
the lead-in line before it): it must not assert another declared entity of the members' kind
(an evicted pod among those that remain, the right count with a neighbour's ids).
"""

from __future__ import annotations

import re

from agentbench.scoring.cues import NEGATION
from agentbench.scoring.reading import (
    COUNT_SUBJECT,
    Clause,
    Reading,
    SpanFn,
    asides_after,
    parenthetical,
    show_key,
    table_row,
    tail_phrase,
)
from agentbench.scoring.stance import Stance, stance_at
from agentbench.tasks.expectations import Fact

_WORD = re.compile(r"[A-Za-z]{2,}")
_ITEM_WORDS = 4  # an item is a name with at most this many words of its own


def member_problems(fact: Fact, reading: Reading, find: SpanFn | None) -> list[str]:
    """Why a listing in the answer names an entity that is not a member (empty: none does)."""
    keys = [reading.key_of(m) for m in fact.members]
    families = set().union(*(reading.family(k) for k in keys))
    kinds = {reading.entities.by_key[k].kind for k in keys if k in reading.entities.by_key}
    for run in _listings(reading, kinds):
        parts = [(s, part) for s in run for part in _parts(reading, s, families, find)]
        if not any(_lists(reading, s, part, families, find) for s, part in parts):
            continue
        for s, part in parts:
            if len(run) == 1 and not _lists(reading, s, part, families, find):
                continue  # "3 failed (...), 4 succeeded and 1 (dep-7360) was cancelled"
            if _row_set_apart(reading.groups[s]):
                continue  # "| s-b4d912 | 2026-12-04 | no (still valid) |": the row says no
            for c in part:
                clause = reading.groups[s][c]
                for a, b, k in reading.mentions[s][c]:
                    entity = reading.entities.by_key.get(k)
                    if (
                        entity is not None
                        and entity.kind in kinds
                        and k not in families
                        and stance_at(clause, (a, b)) is Stance.asserted
                        and not NEGATION.search(clause.text[b:])
                    ):  # "s-b4d912 and s-c7e305 haven't expired yet": set apart, not listed
                        return [f"list {fact.label()!r} also names {show_key(k)}"]
    return []


# a table cell that answers the table's question for its row in the negative
_NO_CELL = re.compile(
    r"^\s*(?:no|n|keep|kept|stays?|retained|skip(?:ped)?|excluded|not\s+(?:deleted|included|listed))"
    r"\s*$",
    re.IGNORECASE,
)


def _row_set_apart(group: list[Clause]) -> bool:
    """Whether the sentence is a markdown table row with a cell saying no for its row."""
    return table_row(group) and any(_NO_CELL.match(c.text) for c in group)


def _lists(
    reading: Reading, s: int, part: list[int], families: set[str], find: SpanFn | None
) -> bool:
    for c in part:
        clause = reading.groups[s][c]
        for a, b, k in reading.mentions[s][c]:
            if k in families and stance_at(clause, (a, b)) is Stance.asserted:
                return True
        span = find(clause.text) if find else None
        if span is not None and stance_at(clause, span) is Stance.asserted:
            return True
    return False


def _parts(reading: Reading, s: int, families: set[str], find: SpanFn | None) -> list[list[int]]:
    """The clauses of sentence s cut where a clause opens on a count of its own ("..., 4
    succeeded and 1 (dep-7360) was cancelled"); parentheses after a clause whose statement
    runs on into a phrase of its own ("the 3 failures were followed by a redeploy (dep-70f1)")
    name that phrase and are left out."""
    group = reading.groups[s]
    parts: list[list[int]] = [[]]
    skip: set[int] = set()
    for c, clause in enumerate(group):
        if c and not parenthetical(clause) and COUNT_SUBJECT.match(clause.text):
            parts.append([])
        if c in skip:
            continue
        parts[-1].append(c)
        span = find(clause.text) if find else None
        named = any(k in families for _, _, k in reading.mentions[s][c])
        if span is not None and not named and tail_phrase(clause.text, span):
            skip.update(asides_after(group, c))
    return [p for p in parts if p]


def _listings(reading: Reading, kinds: set[str]) -> list[list[int]]:
    """Each sentence alone, and each run of list items (with the sentence before the run)."""
    runs: list[list[int]] = [[s] for s in range(len(reading.groups))]
    run: list[int] = []
    for s in range(len(reading.groups)):
        if _item(reading, s, kinds):
            run = run or ([s - 1] if s > 0 else [])
            run.append(s)
            continue
        if len(run) > 1:
            runs.append(run)
        run = []
    if len(run) > 1:
        runs.append(run)
    return runs


def _item(reading: Reading, s: int, kinds: set[str]) -> bool:
    """A sentence that is one name of the members' kind and little else."""
    named = [
        (a, b)
        for m in reading.mentions[s]
        for a, b, k in m
        if k in reading.entities.by_key and reading.entities.by_key[k].kind in kinds
    ]
    if len(named) != 1:
        return False
    text = " ".join(c.text for c in reading.groups[s])
    return len(_WORD.findall(text)) <= _ITEM_WORDS + len(_WORD.findall(text[slice(*named[0])]))
