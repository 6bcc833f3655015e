"""A figure the answer says is one field's, held against that field's values.

"its 64Mi memory limit" where the container declares `limits: {memory: 128Mi}` and
`requests: {memory: 64Mi}`: the figure belongs to another field (the request). Every field
path of the declared environment's structured records (cluster objects, HTTP bodies, rows) is
a label with its values; in the answer, the label words beside a figure that tell fields
apart (`limit`, `request`, `reserved`, `available`; not `memory`, which both paths hold) names
the field the figure is said to be. The figure fails when it is a value of another field and
no value of the named one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from agentbench.scoring.bound_figures import NAMED_BY
from agentbench.scoring.quantities import Quantity, quantities
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at
from agentbench.scoring.structured import parse

_GENERIC = frozenset(
    [
        "name",
        "value",
        "type",
        "kind",
        "id",
        "status",
        "items",
        "data",
        "spec",
        "metadata",
        "containers",
        "container",
        "resources",
        "template",
        "labels",
        "annotations",
        "code",
        "key",
        "keys",
        "sku",
    ]
)
_NEAR = 3  # words either side of a figure a label may sit in
_KEY_VALUE = re.compile(r"(?<![\w.-])([A-Za-z][A-Za-z_]*)=(\d+(?:\.\d+)?)(?![\w.])")


def field_figure_problems(reading: Reading) -> list[str]:
    """Why a figure said to be one field's is another's (empty: none is)."""
    entities = reading.entities
    if not entities.simulated:
        return []
    fields = _fields([t for e in entities.by_key.values() for t in e.evidence])
    if not fields:
        return []
    every = {v for values in fields.values() for v in values}
    for group in reading.groups:
        for clause in group:
            text = clause.text
            for q in quantities(text):
                if stance_at(clause, (q.start, q.end)) is not Stance.asserted:
                    continue
                value = _key(q)
                if value not in every or (q.dimension is None and q.raw < 10):
                    continue
                if q.dimension is None and NAMED_BY.search(text[: q.start]):
                    continue  # "the pods of PR 4398": a number that names, not a field's
                labels = _labels(text, q, fields)
                if q.dimension is None and _counts(text, q) and not _named_field(text, q, labels):
                    continue  # "3 pods", "2 replicas": a count of things, not a field's value
                label = next((w for w in labels if value not in fields[w]), None)
                if label is None:
                    continue
                said = text[q.start : q.end]
                return [
                    f"figure {said!r} is given as the {label}, a value the environment "
                    "gives another field and not this one"
                ]
    return []


def _key(q: Quantity) -> tuple[str | None, float]:
    return q.dimension, round(q.value, 6)


def _fields(texts: list[str]) -> dict[str, set[tuple[str | None, float]]]:
    """label word -> the values of every field whose path holds it."""
    out: dict[str, set[tuple[str | None, float]]] = defaultdict(set)
    for text in texts[:2000]:  # a log line's own fields: "total=10, active=10, waiting=42"
        for m in _KEY_VALUE.finditer(text[:200_000]):
            for word in _words(m.group(1)):
                out[word].add((None, round(float(m.group(2)), 6)))
    stack: list[tuple[Any, tuple[str, ...]]] = [(parse(t), ()) for t in texts[:2000]]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            stack += [(v, (*path, str(k))) for k, v in list(node.items())[:200]]
        elif isinstance(node, list):
            stack += [(v, path) for v in node[:200]]
        elif isinstance(node, (int, float, str)) and not isinstance(node, bool) and path:
            found = quantities(str(node)) if isinstance(node, str) else None
            if isinstance(node, str) and (len(found or []) != 1 or len(str(node)) > 24):
                continue
            value = _key(found[0]) if found else (None, round(float(node), 6))
            for word in {w for key in path for w in _words(key)}:
                out[word].add(value)
    return out


def _words(key: str) -> set[str]:
    parts = re.sub(r"([a-z])([A-Z])", r"\1_\2", key).lower().replace("-", "_").split("_")
    return {_singular(p) for p in parts if len(p) >= 4} - _GENERIC


def _labels(text: str, q: Quantity, fields: dict[str, set[tuple[str | None, float]]]) -> list[str]:
    """The label words beside the figure (three words either side, none past another figure)
    that are its own: a word between two figures belongs to the nearer one ("128Mi limit
    (request 64Mi)": `request` is the 64Mi's)."""
    figures = quantities(text)
    before = text[: q.start].split()[-3 * _NEAR :]
    after = text[q.end :].split()[: 3 * _NEAR]
    out = []
    for side, words in (("before", before), ("after", after)):
        ordered = _window(words if side == "after" else list(reversed(words)))
        for i, word in enumerate(ordered):
            if quantities(word) and not word.strip("()[],.:;").isalpha():
                break  # another figure: what lies past it is its own
            if side == "after" and i + 1 < len(ordered) and _figure(ordered[i + 1]):
                break  # "size 20 overflow 10": a label right before a figure is that one's
            if side == "before" and word.lower().strip(",;") in ("and", "or", "but", "while"):
                break  # "10 are active and 42 waiting": `active` is the 10's
            if side == "before" and re.search(r"['’]s$", word):
                break  # "the customer's card ending 8318": the customer owns the card, not 8318
            label = _singular(re.sub(r"[^a-z]", "", word.lower()))
            if side == "before" and _SPAN_WORD.search(" ".join(reversed(ordered[: i + 3]))):
                continue  # "in the last ~31h": a window of time, not the field `last`
            if label in fields and _own(text, q, label, figures):
                out.append(label)
    return out


# a window of time before a duration: "in the last ~31h", "over the past 2 days"
_SPAN_WORD = re.compile(
    r"\b(?:in|over|within|during|for)\s+(?:the\s+)?(?:last|past|next|first)"
    r"(?:\s+(?:~|about|around))?$",
    re.IGNORECASE,
)

# words that bind a label to its figure without being a word of distance ("limit is set to
# just 32Mi" is as near as "limit 32Mi")
_FILLER = frozenset(
    ("is", "was", "are", "were", "set", "to", "just", "only", "at", "of", "a", "an", "the", "now")
)


def _window(words: list[str]) -> list[str]:
    """The words nearest the figure, up to _NEAR of them that are not filler."""
    out: list[str] = []
    counted = 0
    for word in words:
        counted += word.lower() not in _FILLER
        if counted > _NEAR:
            break
        out.append(word)
    return out


def _figure(word: str) -> bool:
    return bool(quantities(word)) and not word.strip("()[],.:;").isalpha()


def _own(text: str, q: Quantity, label: str, figures: list[Quantity]) -> bool:
    spans = [m.span() for m in re.finditer(re.escape(label), text.lower())]
    if not spans:
        return True
    span = min(spans, key=lambda s: _gap(s, (q.start, q.end)))
    nearest = min(figures, key=lambda f: _gap(span, (f.start, f.end)))
    return (nearest.start, nearest.end) == (q.start, q.end)


def _named_field(text: str, q: Quantity, labels: list[str]) -> bool:
    """Whether a label other than the counted noun names the figure's field ("42 connections
    are active": `active`)."""
    after = text[q.end :].split()[:1]
    noun = _singular(re.sub(r"[^a-z]", "", after[0].lower())) if after else ""
    return any(label != noun for label in labels)


def _counts(text: str, q: Quantity) -> bool:
    """Whether the figure counts the plural noun right after it ("12 pods", "40 requests")."""
    after = text[q.end :].split()[:1]
    word = re.sub(r"[^a-z]", "", after[0].lower()) if after else ""
    return len(word) > 3 and _singular(word) != word


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "ness", "us")) and len(word) > 4:
        return word[:-1]
    return word


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return b[0] - a[1] if a[1] <= b[0] else a[0] - b[1] if b[1] <= a[0] else 0
