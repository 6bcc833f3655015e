"""A figure said of one row of a printed table that is another row's: the rows crossed.

"The best day was 2026-11-19 with 8,110.75 EUR" where the query printed `2026-11-19 |
6802.00` and `2026-11-20 | 8110.75`; "staging: …:2.15.0-rc2 (6/6 replicas ready)" where
`kubectl get deploy -o wide` printed 2/2 beside that image and 6/6 beside the other. Tool
outputs that are tables (psql's `|` columns; the header-and-rows layout of kubectl, df, ps)
give each row its cells; rows under one header are one table across outputs. A row is named
by a cell no other row of its column holds (`2026-11-19`, `staging`, `/var`, an image). A
clause (or the part of it cut at "and", "while", ";", or a clause after one that named a
single row in its sentence) that names one row and states a figure that another row holds,
and neither the named row nor any output line naming it holds, fails: the figure was read
off the neighbouring row. Figures inside dates, times and the row's own name are not
figures; numbers that name (order 99813, invoice 1207), bare digits (a step, a try: `6/6` and
`8.0G` are held), the task's required amounts and figures the clause denies or hedges are
left alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agentbench.scoring.bound_figures import NAMED_BY, segments
from agentbench.scoring.claims import Clause
from agentbench.scoring.printed import MOMENT, NUMBER, Table, tables
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at

# a figure standing as a word of its own: 8,110.75 · 96% · 8.0G · 6/6 · (x3) — not a part of a
# version (2.14.0), an image tag or a name
_FIGURE = re.compile(
    r"(?<![\w.:/@-])(\d[\d,]*(?:\.\d+)?)(?:%|[KMGTPkmgt]i?[Bb]?|/\d+)?(?![\w.:/@-]|\.\w)"
)
_JOINS = re.compile(r"[,;]?\s+(?:and|while|whereas|but|plus)\s+|;\s+", re.IGNORECASE)


def _figures(cell: str) -> set[float]:
    cell = MOMENT.sub(" ", cell)
    return {float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", cell) if n}


def _keys(table: Table) -> dict[str, int]:
    """Cells that name their row: a value with a letter (or a date), held by one row only."""
    out: dict[str, int] = {}
    for column in range(len(table.header)):
        values = [r[column] for r in table.rows]
        for index, value in enumerate(values):
            named = len(value) >= 2 and (re.search(r"[A-Za-z]", value) or MOMENT.fullmatch(value))
            if named and values.count(value) == 1 and not NUMBER.fullmatch(value):
                out[value] = index
    return out


def crossed_row_problems(reading: Reading, outputs: list[str], required: list[float]) -> list[str]:
    """Why a figure said of one printed row is another row's (module docstring; empty: none is)."""
    if not reading.entities.simulated:
        return []
    printed = [(t, _keys(t)) for t in tables(outputs)]
    every = [_pattern(k) for _, keys in printed for k in keys]  # a row of any table
    lines = [ln for o in outputs for ln in o[:200_000].splitlines()]
    for table, keys in printed:
        if not keys:
            continue
        patterns = [(_pattern(k), k) for k in keys]
        words = {c for row in table.rows for c in row if len(c) >= 3 and re.search(r"[A-Za-z]", c)}
        cells = [set().union(*(_figures(c) for c in row)) for row in table.rows]
        # what any output line naming a row says of it is its too (the PDB's `search 3 N/A 1`
        # beside the deployments' `search 4/4`)
        for pattern, key in patterns:
            cells[keys[key]] |= {f for ln in lines if pattern.search(ln) for f in _figures(ln)}
        for group in reading.groups:
            problem = _sentence_problem(group, patterns, keys, cells, required, every, words)
            if problem:
                return [problem]
    return []


def _mentions(text: str, cells: set[str]) -> bool:
    """Whether the text writes a cell of the table, one that names a row or not (`K-7695`
    of two warehouses' rows)."""
    return any(_pattern(c).search(text) for c in cells)


@lru_cache(maxsize=8192)
def _pattern(key: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w./-])" + re.escape(key) + r"(?![\w/-]|\.\w)")


def _sentence_problem(
    group: list[Clause],
    patterns: list[tuple[re.Pattern[str], str]],
    keys: dict[str, int],
    cells: list[set[float]],
    required: list[float],
    every: list[re.Pattern[str]],
    cells_text: set[str],
) -> str:
    """Why a figure of this sentence is said of the wrong row of this table ("" if none)."""
    named: set[str] = set()  # the rows (of this table) the sentence has named so far
    anywhere = 0  # the names of rows of any table it has written so far
    for clause in group:
        found = [
            (m.start(), m.end(), str(keys[k])) for p, k in patterns for m in p.finditer(clause.text)
        ]
        named |= {k for _, _, k in found}
        anywhere += sum(1 for p in every if p.search(clause.text))
        # "staging: …:2.15.0-rc2 (6/6 replicas ready)" is about the one row the sentence named,
        # not when it has named rows of other tables too ("AMS-1 has 3: … C-3310 (0/5)")
        if (
            not found
            and len(named) == 1
            and anywhere == 1
            and not _mentions(clause.text, cells_text)
        ):
            found = [(0, 0, next(iter(named)))]
        for rows, lo, hi in segments(clause.text, found):
            if len({(a, b) for a, b, _ in found}) == 1:  # "… api-7d9c8b6f5 is at 0 and the new
                lo, hi = _between_joins(clause.text, found[0][0], found[0][1], lo, hi)  # one 3/3"
            problem = _crossed(clause, (lo, hi), found, {int(r) for r in rows}, cells, required)
            if problem:
                return problem
    return ""


def _between_joins(text: str, start: int, end: int, lo: int, hi: int) -> tuple[int, int]:
    """The part of [lo, hi) around a name that no "and", "while", "but" or ";" cuts."""
    for join in _JOINS.finditer(text, lo, hi):
        if join.end() <= start:
            lo = join.end()
        elif join.start() >= end:
            return lo, join.start()
    return lo, hi


def _crossed(
    clause: Clause,
    part: tuple[int, int],
    found: list[tuple[int, int, str]],
    rows: set[int],
    cells: list[set[float]],
    required: list[float],
) -> str:
    """Why a figure in this part of the clause, said of these rows, is another row's."""
    own = set().union(*(cells[r] for r in rows))
    others = set().union(*(c for i, c in enumerate(cells) if i not in rows))
    text = MOMENT.sub(lambda m: " " * len(m.group()), clause.text)
    # the sentence before the clause: "(PR 4398, 4411, 4420)" reads as clauses of one number
    at = clause.sentence.find(clause.text)
    lead = clause.sentence[max(0, at - 40) : at] if at > 0 else ""
    for m in _FIGURE.finditer(text):
        start, raw = m.start(), float(m.group(1).replace(",", ""))
        if not part[0] <= start < part[1] or any(a <= start < b for a, b, _ in found):
            continue  # outside the part, or a digit of the row's own name (`/dev/nvme1n1`)
        if NAMED_BY.search(lead + text[:start]) or re.fullmatch(r"\d{5,}", m.group()):
            continue  # a number that names ("order 99813", "pid 1402", 45917): no figure
        if raw < 10 and m.group() == m.group(1):
            continue  # a bare digit counts steps, tries and pods as often as any row's cell
        if raw in own or raw not in others or any(abs(raw - r) < 0.005 for r in required):
            continue
        if stance_at(clause, m.span()) is not Stance.asserted:
            continue
        return f"figure {m.group()!r} is said of a printed row that does not hold it (another does)"
    return ""


@lru_cache(maxsize=8192)
def _word(word: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w./-])" + re.escape(word) + r"(?![\w/-])", re.IGNORECASE)


# a word a table cell holds as a row's attribute: a status, a type, a role (`tmpfs`, `Pending`)
_ATTRIBUTE = re.compile(r"[A-Za-z][A-Za-z-]{2,}")
# what ties a word to the row named before it: "/var is a tmpfs mount", "db-2: Leader"
_TIES = re.compile(
    r"^\s*(?:\)|\*\*|`)*\s*(?:is|was|are|were|shows?|showed|reads?|listed\s+as|reported\s+as|"
    r"as|:|—|–|-|\()\s+(?:(?:a|an|the|still|now|currently|in|on|mounted\s+as|of\s+type)\s+){0,3}$",
    re.IGNORECASE,
)


def crossed_word_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """A row named with a word of its own that another row's cell holds and its own does
    not: "/var is a tmpfs mount" where df printed `/dev/nvme1n1 … /var` and `tmpfs … /run`."""
    if not reading.entities.simulated:
        return []
    for table in tables(outputs):
        keys = _keys(table)
        header = {h.lower() for h in table.header}
        named = {k.lower() for k in keys}  # a row's name is no attribute of another
        words = [
            {
                w.lower()
                for c in row
                for w in c.split(",")  # `Ready,SchedulingDisabled` is Ready, and more
                if _ATTRIBUTE.fullmatch(w) and w.lower() not in named
            }
            for row in table.rows
        ]
        for group in reading.groups:
            for clause in group:
                problem = _crossed_word(clause, keys, words, header)
                if problem:
                    return [problem]
    return []


def _crossed_word(
    clause: Clause, keys: dict[str, int], words: list[set[str]], header: set[str]
) -> str:
    text = clause.text
    named = [(m, keys[k]) for k in keys for m in _pattern(k).finditer(text)]
    if len({r for _, r in named}) != 1:
        return ""
    row = named[0][1]
    others = set().union(*(w for i, w in enumerate(words) if i != row)) - words[row] - header
    for m, _ in named:
        for word in others:
            found = _word(word).search(text, m.end(), m.end() + 60)
            if found is None or not _TIES.match(text[m.end() : found.start()]):
                continue
            if stance_at(clause, found.span()) is Stance.asserted:
                return (
                    f"{m.group()!r} is said to be {found.group()!r}: another printed row holds "
                    "that, and its own row does not"
                )
    return ""
