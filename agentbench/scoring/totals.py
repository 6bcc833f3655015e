"""Figures worked from the data: a column summed over the records a tool printed is a figure
the data states, not one the answer invents (the 102 on hand of three warehouses); a product
or quotient of figures read, and a rate over the days or hours of a period, are worked too."""

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


# a rate over a period's calendar units: "≈ €6,887.63 per day" for a week's 48,213.40
_RATE = re.compile(
    r"\b(?:per|a|an|each|every)\s+(?:day|hour|week|minute|month)\b|\b(?:daily|hourly)\b"
    r"|/\s?(?:day|d|hour|h|week|wk|min)\b",
    re.IGNORECASE,
)
_CALENDAR = (7.0, 24.0, 60.0, 28.0, 30.0, 31.0, 168.0, 365.0)


def product_or_quotient(said: str, value: float, shown: list[float], clause: str) -> bool:
    """Whether the figure is the product or quotient of two figures the answer gives, each one
    read (`shown`), to the precision it is written in ("48,213.40 over 28 orders ... an
    average of 1,721.91"; "4 replicas x 64 MiB = 256 MiB"), or, in a clause of a rate, a read
    figure over a period's days, hours or minutes. A figure of fewer than three significant
    digits is left out: too many pairs give it by chance."""
    number = re.sub(r"[^\d.]", "", said).strip(".")
    if len(number.replace(".", "").lstrip("0")) < 3:
        return False
    decimals = len(number.split(".", 1)[1]) if "." in number else 0
    slack = 0.5 * 10**-decimals + 1e-9
    divisors = [*shown, *(_CALENDAR if _RATE.search(clause) else ())]
    for a in shown:
        for b in divisors:
            if a is b or a == value or b == value:
                continue
            if abs(a * b - value) <= slack or (b and abs(a / b - value) <= slack):
                return True
    return False
