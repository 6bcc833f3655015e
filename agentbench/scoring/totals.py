"""Totals read off the data: a column summed over the records a tool printed is a figure the
data states, not one the answer invents (the 102 on hand of three warehouses)."""

from __future__ import annotations

import re

from agentbench.jsontext import json_values
from agentbench.scoring.structured import nodes


def column_sums(texts: list[str]) -> set[float]:
    """The total of each numeric field over the records of a JSON list the texts print (the
    102 on hand of three warehouses' `on_hand`): a figure read off the data, not invented."""
    sums: set[float] = set()
    for _, _, document in (j for t in texts for j in json_values(t[:200_000])):
        for value in nodes(document):
            if isinstance(value, list) and len(sums) < 2_000:
                rows = [r for r in value if isinstance(r, dict)]
                for key in {k for r in rows for k in r}:
                    cells = [r[key] for r in rows if _numeric(r.get(key))]
                    if len(cells) >= 2:
                        sums.add(round(float(sum(cells)), 2))
    for text in texts:
        sums |= _table_sums(text[:200_000])
    return sums


_CELL_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


def _table_sums(text: str) -> set[float]:
    """The total of each numeric column of a table printed as text (psql's `a | b` rows, or
    whitespace-aligned columns): 1187 + 31 + 18 = 1236 current subscriptions."""
    sums: set[float] = set()
    block: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        cells = [c.strip() for c in line.split("|")] if "|" in line else line.split()
        if len(cells) >= 2 and any(_CELL_NUMBER.match(c) for c in cells):
            if block and len(block[0]) != len(cells):
                block = []
            block.append(cells)
            continue
        if len(block) >= 2:
            for column in zip(*block, strict=False):
                numbers = [float(c) for c in column if _CELL_NUMBER.match(c)]
                if len(numbers) >= 2 and len(numbers) == len(column):
                    sums.add(round(sum(numbers), 2))
        block = []
    return sums


def _numeric(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
