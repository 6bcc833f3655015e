"""A thing a log line says of one numbered sibling, said of another.

Hosts, nodes and replicas come in numbered families: es-data-1, es-data-2, es-data-3. When a
sentence names one member (es-data-2) together with words a tool output printed
(`circuit_breaking_exception`, `products-v14`), and the output lines holding those words name
another member of the family (es-data-1) while no line naming the member said holds any of
them, the sentence has moved the event to a sibling: "returned as 429 by es-data-2" where
every 429 line names es-data-1. Members the environment declares are held by the entity
checks too; this check reads the members only from what the outputs printed.
"""

from __future__ import annotations

import re

from agentbench.scoring.cues import NEGATION
from agentbench.scoring.reading import Reading

_MEMBER = re.compile(r"(?<![\w.-])([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*)-(\d{1,3})(?![\w.-]*\w)")
# words distinctive enough to tie a sentence to an output line: snake_case, dotted or
# versioned names, exception names (no plain English word, no bare number)
_WORD = re.compile(
    r"(?<![\w.-])(?=[\w.-]*[a-z])"
    r"(?:[a-z]+_[\w.]+|[a-z][\w-]*-v\d+|[A-Z]\w+Exception)(?![\w-])"
)
# a figure tied to a member beside it on a line: a percentage or a size with its unit
_FIGURE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:\s?%|(?:[KMGT]i?B?|[kMGT]B)\b)")
# words that turn from the member to others before a figure: "es-data-1 at 97%, the others 61%"
_TURN = re.compile(r"\b(?:other|others|rest|remaining|while|whereas|but|versus|vs|compared)\b|[;(]")
_MAX_LINES = 20_000


def sibling_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """Why a sentence says of one numbered sibling what the outputs print of another (module
    docstring; empty: none does)."""
    lines = [line for out in outputs for line in out.splitlines() if line.strip()][:_MAX_LINES]
    if not lines:
        return []
    printed = "\n".join(lines)
    for s in range(len(reading.groups)):
        sentence = reading.sentence(s)
        if NEGATION.search(sentence):
            continue  # "es-data-2 is not the one": a member ruled out
        members = {m.group() for m in _MEMBER.finditer(sentence) if m.group() in printed}
        words = {w for w in _WORD.findall(sentence) if w in printed}
        if len(members) == 1:
            moved = _figure_owner(next(iter(members)), sentence, lines)
            if moved:
                return [moved]
        if len(members) != 1 or not words:
            continue
        (member,) = members
        stem = member.rsplit("-", 1)[0]
        words = {w for w in words if stem not in w}
        own = [line for line in lines if _names(line, member)]
        if not own or any(w in line for line in own for w in words):
            continue
        for line in lines:
            if not any(w in line for w in words):
                continue
            other = next(
                (
                    m.group()
                    for m in _MEMBER.finditer(line)
                    if m.group(1) == stem and m.group() != member
                ),
                None,
            )
            if other:
                return [
                    f"says of {member} what the outputs print of {other} "
                    f"({', '.join(sorted(words))[:60]})"
                ]
    return []


def _figure_owner(member: str, sentence: str, lines: list[str]) -> str:
    """A figure the sentence gives the member (named just before it, nothing that turns to
    others between) that every output line gives, beside its own name, to a sibling:
    "es-data-1=97%, es-data-2=61%" read as "es-data-2, whose heap is at 97%"."""
    stem = member.rsplit("-", 1)[0]
    for m in _FIGURE.finditer(sentence):
        before = sentence[max(0, m.start() - 60) : m.start()]
        named = [x for x in _MEMBER.finditer(before)]
        if not named or named[-1].group() != member or _TURN.search(before[named[-1].end() :]):
            continue
        figure = m.group()
        pattern = re.compile(r"(?<![\w.])" + re.escape(figure).replace(r"\ ", r"\s?"))
        owners = {
            owner
            for line in lines
            for x in pattern.finditer(line)
            if (owner := _owner(line, x.start())) is not None
        }
        if owners and member not in owners and {o.rsplit("-", 1)[0] for o in owners} == {stem}:
            return f"says of {member} what the outputs print of {min(owners)} ({figure})"
    return ""


def _owner(line: str, at: int) -> str | None:
    """The member named right before position `at` of the line ("es-data-1=97%"), nothing
    but a separator or a short label between (no comma: that starts another pair)."""
    before = line[max(0, at - 24) : at]
    found = [m for m in _MEMBER.finditer(before)]
    if not found or re.search(r"[,;|]", before[found[-1].end() :]):
        return None
    return found[-1].group()


def _names(line: str, member: str) -> bool:
    return any(m.group() == member for m in _MEMBER.finditer(line))
