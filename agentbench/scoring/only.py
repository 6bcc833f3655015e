"""Uniqueness the environment denies: "INC-2291 is the only incident marked resolved" where
INC-2279 and INC-2288 are resolved too.

A clause that calls one declared table row "the only" (or "the sole", "only one") thing with a
quality its own record holds (a cell value, an identifier it lists) is false when another
record of the same kind holds every such quality too. Qualities are the words of the phrase
after "only" that the record's own evidence holds as words; a phrase none of whose words the
record holds ("the only one I checked") is the agent's own scope and is left alone.
"""

from __future__ import annotations

import re

from agentbench.scoring.reading import Reading, show_key
from agentbench.scoring.stance import Stance, stance_at

_ONLY = re.compile(
    r"\b(?:the\s+only|the\s+sole|the\s+one\s+and\s+only|only\s+one)\b(?P<tail>[^.;:!?\n]{0,80})",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[a-z][\w-]{3,}")
_NEGATION = re.compile(r"\b(?:not|no|never|without|none|nothing)\b|n't\b", re.IGNORECASE)


def _shown(key: str) -> str:
    return key.rsplit(":", 1)[-1] if key.startswith("row:") else show_key(key)


def _holds(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def uniqueness_problems(reading: Reading) -> list[str]:
    """Why a record called the only one of its kind with a quality is not (empty: none is)."""
    entities = reading.entities
    if not entities.simulated:
        return []
    for s, group in enumerate(reading.groups):
        for c, clause in enumerate(group):
            for m in _ONLY.finditer(clause.text):
                if stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                records: dict[str, str] = {}  # one record's names share its evidence
                for k in sorted(reading.bind(s, c, m.span())):
                    text = "\n".join(entities.by_key[k].evidence) if k in entities.by_key else ""
                    if text.strip():
                        records.setdefault(text, k)
                keys = list(records.values())
                if len(keys) != 1 or not keys[0].startswith("row:"):
                    continue  # a table's rows: one record per row, each with its own values
                if _NEGATION.search(m.group("tail")):
                    continue  # "the only container not running": a quality by its absence
                record = entities.by_key[keys[0]]
                own = "\n".join(record.evidence).lower()
                names = {n.lower() for n in record.names}
                words = {
                    w
                    for w in _TOKEN.findall(m.group("tail").lower())
                    if w not in names and _holds(own, w)
                }
                if not words:
                    continue
                family = reading.family(keys[0])
                for key, other in entities.by_key.items():
                    if other.kind != record.kind or key in family or not other.evidence:
                        continue
                    theirs = "\n".join(other.evidence).lower()
                    if all(_holds(theirs, w) for w in words):
                        return [
                            f"calls {_shown(keys[0])} the only one {m.group('tail').strip()!r}"
                            f", but {_shown(key)} is too"
                        ]
    return []
