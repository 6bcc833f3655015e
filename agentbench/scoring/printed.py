"""The tables a tool printed: psql's `|` columns and the header-and-rows layout of kubectl, df
and ps, read into rows of cells (rows under one header joined across outputs, one row per
object), and kubectl's aligned tables whose column names hold a space, read by offset.

It reads outputs only, and imports nothing of the scorer: the checks that hold an answer to a
printed table (`scoring.tables`, `scoring.columns`, `scoring.counts`) build on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
# a date or clock time is no figure of the record: 2026-11-26 08:12 holds neither 11 nor 6
MOMENT = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?"
    r"|\b\d{1,2}:\d{2}(?::\d{2})?\b"
)
_AGE = re.compile(r"(?:\d+[smhdy])+")
_SEPARATOR = re.compile(r"^[\s+|-]*-{3,}[\s+|-]*$")
_MAX_ROWS = 400


@dataclass
class Table:
    header: tuple[str, ...]
    rows: list[tuple[str, ...]]


def _split(line: str, piped: bool) -> list[str]:
    return [c.strip() for c in line.split("|")] if piped else line.split()


def _fits(header: list[str], cells: list[str], piped: bool) -> bool:
    """Whether a line's cells fill the header's columns (df's `Mounted on` is two words)."""
    return len(cells) == len(header) or (not piped and len(header) == len(cells) + 1)


def tables(outputs: list[str], least: int = 2, aligned: bool = False) -> list[Table]:
    """The tables the outputs print (of `least` rows or more), the rows under one header
    joined across outputs. `aligned`: also kubectl's tables whose column names hold a space,
    read by offset (their free-text cells, an event's message, name no row reliably)."""
    found: dict[tuple[str, ...], Table] = {}
    for text in outputs:
        lines = [ln for ln in text[:200_000].splitlines() if ln.strip()]
        i = 0
        while i < len(lines) - 1:
            piped = " | " in lines[i] or lines[i].strip().endswith("|")
            by_offset = None if piped or not aligned else _aligned(lines, i)
            if by_offset is not None:  # kubectl's `MIN AVAILABLE   ALLOWED DISRUPTIONS`
                named, lined, i = by_offset
                table = found.setdefault(named, Table(named, []))
                table.rows += [r for r in lined if r not in table.rows]
                continue
            header = _split(lines[i], piped)
            j = i + 1 + bool(_SEPARATOR.match(lines[i + 1]))
            rows: list[tuple[str, ...]] = []
            while j < len(lines) and len(rows) < _MAX_ROWS:
                cells = _split(lines[j], piped)
                if not _fits(header, cells, piped):
                    break
                rows.append(tuple(cells))
                j += 1
            width = len(rows[0]) if rows else 0
            key = (*header[: width - 1], " ".join(header[width - 1 :]))  # df's `Mounted on`
            if len(header) < 2 or not rows or not _looks_like_header(list(key), piped):
                i += 1
                continue
            table = found.setdefault(key, Table(key, []))
            table.rows += [r for r in rows if len(r) == width and r not in table.rows]
            i = j
    return [_merged(t) for t in found.values() if len(t.rows) >= least]


_COLUMN = re.compile(r"(?:^|(?<=\s\s))\S")


def _aligned(
    lines: list[str], i: int
) -> tuple[tuple[str, ...], list[tuple[str, ...]], int] | None:
    """A header whose column names hold a space (kubectl's `LAST SEEN`, `MIN AVAILABLE`),
    its columns at the offsets where each name starts, and the rows whose cells start there:
    (header, rows, the index after them); None when the header names no such column."""
    head = lines[i].rstrip()
    names = tuple(re.split(r"\s{2,}", head.strip()))
    if len(names) < 2 or not any(" " in n for n in names) or not _looks_like_header(
        list(names), False
    ):
        return None
    starts = [m.start() for m in _COLUMN.finditer(head)]
    if len(starts) != len(names):
        return None
    rows: list[tuple[str, ...]] = []
    j = i + 1
    while j < len(lines) and len(rows) < _MAX_ROWS:
        line = lines[j]
        if len(line) <= starts[-1] or any(
            line[a].isspace() or (a and not line[a - 1].isspace()) for a in starts
        ):
            break
        bounds = [*starts[1:], len(line)]
        rows.append(tuple(line[a:b].strip() for a, b in zip(starts, bounds, strict=True)))
        j += 1
    return (names, rows, j) if rows else None


def _merged(table: Table) -> Table:
    """One row per object: rows that agree on every cell that identifies (its name, image,
    status words, a date; not `3/3` or an age like `120d`) are the one object printed at
    several times (`api` at 2/3, then 3/3), and hold all of its values."""
    by_object: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for row in table.rows:
        identity = tuple(c for c in row if _identifying(c))
        by_object.setdefault(identity, []).append(row)
    rows = [
        tuple(" ".join(dict.fromkeys(r[c] for r in group)) for c in range(len(table.header)))
        for group in by_object.values()
    ]
    return Table(table.header, rows)


def _identifying(cell: str) -> bool:
    """Whether a cell tells objects apart (a name, a status, a date) rather than measures
    one (`3/3`, `8.0G`, `96%`, an age)."""
    if MOMENT.fullmatch(cell):
        return True
    measure = re.fullmatch(r"[\d.,/%:+-]*(?:[KMGTPE]i?B?|[kmgt]b?|ms)?", cell)
    return not measure and not _AGE.fullmatch(cell)


def _looks_like_header(header: list[str], piped: bool) -> bool:
    """A header names its columns: no figures in it, and (unless piped) capitals or `%`."""
    if any(NUMBER.fullmatch(h.replace("%", "")) for h in header if h):
        return False
    return piped or all(h.isupper() or h[:1].isupper() or "%" in h for h in header if h)
