"""Two figures the answer gives as one amount in two units must be that one amount.

"10w = 1680 hours (that's 100,800 seconds)": 1680 hours is 6,048,000 seconds, so the second
figure is another amount (the minutes) written as seconds. Figures of one dimension (a size, a
duration, money in one currency) joined by `=`, `≈`, a parenthesis or "that's", "i.e.", "which
is" are said to be equal ("128Mi or 256Mi" are two, and "6 × 7 days = 42 days" works out a
product); they must agree within 2% (5% when "about" or "~" hedges the second, 7.5% for sizes,
which decimal and binary units write apart: "64Mi (about 67 MB)").
"""

from __future__ import annotations

import re
from itertools import pairwise

from agentbench.scoring.cues import NEGATION
from agentbench.scoring.quantities import quantities
from agentbench.scoring.reading import Reading

_SAME = re.compile(
    r"^\s*(?:=|≈|\(|,?\s*(?:that'?s|that is|i\.e\.,?|which is|equals|=))\s*"
    r"(?:(?:that'?s|that is|i\.e\.,?|=)\s*)?"
    r"(?P<hedge>about|roughly|approx\.?|approximately|around|~|≈)?\s*$",
    re.IGNORECASE,
)
# the left figure is an operand ("6 × 7 days = 42 days", "pg_wal 313G + base 178G = 491G"),
# not the amount restated
_OPERAND = re.compile(r"(?:[×x*+\-−–/÷]|\s[×x*+\-−–/÷]\s+(?:[\w./-]+\s+){1,2})\s*$")
# what follows a parenthesised figure and makes it another field: "64Mi (32Mi requested)"
_LABELLED = re.compile(r"^[ \t]*[A-Za-z][\w-]*[^)\n]*\)")
# what makes the right figure a gap, not the amount restated: "5898Mi, i.e. 2240Mi short"
_GAP = re.compile(
    r"^\W{0,3}(?:\([^)]*\)\s*)?(?:short|below|under|over|above|more|less|fewer|left|remaining"
    r"|too\s+(?:much|many|few|little)|behind|ahead|apart|off|of\s+headroom|headroom|missing)\b",
    re.IGNORECASE,
)
_LOOSE = 0.05
_STRICT = 0.02
_BYTES = 0.075  # decimal and binary units: 1 GB is 0.93 GiB, a `kB` of /proc/meminfo is a KiB


def equivalence_problems(reading: Reading) -> list[str]:
    """Why two figures the answer equates are different amounts (empty: none are)."""
    for group in reading.groups:
        sentence = next((c.sentence for c in group if c.sentence), "")
        if not sentence or NEGATION.search(sentence):
            continue  # "not 30 s but 30 ms": a correction, not an equation
        found = sorted(
            (q for q in quantities(sentence[:20_000]) if q.dimension is not None),
            key=lambda q: q.start,
        )
        for left, right in pairwise(found):
            if left.dimension != right.dimension or right.start < left.end:
                continue
            between = _SAME.match(sentence[left.end : right.start])
            if between is None or _OPERAND.search(sentence[: left.start]):
                continue
            rest = sentence[right.end :]
            if _GAP.match(rest):
                continue  # "a threshold of 5898Mi, i.e. 2240Mi short": the gap to another
            if "(" in between.group() and _LABELLED.match(rest):
                continue  # "capped at 64Mi (32Mi requested)": a second field, glossed
            slack = _LOOSE if between.group("hedge") or "≈" in between.group() else _STRICT
            slack = max(slack, _BYTES) if left.dimension == "bytes" else slack
            if abs(left.value - right.value) <= slack * max(abs(left.value), abs(right.value)):
                continue
            return [
                f"figures {sentence[left.start : left.end]!r} and "
                f"{sentence[right.start : right.end]!r} are given as one amount, but differ"
            ]
    return []

