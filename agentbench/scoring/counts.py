"""Counts of things the answer asserts, held against the fields the tool outputs keyed by that
noun: "8 nodes", "12 unassigned shards", "2 of the 8 nodes" must agree with `number_of_nodes:
6`, `unassigned_shards=12` when the outputs printed any (one of their values, or the sum or
difference of two). A count qualified by a word no field holds ("3 workload pods") counts a
subset those fields do not, and is left alone.
"""

from __future__ import annotations

import re
from itertools import combinations

from agentbench.scoring.claims import Clause
from agentbench.scoring.printed import tables
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at
from agentbench.tasks.expectations import Fact

_COUNTED = re.compile(
    r"(?<![\w.,:/-])(?P<n>\d+)\s+(?:of\s+(?:(?:the|its|all|their)\s+)?(?P<total>\d+)\s+)?"
    r"(?:(?:of\s+)?(?:them|these|those)\s+(?:are\s+|being\s+)?)?"  # "all 6 of them data nodes"
    r"(?:(?P<adj>[a-z]+)\s+)?(?P<noun>[a-z]{3,}s)\b",
    re.IGNORECASE,
)
_NOT_THINGS = frozenset(
    ("times", "seconds", "minutes", "hours", "days", "weeks", "months", "years", "millis")
)
_KEYED = re.compile(r'"?(?P<key>[A-Za-z_][\w.-]*)"?\s*[:=]\s*"?(?P<value>\d+(?:\.\d+)?)\b')


# what a node can hold is no count of what it holds: `kubectl describe node`'s `pods: 110`
_CAPACITY = re.compile(r"^(?:Capacity|Allocatable):[^\n]*\n(?:[ \t]+[^\n]*(?:\n|$))*", re.MULTILINE)


def _keyed_values(outputs: list[str]) -> dict[str, set[float]]:
    keyed: dict[str, set[float]] = {}
    for text in outputs:
        for m in _KEYED.finditer(_CAPACITY.sub("", text[:200_000])):
            keyed.setdefault(m.group("key").lower(), set()).add(float(m.group("value")))
    # a table's column named in two words or more keys its cells too: `ALLOWED DISRUPTIONS`
    for table in tables(outputs, least=1, aligned=True):
        for column, name in enumerate(table.header):
            words = [w for w in re.split(r"[\s_]+", name.strip().lower()) if w]
            if len(words) < 2:
                continue
            cells = {r[column] for r in table.rows if re.fullmatch(r"\d+(?:\.\d+)?", r[column])}
            if cells:
                keyed.setdefault("_".join(words), set()).update(float(c) for c in cells)
    return keyed


def _names_noun(key: str, stem: str) -> bool:
    """Whether a field's name (lower-cased) holds the counted noun as a word of its own, or
    ends with it (`pods`, `ready_replicas`, `readyreplicas`; not `podcidr` for pods)."""
    for word in re.split(r"[_.\-]+", key):
        if word in (stem, stem + "s", stem + "es"):
            return True
        if word.endswith((stem + "s", stem)) and len(word) > len(stem) + 1:
            return True
    return False


def field_count(text: str, start: int, value: float, outputs: list[str]) -> bool:
    """Whether the figure at `start` counts a noun ("12 unassigned shards") that a field of the
    outputs keyed by it holds with this value (`unassigned_shards: 12`): the field's count."""
    m = _COUNTED.match(text, start)
    if m is None or m.group("total"):
        return False
    stem, adj = m.group("noun").lower()[:-1], (m.group("adj") or "").lower()
    keyed = _keyed_values(outputs)
    keys = [k for k in keyed if _names_noun(k, stem) and (not adj or adj in k)]
    return any(value in keyed[k] for k in keys)


def count_problems(reading: Reading, facts: list[Fact], outputs: list[str]) -> list[str]:
    """Counts of things the answer asserts that the tool outputs' fields for that noun deny."""
    if not reading.entities.simulated:
        return []
    keyed = _keyed_values(outputs)
    if not keyed:
        return []
    required = {f.amount.value for f in facts if f.amount is not None}
    for group in reading.groups:
        for clause in group:
            for m in _COUNTED.finditer(clause.text):
                if stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                if m.group("noun").lower() in _NOT_THINGS:
                    continue  # "failed 13 times", "lasted 8 seconds": how often, how long
                stem = m.group("noun").lower()[:-1]
                keys = [k for k in keyed if _names_noun(k, stem)]
                adj = (m.group("adj") or "").lower()
                if adj:  # "3 workload pods": a subset; only a field that names it counts it
                    keys = [k for k in keys if adj in k]
                if not keys:
                    continue
                said = float(m.group("total") or m.group("n"))
                if said in required:
                    continue
                values = {v for k in keys for v in keyed[k]}
                # a sum or difference of two fields, not a field counted twice: 3 data nodes
                # are not "6 data nodes"
                items = [(k, v) for k in keys for v in keyed[k]]
                pairs = [(a, b) for (ka, a), (kb, b) in combinations(items, 2) if ka != kb]
                allowed = values | {a + b for a, b in pairs} | {abs(a - b) for a, b in pairs}
                if said not in allowed:
                    return [
                        f"count {m.group().strip()!r} disagrees with what the tool output's "
                        f"{', '.join(sorted(keys)[:3])} say"
                    ]
    return []


# how often something shows up: "the same error shows up 5 times", "logged 3 times"
_TIMES_SEEN = re.compile(
    r"\b(?:shows?\s+up|showed\s+up|appears?|appeared|occurs?|occurred|logged|seen|repeated|"
    r"recurs?|fires?|fired)\s+(?:\w+\s+){0,2}?(?P<n>\d+)\s+times\b"
    r"|\b(?P<m>\d+)\s+(?:times|occurrences)\s+(?:\w+\s+){0,3}?(?:in|across|over)\s+the\s+(?:last\s+)?",
    re.IGNORECASE,
)
# what is counted: an exception or error class ("SocketTimeoutException")
_COUNTED_TOKEN = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Exception|Error)\b")
_REPEATS = re.compile(r"\(x(\d+) over\b")  # an event kubectl printed once for many


def occurrence_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """How often the answer says a named error shows up ("SocketTimeoutException ... 5 times")
    against the lines of what was read that hold it: their count in one output, or in all."""
    for group in reading.groups:
        sentence = " ".join(c.text for c in group)
        if not _COUNTED_TOKEN.search(sentence):
            continue
        for c, clause in enumerate(group):
            for m in _TIMES_SEEN.finditer(clause.text):
                if stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                said = int(m.group("n") or m.group("m"))
                for token in _counted(group, c, m.start()):
                    counts = [_lines_with(o, token) for o in outputs]
                    if not any(counts):
                        continue
                    allowed = {c for c in counts if c} | {sum(counts)}
                    if said not in allowed:
                        return [
                            f"says {token!r} shows up {said} times; what was read holds it "
                            f"{' or '.join(str(n) for n in sorted(allowed))} times"
                        ]
                    break
    return []


def _counted(group: list[Clause], c: int, at: int) -> list[str]:
    """What a count in clause c (at `at`) counts: the error classes of its own clause, else
    of the nearest clause before it that names one, or the quoted message that stands nearer
    ("stuck in `CreateContainerConfigError` … (`secret … not found`, repeated 12 times)"), else
    of the first clause after it that names one."""
    tail = [m.group() for m in _COUNTED_TOKEN.finditer(group[c].text)]
    if tail:
        return tail
    quoted = list(_QUOTED.finditer(group[c].text[:at]))
    if quoted:
        return [_inside(quoted[-1])]
    for clause in reversed(group[:c]):
        found = [m.group() for m in _COUNTED_TOKEN.finditer(clause.text)]
        if found:
            return found
        quoted = list(_QUOTED.finditer(clause.text))
        if quoted:
            return [_inside(quoted[-1])]
    # "… shows up 5 times: SocketTimeoutException"
    return next((found for x in group[c + 1 :] if (found := _COUNTED_TOKEN.findall(x.text))), [])


_QUOTED = re.compile(r"`([^`]+)`|\"([^\"]+)\"")


def _inside(quote: re.Match[str]) -> str:
    return quote.group(1) or quote.group(2)


def _lines_with(output: str, token: str) -> int:
    total = 0
    for line in output[:400_000].splitlines():
        if token in line:
            repeats = _REPEATS.search(line)
            total += int(repeats.group(1)) if repeats else 1
    return total


# a container's restarts as the outputs print them: describe's `Restart Count: 7`, the RESTARTS
# column of `kubectl get pods` ("7 (2m ago)"), the JSON field `restartCount`
_RESTART_FIELD = re.compile(r"\b(?:Restart\s+Count:|\"?restartCount\"?\s*:)\s*(\d+)", re.I)
_RESTARTS_SAID = re.compile(
    r"\brestart(?:ed|ing)?\s+(?P<a>\d+)\s+times\b"
    r"|(?<![\w.:/-])(?P<b>\d+)\s+(?:container\s+)?restarts\b"
    r"|\brestart\s*(?:count|s)\b\s*(?:of|is|was|=|:|at)?\s*(?P<c>\d+)\b(?![.:/]\d)",
    re.IGNORECASE,
)
_ROUGHLY = re.compile(
    r"(?:over|more\s+than|about|around|~|nearly|almost|at\s+least|roughly|some|>|≈)\s*$", re.I
)


def _printed_restarts(outputs: list[str]) -> set[int]:
    counts: set[int] = set()
    for text in outputs:
        text = text[:200_000]
        counts |= {int(n) for n in _RESTART_FIELD.findall(text)}
        column = -1
        for line in text.splitlines():
            if re.match(r"(?:NAMESPACE\s+)?NAME\s", line) and "RESTARTS" in line:
                column = line.index("RESTARTS")
                continue
            if column >= 0 and len(line) > column:
                cell = re.match(r"\s*(\d+)\b", line[column:])
                if cell and (column == 0 or line[column - 1] == " "):
                    counts.add(int(cell.group(1)))
    return counts


def restart_count_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """A container's restart count the answer states ("restarted 31 times") that none of the
    counts the outputs print for restarts is, nor a sum of two of them: another figure (the
    BackOff events' x31) read as restarts."""
    printed = _printed_restarts(outputs)
    if not printed:
        return []
    allowed = printed | {a + b for a in printed for b in printed} | {sum(printed)}
    for group in reading.groups:
        sentence = " ".join(c.text for c in group)  # "Restart count: 8" spans two clauses
        starts = [sum(len(c.text) + 1 for c in group[:i]) for i in range(len(group))]
        plain = sentence.replace("*", " ")  # "restarted **31 times**": emphasis, same offsets
        for m in _RESTARTS_SAID.finditer(plain):
            said = int(m.group("a") or m.group("b") or m.group("c"))
            if said in allowed or _ROUGHLY.search(plain[: m.start()]):
                continue
            at = max(i for i, start in enumerate(starts) if start <= m.end() - 1)
            clause, lo = group[at], starts[at]
            span = (max(0, m.start() - lo), m.end() - lo)
            if stance_at(clause, span) is not Stance.asserted:
                continue
            shown = ", ".join(str(n) for n in sorted(printed)[:6])
            said_as = sentence[m.start() : m.end()].strip()
            return [f"says {said_as!r}; the restart counts read are {shown}"]
    return []


_N_TIMES = re.compile(r"(?<![\w.])(?P<n>\d+)\s+times\b", re.IGNORECASE)
_EVENT_LINE = re.compile(r"\(x(\d+) over\b[^\n]*")
_EVENT_WORD = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]*)+\b")  # NotFound, ImagePullBackOff


def event_repeat_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """A repeat count of one event given to another: "the registry answered NotFound 86 times"
    where kubectl's events print the NotFound pull failure (x4 over 23m) and the back-off
    error (x86 over 23m) on separate lines."""
    lines = [
        (int(m.group(1)), m.group()) for o in outputs for m in _EVENT_LINE.finditer(o[:400_000])
    ]
    if not lines:
        return []
    for group in reading.groups:
        for clause in group:
            words = set(_EVENT_WORD.findall(clause.text))
            for m in _N_TIMES.finditer(clause.text):
                said = int(m.group("n"))
                if not words or stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                theirs = [line for n, line in lines if n == said]
                named = [(n, line) for n, line in lines if any(w in line for w in words)]
                if theirs and named and not any(w in line for w in words for line in theirs):
                    counts = ", ".join(sorted({f"x{n}" for n, _ in named}))
                    return [
                        f"gives {', '.join(sorted(words))} {said} repeats, but the events print "
                        f"it {counts}; x{said} is another event's"
                    ]
    return []
