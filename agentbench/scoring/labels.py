"""Two figures swapped between their labels: "a limit of 984mb" where the limit is 972.7mb.

A report often carries a pair of figures that only mean something together (usage against a
limit, available against a threshold). Written the other way round, each figure is one the
outputs print, so no figure check catches it. Here a label (limit, threshold, available, usage,
request, capacity, quota, …) written right before a figure with a unit binds the two, in the
answer and in every tool output alike. The answer fails when it gives a label a figure while
the outputs give that label one other figure only — never the answer's — and the answer states
that other figure too: the figures changed places.
"""

from __future__ import annotations

import re

from agentbench.scoring.reading import Reading

_LABELS = (
    "limit", "threshold", "available", "usage", "used", "request", "requested", "capacity",
    "quota", "allocatable", "reserved", "maximum", "max", "minimum", "min", "free",
)
_UNIT = r"(?:[KMGT]i(?:B)?|[kKMGT]B|[kmgt]b|bytes|%|ms|cores?|vCPU)"
_FIGURE = r"(\d+(?:\.\d+)?)\s?(" + _UNIT + r")(?![\w%])"
_LABELLED = re.compile(
    r"\b(" + "|".join(_LABELS) + r")\b(?:\s+(?:quantity|of|is|was|at|set\s+to|value))*"
    r"\s*[:=]?\s*\[?(?:\d+/)?" + _FIGURE,
    re.IGNORECASE,
)
_ANY_FIGURE = re.compile(r"(?<![\w.])" + _FIGURE)


def _key(value: str, unit: str) -> tuple[float, str]:
    unit = unit.lower()
    return float(value), unit[:-1] if unit.endswith("ib") else unit


def _label(word: str) -> str:
    word = word.lower()
    return {"max": "maximum", "min": "minimum", "requested": "request", "used": "usage"}.get(
        word, word
    )


def _bindings(text: str) -> dict[str, set[tuple[float, str]]]:
    out: dict[str, set[tuple[float, str]]] = {}
    for m in _LABELLED.finditer(text):
        out.setdefault(_label(m[1]), set()).add(_key(m[2], m[3]))
    return out


def swapped_label_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """Figures that changed places between their labels (module docstring)."""
    if not reading.entities.simulated:
        return []
    printed: dict[str, set[tuple[float, str]]] = {}
    for text in outputs:
        for label, figures in _bindings(text[:200_000]).items():
            printed.setdefault(label, set()).update(figures)
    if not printed:
        return []
    answer = "\n".join(" ".join(c.text for c in group) for group in reading.groups)
    stated = {_key(v, u) for v, u in _ANY_FIGURE.findall(answer)}
    for m in _LABELLED.finditer(answer):
        label, figure = _label(m[1]), _key(m[2], m[3])
        theirs = printed.get(label, set())
        if len(theirs) != 1 or figure in theirs:
            continue
        (other,) = theirs
        if other in stated:
            return [
                f"gives the {label} as {m[2]}{m[3]}, but the output's {label} is "
                f"{other[0]:g}{other[1]}, a figure the answer gives elsewhere: swapped"
            ]
    return []
