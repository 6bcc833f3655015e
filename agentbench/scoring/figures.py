"""Figures the answer asserts, held against the environment and what the tools printed.

What counts as stated is what the agent saw: the prompt, the tool outputs, the changes it made.

- A size or a duration must be one a tool output states (within 7.5%, so
  64 MB for 64Mi is a rounding, not an error); written in the wrong unit (64 KB for a 64Mi
  limit, 30 ms for a 30 s timeout: the same number in another unit of its dimension is what
  the environment says) it fails.
- A plain figure of 10 or more (a count, an amount, a percentage) must be one the prompt, the
  environment or a tool output states, a required figure, or the sum, difference or ratio of
  two stated figures; anything else is invented ("up 12% from 1,060", "2 of the 8 nodes").
- A count of things ("8 nodes", "12 unassigned shards", "2 of the 8 nodes") must agree with the
  fields the tool outputs keyed by that noun (`number_of_nodes: 6`, `unassigned_shards=12`),
  when they printed any: one of their values, or the sum or difference of two.
Years, identifiers, versions and times of day are not figures (agentbench.scoring.quantities).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import combinations

from agentbench.scoring.claims import Clause
from agentbench.scoring.entities import Entities
from agentbench.scoring.numbers import derivation_operand, equations, worked_results
from agentbench.scoring.quantities import (
    Quantity,
    factors,
    moments,
    quantities,
    unit_base,
)
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at
from agentbench.scoring.totals import column_sums, product_or_quotient
from agentbench.tasks.expectations import Fact

_PAIRS_LIMIT = 300  # distinct stated figures combined pairwise, at most
_GLUE = re.compile(r"[/:=\[\]()<>\"']")
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
# A number that labels rather than measures: "row 17", "line 31", "revision 12", "port 8080".
LABEL = re.compile(
    r"(?:\b(?:rows?|lines?|no|number|items?|entry|entries|steps?|batch(?:es)?|attempts?|revisions?"
    r"|rev|ports?|pids?|ids?|version|case|page|rules?|codes?|status|http|exit|index|position"
    r"|shards?|day|week|month|hour|minute|from|to|between|through|and)|[#:])\W{0,3}$",
    re.IGNORECASE,
)


# a duration between two moments the answer relates ("5 s before the cart errors"); "lagging
# 7 minutes behind" relates nothing, though two clock times in the outputs may lie 7 min apart
_RELATIVE = re.compile(
    r"\b(?:before|after|earlier|later|between|apart|elapsed|passed|gap|difference)\b",
    re.IGNORECASE,
)


# A field whose name carries its unit: `replica_lag_s: 7`, `"timeout_ms": 3000`, `size_mb=412`.
_KEYED_UNIT = re.compile(
    r"[A-Za-z]\w*?_(?P<unit>ms|s|sec|secs|seconds|min|mins|minutes|h|hours|bytes|kb|mb|gb|kib|mib|gib)"
    r"\b\"?\s*[:=]\s*\"?(?P<num>\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)


def _keyed_units(text: str) -> list[Quantity]:
    out = []
    for m in _KEYED_UNIT.finditer(text[:200_000]):
        dimension, factor = unit_base(m.group("unit"))
        raw = float(m.group("num"))
        out.append(Quantity(raw * factor, dimension, m.start(), m.end(), raw, m.group("unit")))
    return out


def _close(a: float, b: float, rel: float) -> bool:
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-9


def _number(text: str) -> float:
    from agentbench.scoring.quantities import parse_number

    return parse_number(text)


_PERCENT = re.compile(r"\s*(?:%|percent\b|per\s+cent\b)")
_OUT_OF_ITSELF = re.compile(r"(?<![\d.])(\d+)\s*(?:/|of)\s*\1(?![\d.])")
# a field that holds a share: `active_shards_percent_as_number: 89.83`, `"cpu_pct": 41`
_SHARE_FIELD = re.compile(
    r"\w*(?:percent|pct|ratio|share|usage|util)\w*[\"']?\s*[:=]\s*[\"']?(\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)


class Stated:
    """Every figure the environment, the prompt and the tool outputs state."""

    def __init__(self, texts: list[str], loose: bool = True, world: str = "") -> None:
        """`loose`: every run of digits counts as stated, the ones inside identifiers too (a
        tool output's figures are glued to anything); off for one record's own figures.
        `world`: the whole environment, read or not, held only against a bare figure's unit."""
        # tool output glues figures to punctuation ("[1020054732/972.7mb]", "timeout=30s")
        self.texts = texts
        self._clocks: list[int] | None = None
        loosened = [_GLUE.sub(" ", t) for t in texts]
        self.figures: list[Quantity] = [q for t in loosened for q in quantities(t)]
        self.keyed = [q for t in texts for q in _keyed_units(t)]
        self.figures += self.keyed
        self._world_text = world[:400_000]
        self._world: list[Quantity] | None = None
        digits: set[float] = (
            {_number(m.group()) for t in texts for m in _DIGITS.finditer(t)} if loose else set()
        )
        raws = sorted({q.raw for q in self.figures} | {q.value for q in self.figures} | digits)
        self.raws = raws
        small = raws[:_PAIRS_LIMIT] if len(raws) > _PAIRS_LIMIT else raws
        self.derived: set[float] = {round(r / k, 2) for r in raws for k in (100, 1000)}
        self.derived |= {round(r * 1000, 2) for r in raws}  # cents, milliseconds
        self.derived |= column_sums(texts)
        if any(_OUT_OF_ITSELF.search(t) for t in texts):
            self.derived.add(100.0)  # "64 of 64 connections busy", i.e. 100%
        self.ratios: set[float] = set()
        for a, b in combinations(small, 2):
            self.derived |= {round(a + b, 2), round(abs(a - b), 2)}
            if a and b:
                self.ratios |= {round(100 * a / b, 1), round(100 * b / a, 1)}
        self.derived |= self.ratios
        shares = {q.raw for q in self.figures if q.dimension == "percent"}
        shares |= {float(m.group(1)) for t in texts for m in _SHARE_FIELD.finditer(t[:200_000])}
        shares = {r for r in shares if 0 < r < 100}
        self.ratios |= {round(100 - r, 1) for r in shares}  # the rest of a printed share
        if 100.0 in self.derived:
            self.ratios.add(100.0)  # "64 of 64 connections busy"

    def plain(self, value: float) -> bool:
        if any(_close(value, r, 0.005) or abs(value - r) <= 0.05 for r in self.raws):
            return True
        return round(value, 2) in self.derived or round(value, 1) in self.derived

    def percent(self, value: float) -> bool:
        """A percentage stated, one stated figure of another (to the tenth) or the rest of a
        printed share to 100; no sum of two figures (a share rounded further: `_ratio_of`)."""
        if any(abs(value - r) <= 0.05 for r in self.raws):
            return True
        return round(value, 1) in self.ratios

    def sized(self, q: Quantity) -> bool:
        """A figure of the same dimension matches; a bare number ("timeout 30.00") matches
        only when no stated figure says the same number is of another unit (30 ms where the
        requests took 30011 ms: the bare 30 was seconds)."""
        same = [f for f in self.figures if f.dimension == q.dimension]
        if any(_close(q.value, f.value, 0.075) for f in same):
            return True
        return self.bare(q) and not self.wrong_unit(q, world=True)

    def bare(self, q: Quantity) -> bool:
        """Whether the figure's number is stated with no unit ("timeout 30.00")."""
        return any(f.dimension is None and _close(q.raw, f.raw, 0.005) for f in self.figures)

    def gap(self, seconds: float) -> bool:
        """Whether two clock times the texts state lie about this far apart ("redis failed 5 s
        before the cart" from 14:01:58 and 14:02:03)."""
        if self._clocks is None:
            clocks = sorted(
                {
                    m.hour * 3600 + (m.minute or 0) * 60 + (m.second or 0)
                    for t in self.texts
                    for m, _, _ in moments(t[:200_000])
                    if m.hour is not None
                }
            )
            self._clocks = clocks[:_PAIRS_LIMIT]
        return any(
            abs(abs(b - a) - seconds) <= max(0.5, 0.1 * seconds)
            for a, b in combinations(self._clocks, 2)
        )

    def minor_units(self, amount: float) -> bool:
        return minor_units(amount, self.raws)

    def wrong_unit(self, q: Quantity, keyed: bool = False, world: bool = False) -> bool:
        """The same number is stated in another unit of its dimension (`keyed`: by a field
        whose name carries that unit, `escalation_after_minutes: 10` for "10 hours"; `world`:
        anywhere in the environment, for a number the outputs state bare)."""
        if q.dimension is None:
            return False
        own = q.value / q.raw if q.raw else 1.0
        others = [f for f in factors(q.dimension) if not _close(f, own, 0.1)]
        world = world and q.raw >= 10  # "one second": small numbers collide by chance
        if world and self._world is None:  # read once, when a bare figure needs it
            found = quantities(_GLUE.sub(" ", self._world_text))
            self._world = [f for f in found if f.dimension in ("bytes", "seconds")]
        pool = self.keyed if keyed else [*self.figures, *((self._world or []) if world else [])]
        same = [f for f in pool if f.dimension == q.dimension]
        return any(_close(q.raw * k, f.value, 0.02) for k in others for f in same)


def minor_units(amount: float, stated: Iterable[float]) -> bool:
    """An amount of money stated as a count of cents beside the same amount in the currency
    (a payment API's `amount: 21436` where the order total is 214.36)."""
    if amount < 100 or amount != int(amount):
        return False
    cents = round(amount / 100, 2)
    seen = list(stated)
    return any(abs(r - amount) < 0.005 for r in seen) and any(abs(r - cents) < 0.005 for r in seen)


def _declared(entities: Entities) -> list[float]:
    """The figures the declared environment holds (the order table's `214.36`, where the
    agent read only the payment API's `amount: 21436`)."""
    return [q.raw for q in quantities(_GLUE.sub(" ", entities.global_evidence[:200_000]))]


def identifier_part(said: str, texts: list[str]) -> bool:
    """Whether the digits are one part of an identifier the texts print (`66967` of the pod
    `order-router-5d8f9c7b4-66967`): a short name for something read, not a figure."""
    digits = re.escape(said.strip())
    pattern = re.compile(rf"[A-Za-z0-9][-_]{digits}(?![\w.])|(?<![\w.-]){digits}[-_][A-Za-z0-9]")
    return bool(said.strip().isdigit()) and any(pattern.search(t[:200_000]) for t in texts)


_MODE = re.compile(r"(?<![\w-])[-dlcbps]([r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-])[.+@]?(?=\s)")


def file_modes(outputs: list[str]) -> str:
    """The octal modes of the permission strings `ls -l` printed (`-rw-r-----` is 0640),
    as text: a mode the answer writes in octal was read, not invented."""
    modes = []
    for text in outputs:
        for m in _MODE.finditer(text[:200_000]):
            bits = "".join("0" if c in "-ST" else "1" for c in m.group(1))
            modes.append(f"{int(bits, 2):04o}")
    return " ".join(sorted(set(modes)))


def figure_problems(reading: Reading, facts: list[Fact], outputs: list[str]) -> list[str]:
    """Why the answer's figures contradict or go beyond what was stated (empty: they hold)."""
    entities = reading.entities
    if not entities.simulated:
        return []  # canned outputs or none: an answer from knowledge may compute its figures
    # what the agent could have read: the prompt, what the tools printed, what it changed
    stated = Stated(
        [entities.prompt, *outputs, *reading.happened, file_modes(outputs)],
        world=entities.global_evidence,
    )
    required = [f.amount for f in facts if f.amount is not None]
    for group in reading.groups:
        sentence = " ".join(c.text for c in group)
        figures = [(x.raw, x.start) for x in quantities(sentence)]
        written = next((c.sentence for c in group if c.sentence), sentence)
        worked, working = worked_results(written), equations(written)
        for clause in group:
            for q in quantities(clause.text):
                stance = stance_at(clause, (q.start, q.end))
                if stance is Stance.negated:
                    continue
                # a hedge ("if she does not acknowledge, it escalates after 10 hours") leaves
                # the unit to check; only an asserted figure must be stated somewhere
                hedged = stance is not Stance.asserted
                if any(_close(q.raw, a.value, 0.005) for a in required):
                    continue
                said = clause.text[q.start : q.end]
                if LABEL.search(clause.text[: q.start]):
                    continue
                if derivation_operand(q.raw, figures, [a.value for a in required]):
                    continue
                if q.raw in worked:
                    continue  # "17 + 68 + 22 = 107": worked out in the sentence, and right
                if any(q.raw in terms and stated.plain(result) for terms, result in working):
                    continue  # "143 is 128 + 15": the working of a figure that was read
                if q.dimension in ("bytes", "seconds"):
                    # any figure with its unit written: "about 3 ms" where the log says 3009 ms
                    if (
                        q.raw > 0
                        and not stated.sized(q)
                        and (stated.wrong_unit(q) or stated.bare(q))
                        and not (
                            q.dimension == "seconds"
                            and _RELATIVE.search(clause.sentence or clause.text)
                            and stated.gap(q.value)
                            and not stated.wrong_unit(q, keyed=True)
                        )
                    ):
                        return [
                            f"figure {said!r} is in the wrong unit for what the environment states"
                        ]
                elif q.dimension in ("usd", "eur") and (
                    stated.minor_units(q.raw) or minor_units(q.raw, _declared(entities))
                ):
                    return [
                        f"figure {said!r} reads an amount in cents as {q.dimension.upper()}: "
                        f"the environment states {q.raw / 100:.2f}"
                    ]
                elif (
                    not hedged
                    and q.raw >= 10
                    and not (q.dimension is None and 1900 <= q.raw <= 2100)
                    and not (
                        stated.percent(q.raw) if q.dimension == "percent" else stated.plain(q.raw)
                    )
                    and not identifier_part(said, [entities.prompt, *outputs])
                    and not _summed(q.raw, reading, stated)
                    and not product_or_quotient(
                        said, q.raw, _read_figures(reading, stated, least=1), clause.text
                    )
                    and not (
                        (said.endswith("%") or _PERCENT.match(clause.text[q.end :]))
                        and _ratio_of(
                            q.raw, [f for f, _ in figures], _read_figures(reading, stated)
                        )
                    )
                ):
                    return [f"figure {said!r} is stated nowhere in the prompt or the tool outputs"]
    return []


def required_unit_problems(reading: Reading, facts: list[Fact]) -> list[str]:
    """The required figure's number asserted in another unit of its dimension: "691,200 ms"
    or "691200 (milliseconds)" where 691,200 seconds is the answer."""
    for fact in facts:
        amount = fact.amount
        if amount is None or amount.unit is None:
            continue
        dimension, factor = unit_base(amount.unit)
        slack = amount.tolerance + 1e-9 * max(1.0, abs(amount.value))
        for group in reading.groups:
            sentence = group[0].sentence if group and group[0].sentence else ""
            for q in quantities(sentence):
                own = q.value / q.raw if q.raw else factor
                if q.dimension != dimension or abs(q.raw - amount.value) > slack:
                    continue
                if _close(own, factor, 0.075):
                    continue  # 64 MB for 64Mi is a rounding
                if _negated_at(group, sentence, q.start):
                    continue
                said = sentence[q.start : q.end]
                return [
                    f"figure {said!r} gives the answer's number in the wrong unit "
                    f"({amount.unit} asked)"
                ]
    return []


def _negated_at(group: list[Clause], sentence: str, at: int) -> bool:
    """Whether the clause of the sentence that holds position `at` negates what stands there."""
    start = 0
    for clause in group:
        found = sentence.find(clause.text, start)
        if found < 0:
            continue
        if found <= at < found + len(clause.text):
            return stance_at(clause, (at - found, at - found + 1)) is Stance.negated
        start = found + len(clause.text)
    return False


def _ratio_of(percent: float, figures: list[float], read: Iterable[float] = ()) -> bool:
    """Whether two figures give the percentage to the whole per cent: both of the sentence
    ("MemAvailable 9626412 kB of MemTotal 16276820 kB, roughly 59%"), or one of the sentence
    and one the answer read elsewhere ("313G (~64% of the volume)" beside "492G size")."""
    pool = [v for v in (*figures, *read) if v != percent]
    return any(
        b and abs(100 * a / b - percent) < 0.5
        for a in pool
        for b in pool
        if a < b and (a in figures or b in figures)
    )


def _read_figures(reading: Reading, stated: Stated, least: float = 10) -> list[float]:
    """The answer's own figures of at least `least` that were read, at most 40: the parts a
    sum or a percentage of the answer may be worked from ("1236 in total - 1187 active ...
    about 96% of them")."""
    said = {q.raw for g in reading.groups for c in g for q in quantities(c.text)}
    return sorted(v for v in said if v >= least and stated.plain(v))[:40]


def _summed(value: float, reading: Reading, stated: Stated) -> bool:
    """Whether the figure is the sum of three figures the answer itself gives, each one read
    ("1,236 open in total: 1187, 31 and 18"); pairs are among the stated figures' own sums."""
    shown = _read_figures(reading, stated, least=float("-inf"))
    return any(abs(a + b + c - value) < 0.005 for a, b, c in combinations(shown, 3))
