"""Figures in answer text, compared as numbers.

48,213.40 = 48213.4 = $48,213.40; a unit converts within its dimension (512Mi = 0.5Gi,
1500 ms = 1.5 s); identifiers (`replica-3`, `E10231`, `v1.2`), dates (2026-03-27) and times of
day (10:32) are not figures.
"""

from __future__ import annotations

import re

from agentbench.tasks.expectations import Claim

# Units by dimension, each with its factor to the dimension's base unit.
_UNIT_FACTORS: dict[str, tuple[str, float]] = {
    "%": ("percent", 1.0),
    "percent": ("percent", 1.0),
    "b": ("bytes", 1.0),
    "bytes": ("bytes", 1.0),
    "kb": ("bytes", 1e3),
    "mb": ("bytes", 1e6),
    "gb": ("bytes", 1e9),
    "tb": ("bytes", 1e12),
    "kib": ("bytes", 2.0**10),
    "ki": ("bytes", 2.0**10),
    "mib": ("bytes", 2.0**20),
    "mi": ("bytes", 2.0**20),
    "gib": ("bytes", 2.0**30),
    "gi": ("bytes", 2.0**30),
    "tib": ("bytes", 2.0**40),
    "ti": ("bytes", 2.0**40),
    "ms": ("seconds", 1e-3),
    "milliseconds": ("seconds", 1e-3),
    "s": ("seconds", 1.0),
    "sec": ("seconds", 1.0),
    "secs": ("seconds", 1.0),
    "seconds": ("seconds", 1.0),
    "min": ("seconds", 60.0),
    "mins": ("seconds", 60.0),
    "minutes": ("seconds", 60.0),
    "h": ("seconds", 3600.0),
    "hours": ("seconds", 3600.0),
    "d": ("seconds", 86400.0),
    "days": ("seconds", 86400.0),
    "$": ("usd", 1.0),
    "usd": ("usd", 1.0),
    "dollars": ("usd", 1.0),
    "eur": ("eur", 1.0),
    "€": ("eur", 1.0),
    "euros": ("eur", 1.0),
}
_UNIT_WORDS = sorted((u for u in _UNIT_FACTORS if u not in ("$", "€")), key=len, reverse=True)
_NUMBER = re.compile(
    r"(?<![\w.\-/:#])(?P<cur>[$€]\s?)?(?P<num>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?"
    r"(?![\d,]\d)(?!-\d)(?!\.\d)(?!:\d)"
    r"(?:\s?(?P<unit>" + "|".join(re.escape(u) for u in _UNIT_WORDS) + r")(?![\w]))?"
    r"(?![\w\-])",
    re.IGNORECASE,
)


def numbers(text: str) -> list[tuple[float, str | None]]:
    """(value, unit key or None) for every figure in the text (identifiers and dates skipped)."""
    out: list[tuple[float, str | None]] = []
    for match in _NUMBER.finditer(text):
        value = float(match.group("num").replace(",", "") + (match.group("frac") or ""))
        unit = match.group("unit") or (match.group("cur") or "").strip() or None
        out.append((value, unit.lower() if unit else None))
    return out


def number_matches(claim: Claim, text: str) -> bool:
    """Whether a figure in the text equals the claim's number (within tolerance, by unit)."""
    if claim.number is None:
        return False
    want = _UNIT_FACTORS.get(claim.unit.lower()) if claim.unit else None
    for value, unit in numbers(text):
        if unit is not None and want is not None:
            have = _UNIT_FACTORS[unit]
            if have[0] != want[0]:
                continue
            value = value * have[1] / want[1]
        if abs(value - claim.number) <= claim.tolerance + 1e-9 * max(1.0, abs(claim.number)):
            return True
    return False


def derivation_operand(
    value: float, figures: list[tuple[float, int]], results: list[float]
) -> bool:
    """Whether `value` is an operand of a derivation worked out before its result: it and
    another figure, both written before the result in the same sentence, give the result by
    adding one to or taking one from the other ("67 on hand and 33 reserved, which leaves 34":
    67 and 33 are the working, 34 the answer). `figures` are (value, position) pairs; a figure
    stated first and "explained" afterwards ("we can sell 243 (217 available, 26 reserved)") is
    no working."""

    def close(a: float, b: float) -> bool:
        return abs(a - b) <= 0.005 * max(1.0, abs(b))

    for result in results:
        at = [p for v, p in figures if close(v, result)]
        if not at:
            continue
        before = [v for v, p in figures if p < at[0]]
        if not any(close(v, value) for v in before):
            continue
        for other in before:
            if close(other, value) or close(other, result):
                continue
            if any(close(c, result) for c in (value - other, other - value, value + other)):
                return True
    return False


_TERM = r"\d[\d,]*(?:\.\d+)?"
_EQUATION = re.compile(
    rf"(?<![\w.])(?P<left>{_TERM}(?:\s*[+\-−–*×x/÷]\s*{_TERM})+)\s*(?:=|equals)\s*[*_]{{0,2}}(?P<right>{_TERM})"
    r"(?![\d.]\d)",
    re.IGNORECASE,
)
# the result first: "exit code 143 is 128 + 15", "exit 137 (128 + 9 = SIGKILL)", "`137` (128 + 9)"
_EQUATION_BACK = re.compile(
    rf"(?<![\w.])(?P<right>{_TERM})[`*_]{{0,2}}\s*(?:=|is|equals|means|\()\s*(?P<left>{_TERM}(?:\s*[+\-−–*×x/÷]\s*{_TERM})+)"
    r"(?![\d.]\d)",
    re.IGNORECASE,
)
# arithmetic in words, two terms: "6 primaries plus 6 replicas account for exactly 12 shards",
# "67 on hand minus 33 reserved leaves 34"
_VERBAL = re.compile(
    rf"(?<![\w.])(?P<a>{_TERM})(?:\s+[a-z]+){{0,3}}\s+(?P<op>plus|minus|less|times)\s+"
    rf"(?P<b>{_TERM})(?:\s+[a-z]+){{0,3}}?\s+(?:would\s+|will\s+|together\s+)?"
    r"(?:accounts?\s+for|add\s+up\s+to|adds\s+up\s+to|makes?|totals?|comes?\s+to|sums?\s+to"
    r"|gives?|leaves?|equals?|is|are)\s+(?:exactly\s+|a\s+total\s+of\s+|all\s+)?"
    rf"(?P<right>{_TERM})(?![\d.]\d)",
    re.IGNORECASE,
)
_OPERATION = re.compile(rf"([+\-−–*×x/÷])\s*({_TERM})", re.IGNORECASE)


def equations(text: str) -> list[tuple[list[float], float]]:
    """(operands, result) of the arithmetic the text writes out and gets right ("17 + 68 + 22
    = 107", "107 − 49 = 58"), evaluated left to right; a wrong sum is no equation."""
    out: list[tuple[list[float], float]] = []
    found = [*_EQUATION.finditer(text[:20_000]), *_EQUATION_BACK.finditer(text[:20_000])]
    for m in found:
        left = m.group("left")
        first = re.match(_TERM, left)
        assert first is not None
        value = float(first.group().replace(",", ""))
        terms = [value]
        for op, term in _OPERATION.findall(left[first.end() :]):
            operand = float(term.replace(",", ""))
            terms.append(operand)
            if op == "+":
                value += operand
            elif op in "-−–":
                value -= operand
            elif op in "*×xX":
                value *= operand
            elif operand:
                value /= operand
        result = float(m.group("right").replace(",", ""))
        if abs(value - result) <= 0.005 * max(1.0, abs(result)):
            out.append((terms, result))
    for m in _VERBAL.finditer(text[:20_000]):
        a, b = (float(m.group(g).replace(",", "")) for g in ("a", "b"))
        result = float(m.group("right").replace(",", ""))
        op = m.group("op").lower()
        value = a + b if op == "plus" else a * b if op == "times" else a - b
        if abs(value - result) <= 0.005 * max(1.0, abs(result)):
            out.append(([a, b], result))
    return out


def worked_results(text: str) -> set[float]:
    """The results of the text's right arithmetic: a figure worked from others before the
    reader's eyes, not one taken from nowhere."""
    return {result for _, result in equations(text)}


def worked_figures(text: str) -> set[float]:
    """Every figure of the text's right arithmetic, operands and results: the working."""
    return {v for terms, result in equations(text) for v in (*terms, result)}
