"""A figure said of a name is the one the outputs print on that name's line.

`du -sh` prints "178G  .../main/base" and "313G  .../main/pg_wal"; an answer that says "`base`
is 313G and `pg_wal` 178G" has swapped them, though both figures and both names were read.
Listings like du, df, `kubectl top`, `ls -l` and `ps` print one thing a line with its figures in
columns. In an answer's sentence, a figure with a unit (a size, a duration, a percentage) and the
name written just before it (no other figure between) are a pair; the pair fails when some
output line holds the name with another figure of that dimension, no output line holds the
name beside this figure, and the lines that print this figure put, in the name's column,
another name. Names read only as a path's last part (`base` for `.../main/base`) count.
"""

from __future__ import annotations

import re

from agentbench.scoring.quantities import Quantity, quantities
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance

_NAME = re.compile(r"`?([A-Za-z_][\w.@-]*(?:/[\w.-]+)*)`?")
_GAP = 48  # characters between a name and its figure
_MAX_LINES = 5_000


def _dimension(q: Quantity, text: str) -> str | None:
    """The figure's kind: a size, a duration, a percentage, or a count of two digits or more
    (a row's `14` in a psql table); None for what pairs nothing (a one-digit number)."""
    if q.dimension in ("bytes", "seconds"):
        return q.dimension
    if text[q.end : q.end + 1] == "%" or text[q.start : q.end].endswith("%"):
        return "percent"
    if q.dimension is None and q.raw >= 10 and q.raw == int(q.raw) and not 1900 <= q.raw <= 2100:
        return "count"
    return None


def _close(a: Quantity, b: Quantity) -> bool:
    return abs(a.value - b.value) <= 0.05 * max(abs(a.value), abs(b.value)) + 1e-9


def _cells(line: str) -> list[str]:
    """The line's whitespace columns, a path cell also known by its last part."""
    return line.split()


def _holds(cells: list[str], name: str) -> int | None:
    """The column of the line that is the name, or a path ending in it (None: none is)."""
    for i, cell in enumerate(cells):
        if cell == name or cell.rsplit("/", 1)[-1] == name or cell.rstrip(":,") == name:
            return i
    return None


def pair_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """A figure the answer pairs with a name where the outputs print it on another's line."""
    rows = []
    for index, text in enumerate(outputs):
        for line in text[:200_000].splitlines()[:_MAX_LINES]:
            figures = [(q, _dimension(q, line)) for q in quantities(line)]
            figures = [(q, d) for q, d in figures if d]
            if figures:
                rows.append((_cells(line), figures, index))
    if not rows:
        return []
    for s in range(len(reading.groups)):
        text = reading.sentence(s)
        for q in quantities(text):
            dimension = _dimension(q, text)
            if dimension is None:
                continue
            before = text[max(0, q.start - _GAP) : q.start]
            if any(_dimension(x, before) for x in quantities(before)):
                continue  # another figure between: the name is that one's
            names = [m.group(1) for m in _NAME.finditer(before)]
            name = next((n for n in reversed(names) if _listed(rows, n, dimension)), None)
            said = text[q.start : q.end].strip()
            if name is None or reading.stance_of(s, said) is not Stance.asserted:
                continue
            moved = _moved(rows, name, q, dimension)
            if moved:
                return [f"gives {name} {said!r}, which the outputs print on {moved}'s line"]
    return []


def _listed(rows: list, name: str, dimension: str) -> bool:
    """Whether some output line holds the name beside a figure of this dimension."""
    return any(
        _holds(cells, name) is not None and any(d == dimension for _, d in figures)
        for cells, figures, _ in rows
    )


def _moved(rows: list, name: str, said: Quantity, dimension: str) -> str:
    """The name whose line of the same listing prints the figure, in the column where the
    name's own line has the name, when no line of the name prints it ("" when the pair holds
    or nothing says)."""
    own = [(cells, figures, at) for cells, figures, at in rows if _holds(cells, name) is not None]
    if any(_close(said, q) for _, figures, _ in own for q, d in figures if d == dimension):
        return ""
    cells0, _, listing = own[0]
    column = _holds(cells0, name)
    for cells, figures, at in rows:
        if at != listing or not any(_close(said, q) and d == dimension for q, d in figures):
            continue
        if column is not None and column < len(cells) and len(cells) == len(cells0):
            other = cells[column].rsplit("/", 1)[-1]
            if re.search(r"[A-Za-z]", other) and other != name.rsplit("/", 1)[-1]:
                return other
    return ""
