"""The figure an answer puts forward as its result, held to the required amount.

An answer that shows the right figure in passing (a table row, a breakdown) but sets another
one in bold as its result has answered with the other one: "completed 48,213.40 | refunded
1,923.15 … revenue for the week was **€50,136.55**". Where the task requires an amount in a
unit (EUR, GiB, seconds …), every figure of that dimension the answer emphasises (`**…**`,
`__…__`) must be a required amount, within its tolerance; a rate or a share beside it ("≈
**€6,887.63** per day", "an average of **€1,721.91**") is another quantity, not the result.
"""

from __future__ import annotations

import re

from agentbench.scoring.claims import clause_span
from agentbench.scoring.quantities import quantities, unit_base
from agentbench.tasks.expectations import Fact

_BOLD = re.compile(r"\*\*([^*\n]{1,120})\*\*|__([^_\n]{1,120})__")
# what makes an emphasised figure another quantity than the result: a rate, a mean, a share,
# a part, a difference, or one named as not counted
_OTHER = re.compile(
    r"\b(?:per|each|every|a\s+day|an?\s+hour|daily|hourly|weekly|average|avg|mean|median|"
    r"rate|share|ratio|of\s+which|including|incl|excluding|excl|without|minus|less|plus|"
    r"difference|delta|change|up|down|more|fewer|higher|lower|not\s+counted|excluded|"
    r"instead|rather|wrong|incorrect|naive|would)\b|[/%±]|\bvs\.?\b",
    re.IGNORECASE,
)


def headline_problems(answer: str, facts: list[Fact]) -> list[str]:
    """Why a figure the answer emphasises as its result is not the required amount (module
    docstring; empty: none)."""
    wanted: dict[str, list[tuple[float, float]]] = {}
    for fact in facts:
        amount = fact.amount
        if amount is None or amount.unit is None:
            continue
        try:
            dimension, factor = unit_base(amount.unit)
        except KeyError:
            continue
        slack = amount.tolerance * factor + 1e-9 * max(1.0, abs(amount.value * factor))
        wanted.setdefault(dimension, []).append((amount.value * factor, slack))
    if not wanted:
        return []
    text = answer[:16_000]
    for m in _BOLD.finditer(text):
        inner = m.group(1) or m.group(2) or ""
        line_start = text.rfind("\n", 0, m.start()) + 1
        lo, hi = clause_span(text, m.start(), m.end())
        if text[line_start:].lstrip().startswith("|") or _OTHER.search(text[lo:hi]):
            continue  # a table row, or a rate, a share or a part beside the figure
        for q in quantities(inner):
            targets = wanted.get(q.dimension or "")
            if not targets or any(abs(q.value - v) <= slack for v, slack in targets):
                continue
            return [
                f"the answer puts {inner.strip()!r} forward as its result, which is not the "
                "required figure"
            ]
    return []
