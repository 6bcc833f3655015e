"""What a SQL read *meant*, so that two queries that read the same rows are one read.

A read's identity is `("sql", "cols:N", column..., row...)`: its N column names, then its rows
(cells joined by U+001F) sorted, so `ORDER BY` and row order never matter. Two single-statement
reads are the same read when they return the same number of rows and, over the columns one of
them shows, the other shows columns with the same values row for row: `SELECT sku FROM
inventory WHERE …` and `SELECT sku, warehouse, qty FROM inventory WHERE … ORDER BY sku` read the
same three rows. Columns are paired by their values, not their names, so an alias (`sku AS
item`) or an expression that computes the same figure (`count(*)` and `count(id) AS n`) pairs
too. A different filter reads other rows (or another count) and is another read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from agentbench.sim.core.base import Identity

SEP = "\x1f"


def read_identity(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> Identity:
    """The identity of one read: its columns and its rows' cells as printed."""
    return ("sql", f"cols:{len(columns)}", *columns, *sorted(SEP.join(r) for r in rows))


def _table(identity: Identity) -> list[tuple[str, ...]] | None:
    """The rows of a single-statement read's identity; None for anything else."""
    if len(identity) < 2 or identity[0] != "sql" or not identity[1].startswith("cols:"):
        return None
    if ";" in identity:  # several statements (psql -c "…; …"): compared as a whole
        return None
    n = len(_columns(identity))
    rows = [tuple(r.split(SEP)) if n > 1 else (r,) for r in identity[2 + n :]]
    return rows if all(len(r) == n for r in rows) else None


def _columns(identity: Identity) -> tuple[str, ...]:
    return identity[2 : 2 + int(identity[1][5:])]


def _pairs(small: list[list[str]], large: list[list[str]]) -> list[list[int]]:
    """For each column of `small`, the columns of `large` holding the same values."""
    large_sorted = [sorted(other) for other in large]
    options = []
    for column in small:
        values = sorted(column)
        options.append([j for j, other in enumerate(large_sorted) if other == values])
    return options


def _assign(options: list[list[int]], used: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every injective choice of one option per column (few columns: plain backtracking)."""
    if len(used) == len(options):
        return [used]
    found: list[tuple[int, ...]] = []
    for j in options[len(used)]:
        if j not in used:
            found += _assign(options, (*used, j))
    return found


def same_read(a: Identity, b: Identity) -> bool | None:
    """Whether two SQL reads read the same rows; None when either is not a single read."""
    ta, tb = _table(a), _table(b)
    if ta is None or tb is None:
        return None
    if len(ta) != len(tb):
        return False
    if not ta:  # no rows to compare: the same columns by name
        return sorted(map(str.lower, _columns(a))) == sorted(map(str.lower, _columns(b)))
    small, large = (ta, tb) if len(ta[0]) <= len(tb[0]) else (tb, ta)
    cols_small = [list(c) for c in zip(*small, strict=True)]
    cols_large = [list(c) for c in zip(*large, strict=True)]
    options = _pairs(cols_small, cols_large)
    if any(not o for o in options):
        return False
    want = Counter(small)
    return any(
        Counter(tuple(row[j] for j in chosen) for row in large) == want
        for chosen in _assign(options)
    )


def identities_match(call: Identity | None, expected: Identity | None) -> bool:
    """A call means what a pattern means: the same identity, or the same SQL read."""
    if call is None or expected is None:
        return False
    if call == expected:
        return True
    return bool(same_read(call, expected))
