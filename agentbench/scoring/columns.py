"""A table the answer draws whose cell holds another column's value of the same printed row:
the columns swapped.

`| B-2207 | 12 | 11 |` under `| SKU | On hand | Reorder point |`, where the query printed
`B-2207 | 11 | 12` under `sku | qty_on_hand | reorder_point`. An answer column is matched to
the one printed column whose header holds all its words (`On hand` → `qty_on_hand`, `Lag (MB)`
→ `Lag in MB`; a unit in parentheses and words like "the" or "qty" left out); an answer row to
the printed row one of its cells names (a value only that row holds). A cell whose figure is
not its column's value in that row but is another column's value there fails. Cells that
match no column, hold no single figure, or round the printed value are left alone, and so is
a derived column (a shortfall, a percentage) that matches no printed header.
"""

from __future__ import annotations

import re

from agentbench.scoring.printed import Table, tables

_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
_SEPARATOR = re.compile(r"^\s*\|?[\s:|-]*-{3,}[\s:|-]*\|?\s*$")
_WORD = re.compile(r"[a-z0-9]+")
_FILLER = {"the", "of", "a", "an", "in", "qty", "quantity", "no", "num", "number", "value"}
_FIGURE = re.compile(r"^[^\d-]{0,3}(-?\d[\d,]*(?:\.\d+)?)\s*[A-Za-z%]{0,3}$")


def _words(header: str) -> set[str]:
    header = re.sub(r"\([^)]*\)", " ", header.lower().replace("_", " "))
    return {w for w in _WORD.findall(header) if w not in _FILLER}


def _answer_tables(answer: str) -> list[tuple[list[str], list[list[str]]]]:
    """The markdown tables of the answer: (header cells, rows of cells)."""
    out: list[tuple[list[str], list[list[str]]]] = []
    lines = answer[:20_000].splitlines()
    i = 0
    while i < len(lines) - 1:
        head = _ROW.match(lines[i])
        if not head or not _SEPARATOR.match(lines[i + 1]):
            i += 1
            continue
        header = [c.strip(" *`") for c in head.group(1).split("|")]
        rows: list[list[str]] = []
        i += 2
        while i < len(lines) and (row := _ROW.match(lines[i])):
            cells = [c.strip(" *`") for c in row.group(1).split("|")]
            if len(cells) == len(header):
                rows.append(cells)
            i += 1
        out.append((header, rows))
    return out


def _column_map(header: list[str], table: Table) -> dict[int, int]:
    """Answer column → the one printed column whose header holds all its words."""
    printed = [_words(h) for h in table.header]
    out: dict[int, int] = {}
    for index, name in enumerate(header):
        words = _words(name)
        if not words:
            continue
        fits = [c for c, have in enumerate(printed) if have and words <= have]
        if len(fits) == 1:
            out[index] = fits[0]
    return out


def _number(cell: str) -> float | None:
    m = _FIGURE.match(cell.strip())
    return float(m.group(1).replace(",", "")) if m else None


def _rounds_to(shown: float, printed: float, cell: str) -> bool:
    """Whether the cell shows the printed value (at the cell's own precision)."""
    decimals = len(cell.split(".")[1].rstrip("%GMKBi ")) if "." in cell else 0
    return abs(round(printed, decimals) - shown) < 10 ** (-decimals) / 2 + 1e-9


def swapped_column_problems(answer: str, outputs: list[str]) -> list[str]:
    """Why a cell of the answer's table holds another column's value (module docstring)."""
    drawn = _answer_tables(answer)
    if not drawn:
        return []
    for table in tables(outputs):
        names = _row_names(table)
        for header, rows in drawn:
            columns = _column_map(header, table)
            if len(columns) < 2:
                continue
            for cells in rows:
                at = [names[c] for c in cells if c in names]
                if len(set(at)) != 1:
                    continue
                printed = table.rows[at[0]]
                for index, column in columns.items():
                    shown = _number(cells[index])
                    own = _number(printed[column])
                    if shown is None or own is None or _rounds_to(shown, own, cells[index]):
                        continue
                    others = [
                        c for c, v in enumerate(printed) if c != column and _number(v) == shown
                    ]
                    if others:
                        return [
                            f"table cell {cells[index]!r} under {header[index]!r} is the row's "
                            f"{table.header[others[0]]!r} ({printed[column]!r} is its "
                            f"{table.header[column]!r})"
                        ]
    return []


def _row_names(table: Table) -> dict[str, int]:
    """Cells with a letter that only one row holds: what names that row."""
    out: dict[str, int] = {}
    for column in range(len(table.header)):
        values = [r[column] for r in table.rows]
        for index, value in enumerate(values):
            if re.search(r"[A-Za-z]", value) and values.count(value) == 1:
                out[value] = index
    return out
