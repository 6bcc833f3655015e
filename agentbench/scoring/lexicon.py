"""The suite's one vocabulary of causes, states and conditions (agentbench/data/lexicon.yaml).

An entry is stated in a clause when one of its wordings (whole words, case-insensitive, any run
of spaces, `-` or `_` between words) or patterns matches there; a task may add wordings of its
own to an entry it refers to. An entry's `evidence` patterns say what in the declared
environment supports it: asserting the entry of an entity whose environment matches none of
them is an unsupported claim, and an entry's `absent` kinds say what it denies exists ("the
ConfigMap X is missing" of a ConfigMap the cluster declares is false). The corpus
tests/scoring/corpus/paraphrases.yaml holds, for each entry, paraphrases that must match and
near-misses that must not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import yaml

from agentbench.scoring.patterns import TaskPattern, task_pattern

LEXICON_FILE = Path(__file__).resolve().parents[1] / "data" / "lexicon.yaml"
KINDS = ("cause", "state", "condition", "component", "event")


@lru_cache(maxsize=8192)
def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A phrase as a whole-word, case-insensitive pattern; `a b` also matches `a-b`, `a_b`."""
    words = [re.escape(w) for w in re.split(r"[\s\-_]+", phrase.strip()) if w]
    body = r"[\s\-_]+".join(words)
    start = r"(?<![\w-])" if re.match(r"\w", phrase.strip()) else ""
    end = r"(?![\w])" if re.search(r"\w$", phrase.strip()) else ""
    return re.compile(start + body + end, re.IGNORECASE)


def regex(pattern: str) -> TaskPattern:
    """A lexicon or task pattern, case-insensitive, matched on the bounded engine."""
    return task_pattern(pattern)


@lru_cache(maxsize=8192)
def evidence_regex(pattern: str) -> re.Pattern[str]:
    """An evidence pattern whose ends are literal digits, anchored on number boundaries: `504`
    is evidence in `status 504` but not inside the order id `50467` or the figure `1504`."""
    start = r"(?<![\d.])" if re.match(r"\d", pattern) else ""
    end = r"(?![\d])" if re.search(r"(?<!\\)\d$", pattern) else ""
    return re.compile(start + pattern + end, re.IGNORECASE)


# a field the evidence names whose value says it is not so: `"restarts": 0`, `"ready": null`
_NULLISH = re.compile(
    r"""["']?\s*[:=]\s*(?:0(?![\d.])|false\b|null\b|none\b|\[\]|\{\}|""|'')""",
    re.IGNORECASE,
)


def _word_end(text: str, at: int) -> int:
    """Where the word a match ends inside ends (`restart` in `"restarts": 0`)."""
    while at < len(text) and (text[at].isalnum() or text[at] == "_"):
        at += 1
    return at


@dataclass(frozen=True)
class Entry:
    """One lexicon entry (or a task's extension of one)."""

    id: str
    kind: str
    wordings: tuple[str, ...]
    patterns: tuple[str, ...]
    evidence: tuple[str, ...]
    absent: tuple[str, ...] = ()  # entity kinds the entry says do not exist ("configmap")
    own: tuple[str, ...] = ()  # kinds whose own record alone is evidence (a node's Ready)

    def span(self, text: str) -> tuple[int, int] | None:
        """The first place the text states the entry (longest wording first), else None."""
        best: tuple[int, int] | None = None
        for wording in self.wordings:
            found = phrase_pattern(wording).search(text)
            if found and (best is None or found.start() < best[0]):
                best = found.span()
        for pattern in self.patterns:
            found = regex(pattern).search(text)
            if found and (best is None or found.start() < best[0]):
                best = found.span()
        return best

    def supported_by(self, text: str) -> bool:
        """Whether the environment text holds evidence for the entry (True without evidence
        patterns: such an entry is never held against the environment)."""
        if not self.evidence:
            return True
        return any(
            not _NULLISH.match(text, _word_end(text, m.end()))
            for p in self.evidence
            for m in evidence_regex(p).finditer(text)
        )

    def extended(self, wordings: list[str], patterns: list[str]) -> Entry:
        """The entry with a task's own wordings added."""
        if not wordings and not patterns:
            return self
        return Entry(
            self.id,
            self.kind,
            (*self.wordings, *wordings),
            (*self.patterns, *patterns),
            self.evidence,
            self.absent,
            self.own,
        )


class LexiconError(ValueError):
    """The lexicon file is malformed (names the entry and what is wrong)."""


def _entry(key: str, body: object) -> Entry:
    if not isinstance(body, dict):
        raise LexiconError(f"lexicon entry {key!r}: expected a mapping")
    unknown = set(body) - {"kind", "wordings", "patterns", "evidence", "absent", "own"}
    if unknown:
        raise LexiconError(f"lexicon entry {key!r}: unknown field(s) {sorted(unknown)}")
    kind = body.get("kind")
    if kind not in KINDS:
        raise LexiconError(f"lexicon entry {key!r}: kind must be one of {', '.join(KINDS)}")
    lists = {}
    for name in ("wordings", "patterns", "evidence", "absent", "own"):
        value = body.get(name) or []
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise LexiconError(f"lexicon entry {key!r}: {name} must be a list of strings")
        lists[name] = tuple(value)
    for pattern in (*lists["patterns"], *lists["evidence"]):
        try:
            re.compile(pattern)
        except re.error as exc:
            raise LexiconError(f"lexicon entry {key!r}: pattern {pattern!r}: {exc}") from exc
    if not lists["wordings"] and not lists["patterns"]:
        raise LexiconError(f"lexicon entry {key!r}: needs wordings or patterns")
    fields = ("wordings", "patterns", "evidence", "absent", "own")
    return Entry(key, kind, *(lists[n] for n in fields))


@cache
def lexicon(path: Path = LEXICON_FILE) -> dict[str, Entry]:
    """Every entry by id (loaded once)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise LexiconError(f"{path}: expected a mapping of entry id -> entry")
    return {str(key): _entry(str(key), body) for key, body in data.items()}


def entry(entry_id: str) -> Entry:
    """One entry; KeyError naming the known ids when there is none."""
    entries = lexicon()
    if entry_id not in entries:
        raise KeyError(f"no lexicon entry {entry_id!r} (known: {', '.join(sorted(entries))})")
    return entries[entry_id]


def causes() -> list[Entry]:
    """The entries held against the environment when an answer asserts them unprompted."""
    return [e for e in lexicon().values() if e.evidence]
