"""A line number said of a token that the environment puts on another line.

"line 7 of the Corefile has `forwad`" where the log reads `Corefile:11 - Error during
parsing: Unknown directive 'forwad'` and the ConfigMap's line 7 is the kubernetes plugin: the
right token, the wrong line. In an answer's clause that states a line number (`line 7`,
`L7`, `line #7`) and quotes a token (in backticks or quotes), the token's lines are those the
environment gives it: a line reference on an output line that holds it (`Corefile:11`, `in
line 11`, grep's `11:` or cat's `    11\t`), and the lines of declared files that hold it. The
clause fails when some quoted token has such lines and the stated number is none of them
for any of its tokens, nor a line any output refers to (nginx points at the line after the
one that lacks its `;`). A line the sentence denies or hedges is not stated.

A source file named with a line ("handlers.py line 41", "db.py:41", "line 88 of handlers.py")
is a frame of a traceback or a log's `file:line`: when the outputs place that file (not one the
environment declares) at lines and never at this one, the line is another frame's.
"""

from __future__ import annotations

import re

from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at

_SAID = re.compile(r"\b(?:line\s*#?\s*|L)(\d{1,6})\b(?!\.\d)", re.IGNORECASE)
_QUOTED = re.compile(r"`([^`\n]{2,80})`|'([^'\n]{2,80})'|\"([^\"\n]{2,80})\"")
_REFERENCES = (
    re.compile(r"[\w.-]:(\d{1,6})\b(?![:.]\d)"),  # Corefile:11, nginx.conf:31
    re.compile(r"\bline\s+(\d{1,6})\b", re.IGNORECASE),  # in line 11
    re.compile(r"^\s*(\d{1,6})(?::|\t|\s{2,})"),  # grep -n's 11:, cat -n's     11\t
)


def _token_lines(token: str, texts: list[str], files: list[str]) -> set[int]:
    lines: set[int] = set()
    for text in texts:
        for line in text[:200_000].splitlines():
            if token in line:
                for reference in _REFERENCES:
                    lines |= {int(n) for n in reference.findall(line)}
    for content in files:
        for number, line in enumerate(content[:200_000].splitlines(), start=1):
            if token in line:
                lines.add(number)
    return lines


def _referenced(texts: list[str]) -> set[int]:
    return {
        int(n)
        for text in texts
        for line in text[:200_000].splitlines()
        for reference in _REFERENCES[:2]
        for n in reference.findall(line)
    }


_SOURCE = r"([\w.-]+\.(?:py|go|java|js|ts|rb|php|cs|kt|scala|rs|c|cc|cpp|h|sh|pl|lua|ex|exs))"
_FRAME_SAID = (
    re.compile(_SOURCE + r"`?(?:\"?,?\s+(?:on\s+|at\s+)?line\s+|:)(\d{1,6})\b", re.IGNORECASE),
    re.compile(r"\bline\s+(\d{1,6})\s+(?:of|in)\s+`?(?:[\w./-]*/)?" + _SOURCE, re.IGNORECASE),
)
_FRAME_PRINTED = re.compile(
    r"(?:[\w./-]*/)?" + _SOURCE + r"\"?(?:,\s+line\s+|:)(\d{1,6})\b", re.IGNORECASE
)


def frame_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """A source file given a line the outputs never put it at, where they put it at others."""
    printed: dict[str, set[int]] = {}
    for text in outputs:
        for m in _FRAME_PRINTED.finditer(text[:200_000]):
            printed.setdefault(m.group(1).lower(), set()).add(int(m.group(2)))
    if not printed:
        return []
    declared = {
        n.rsplit("/", 1)[-1].lower()
        for e in reading.entities.by_key.values()
        if e.kind == "file"
        for n in e.names
    }
    for group in reading.groups:
        for clause in group:
            for pattern in _FRAME_SAID:
                for m in pattern.finditer(clause.text):
                    name, number = (m.group(1), m.group(2)) if m.re is _FRAME_SAID[0] else (
                        m.group(2),
                        m.group(1),
                    )
                    lines = printed.get(name.lower())
                    if not lines or name.lower() in declared or int(number) in lines:
                        continue
                    if stance_at(clause, m.span()) is not Stance.asserted:
                        continue
                    shown = ", ".join(str(n) for n in sorted(lines)[:5])
                    return [f"gives {name} line {number}; the outputs put it at line {shown}"]
    return []


def line_number_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """Why a line number the answer gives a quoted token is not one of its lines (empty:
    every one is)."""
    entities = reading.entities
    if not entities.simulated:
        return []
    files = [t for e in entities.by_key.values() if e.kind == "file" for t in e.evidence]
    referenced = _referenced(outputs)
    for group in reading.groups:
        for clause in group:
            tokens = {next(g for g in m.groups() if g) for m in _QUOTED.finditer(clause.text)}
            placed = {t: _token_lines(t.strip(), outputs, files) for t in tokens if t.strip()}
            placed = {t: lines for t, lines in placed.items() if lines}
            if not placed:
                continue
            # a line some output names, whatever it holds: nginx reports the `}` after the
            # line that lacks its `;` ("nginx -t points at line 32; the `;` is missing on 31")
            every = set().union(*placed.values(), referenced)
            for m in _SAID.finditer(clause.text):
                number = int(m.group(1))
                if number in every or stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                token, lines = next(iter(sorted(placed.items())))
                shown = ", ".join(str(n) for n in sorted(lines)[:5])
                return [f"gives line {number} for `{token}`, which the environment puts on {shown}"]
    return []
