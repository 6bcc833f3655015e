"""Quantities in answer text, normalised so that every common spelling compares equal.

- numbers in any common format: 48,213.40 = 48213.4 = 48.213,40 = 48 213,40; small counts
  spelled out ("three", "twelve", "a dozen");
- sizes to bytes: 64Mi = 64 MiB = 67,108,864 bytes = 0.0625 GiB (`K`/`M`/`G` alone, as `df -h`
  and `free -h` print them, are binary);
- durations to seconds, the unit checked: 36 h = 129,600 s, but 36 min is not 36 h;
- percentages and amounts of money (`$`, `EUR`, `€`);
- moments (`times`): ISO 8601 (`2026-11-25T09:41:03Z`, `2026-11-25 09:41`), syslog's
  `Nov 28 23:59:59`, `25 November 2026, 09:41:03 UTC`, nginx's `14/Mar/2026:11:07:49 +0000`
  and epoch seconds, each with the fields it states (a missing year or second matches any).

Identifiers (`replica-3`, `E10231`, `v1.2`, `dep-70e8`), IP addresses and versions are not
figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from agentbench.scoring.zones import zone_offset

# Unit spelling (lower case) -> (dimension, factor to the dimension's base unit).
_UNITS: dict[str, tuple[str, float]] = {"%": ("percent", 1.0), "percent": ("percent", 1.0)}
_names: tuple[str, ...]
for _names, _factor in (
    (("b", "byte", "bytes"), 1.0),
    (("kb", "kilobytes"), 1e3),
    (("mb", "megabytes"), 1e6),
    (("gb", "gigabytes"), 1e9),
    (("tb", "terabytes"), 1e12),
    (("kib", "ki", "k", "kibibytes"), 2.0**10),
    (("mib", "mi", "m", "mebibytes"), 2.0**20),
    (("gib", "gi", "g", "gibibytes"), 2.0**30),
    (("tib", "ti", "t", "tebibytes"), 2.0**40),
):
    _UNITS.update({n: ("bytes", _factor) for n in _names})
for _names, _factor in (
    (("ms", "msec", "millisecond", "milliseconds"), 1e-3),
    (("s", "sec", "secs", "second", "seconds"), 1.0),
    (("min", "mins", "minute", "minutes"), 60.0),
    (("h", "hr", "hrs", "hour", "hours"), 3600.0),
    (("d", "day", "days"), 86400.0),
    (("w", "wk", "week", "weeks"), 604800.0),
):
    _UNITS.update({n: ("seconds", _factor) for n in _names})
_UNITS.update({n: ("usd", 1.0) for n in ("$", "usd", "dollars", "dollar")})
_UNITS.update({n: ("eur", 1.0) for n in ("€", "eur", "euro", "euros")})


_SMALL: tuple[str, ...] = ("zero", "one", "two", "three", "four", "five", "six", "seven")
_SMALL += ("eight", "nine", "ten")
_SMALL += ("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen")
_SMALL += ("eighteen", "nineteen", "twenty")
_WORDS = {w: i for i, w in enumerate(_SMALL)}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70}
_TENS.update({"eighty": 80, "ninety": 90})
_WORDS.update(_TENS)
# compound tens: "thirty-four", "ninety nine"
_WORDS.update(
    {
        f"{tens}{sep}{_SMALL[unit]}": value + unit
        for tens, value in _TENS.items()
        for unit in range(1, 10)
        for sep in ("-", " ")
    }
)
_WORDS.update({"a dozen": 12, "a couple of": 2})
_WORDS.update({"once": 1, "twice": 2, "a single": 1, "none": 0, "no": 0})
_WORD_NUMBER = re.compile(
    r"\b(?P<word>" + "|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_UNIT_ALT = "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True) if u not in "$€")
_BRACKETED_UNIT = re.compile(r"\s*\(\s*(" + _UNIT_ALT + r")\s*\)", re.IGNORECASE)
# A figure: 1,234.5 / 1.234,5 / 1 234,5 / 1234.5 / 1234,5; not inside an identifier, an IP
# address, a version, a date or a time of day.
_FIGURE = re.compile(
    r"(?<![\w.\-/:#,])(?P<cur>(?:[$€]|(?:EUR|USD)\s)\s?)?"
    r"(?P<num>\d{1,3}(?:(?P<sep>[,.\u202f\u00a0 ])\d{3})(?:(?P=sep)\d{3})*(?:[.,]\d+)?"
    r"|\d+(?:[.,]\d+)?)"
    r"(?![\w\-]*\d)(?!\.\d)(?!:\d)(?!/\d)(?!,\d)"
    r"(?:\s?(?P<unit>" + _UNIT_ALT + r")(?![\w]))?(?:\s?(?P<cur2>€))?(?![\w\-])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Quantity:
    """One figure: its value in the base unit of its dimension (None: a bare number)."""

    value: float
    dimension: str | None
    start: int
    end: int
    raw: float = 0.0  # the number as written, in its own unit
    unit: str | None = None


def parse_number(raw: str) -> float:
    """A figure in any common format. With both `,` and `.` the later one is the decimal mark;
    a separator used twice groups thousands; one `,` before exactly three digits groups
    thousands (1,187), any other single separator is the decimal mark (48213,40; 0.750)."""
    raw = re.sub(r"[\s\u202f\u00a0]", "", raw)
    if "," in raw and "." in raw:
        decimal = "," if raw.rfind(",") > raw.rfind(".") else "."
    else:
        sep = "," if "," in raw else "." if "." in raw else ""
        single = raw.count(sep) == 1 if sep else False
        thousands = sep == "," and len(raw.rsplit(",", 1)[1]) == 3
        decimal = sep if single and not thousands else ""
    whole, _, frac = raw.rpartition(decimal) if decimal else (raw, "", "")
    return float(f"{re.sub(r'[^0-9]', '', whole) or '0'}.{frac or '0'}")


# A duration in two or three units: `11m35s`, `2h 5m`, `1h2m3s`, `11 hours 35 minutes`,
# `3 min 20 s`, one figure (in seconds) whose own unit is its largest.
_PART = r"(\d+(?:\.\d+)?)\s?({})"
_H, _M, _S = r"h|hrs?|hours?", r"m|mins?|minutes?", r"s|secs?|seconds?"
_SECONDS = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}  # `m` here is minutes, never MiB
_COMPOUND = re.compile(
    r"(?<![\w.:-])(?:"
    + _PART.format(_H)
    + r"\s?(?:and\s)?"
    + _PART.format(_M)
    + r"(?:\s?(?:and\s)?"
    + _PART.format(_S)
    + r")?"
    + r"|"
    + _PART.format(_M)
    + r"\s?(?:and\s)?"
    + _PART.format(_S)
    + r")(?![\w])",
    re.IGNORECASE,
)


# days first: "6 d 23 h 50 m", "14 days 3 hours", `2d3h`
_DAYS = re.compile(
    r"(?<![\w.:-])"
    + _PART.format(r"d|days?")
    + r",?\s?(?:and\s)?"
    + _PART.format(_H)
    + r"(?:,?\s?(?:and\s)?"
    + _PART.format(_M)
    + r")?(?:,?\s?(?:and\s)?"
    + _PART.format(_S)
    + r")?(?![\w])",
    re.IGNORECASE,
)


def _compounds(text: str) -> list[Quantity]:
    out: list[Quantity] = []
    spans: list[tuple[int, int]] = []
    for m in [*_DAYS.finditer(text), *_COMPOUND.finditer(text)]:
        if any(a <= m.start() < b for a, b in spans):
            continue  # "23 h 50 m" of "6 d 23 h 50 m"
        spans.append((m.start(), m.end()))
        parts = [g for g in m.groups()]
        pairs = [(parts[i], parts[i + 1]) for i in range(0, len(parts), 2) if parts[i]]
        seconds = sum(float(n) * _SECONDS[u.lower()[0]] for n, u in pairs)
        largest = _SECONDS[pairs[0][1].lower()[0]]
        out.append(Quantity(seconds, "seconds", m.start(), m.end(), seconds / largest, pairs[0][1]))
    return out


# HTTP status codes counted in the plural ("three consecutive 404s", "it returned 503s")
_COUNTING = re.compile(
    r"(?:\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|several|many|some|"
    r"consecutive|repeated|all|more|of|the|those|these|with|and|or|got|returned|returns|"
    r"returning|getting|gets|throws|serves|serving|no|any)\s+)$",
    re.IGNORECASE,
)


def _status_plural(text: str, start: int, figure: str) -> bool:
    code = figure[:-1]
    if not re.fullmatch(r"(?:[45]\d\d|200)", code):
        return False
    return bool(_COUNTING.search(text[max(0, start - 30) : start]))


def quantities(text: str) -> list[Quantity]:
    """Every figure and spelled-out count in the text, normalised."""
    out: list[Quantity] = _compounds(text)
    # a figure inside a date (a day of the month, an hour) or a compound duration is part of
    # that, not a figure of its own; one mark per character keeps the test linear in the text
    covered = bytearray(len(text) + 1)
    for _, a, b in moments(text):
        covered[a:b] = b"\x01" * (b - a)
    for q in out:
        covered[q.start : q.end] = b"\x01" * (q.end - q.start)
    for match in _FIGURE.finditer(text):
        if covered[match.start()]:
            continue
        value = parse_number(match.group("num"))
        unit = match.group("unit") or (match.group("cur") or match.group("cur2") or "").strip()
        end = match.end()
        if not unit:
            labelled = _BRACKETED_UNIT.match(text, end)  # "set it to 691200 (milliseconds)"
            if labelled:
                unit, end = labelled.group(1), labelled.end()
        dimension, raw = None, value
        if unit == "s" and _status_plural(text, match.start(), match.group()):
            unit = ""  # "three consecutive 404s": responses, not seconds
        if unit:
            dimension, factor = _UNITS[unit.lower()]
            value *= factor
        out.append(Quantity(value, dimension, match.start(), end, raw, unit or None))
    for match in _WORD_NUMBER.finditer(text):
        word = match.group("word").lower()
        if word == "no":  # "no restarts" is zero only before a plural noun
            continue
        value = float(_WORDS[word])
        rest = text[match.end() :]
        unit_match = re.match(r"\s+(" + _UNIT_ALT + r")\b", rest, re.IGNORECASE)
        dimension, raw, unit = None, value, None
        if unit_match and len(unit_match.group(1)) > 2:
            unit = unit_match.group(1)
            dimension, factor = _UNITS[unit.lower()]
            value *= factor
        out.append(Quantity(value, dimension, match.start(), match.end(), raw, unit))
    return out


def factors(dimension: str) -> set[float]:
    """The factors of every unit of a dimension."""
    return {f for d, f in _UNITS.values() if d == dimension}


def unit_base(unit: str) -> tuple[str, float]:
    """(dimension, factor) of a unit name a task file gives; KeyError if unknown."""
    return _UNITS[unit.lower()]


def quantity_span(
    text: str, value: float, unit: str | None, tolerance: float = 0.0, convert: bool = True
) -> tuple[int, int] | None:
    """Where the text states the figure (`value` in `unit`), in any unit of its dimension
    (only in `unit` itself unless `convert`); a bare number counts. None where it does not."""
    dimension, factor = unit_base(unit) if unit else (None, 1.0)
    want, slack = value * factor, tolerance * factor + 1e-9 * max(1.0, abs(value * factor))
    for found in quantities(text):
        if found.dimension is not None and dimension is not None and not convert:
            own = found.value / found.raw if found.raw else 0.0
            same_unit = found.dimension == dimension and abs(own - factor) <= 1e-9 * factor
            if same_unit and abs(found.raw - value) <= tolerance + 1e-9 * max(1.0, abs(value)):
                return found.start, found.end
        elif found.dimension is not None and dimension is not None:
            # another unit of a size or a duration rounds: 1.5 GiB for 1,610,612,736 bytes
            rounding = abs(want) * 0.005 if dimension in ("bytes", "seconds") else 0.0
            if found.dimension == dimension and abs(found.value - want) <= max(slack, rounding):
                return found.start, found.end
        elif abs(found.raw - value) <= tolerance + 1e-9 * max(1.0, abs(value)):
            return found.start, found.end  # a bare number, or no unit asked
    return None


_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTHS = {m: i + 1 for i, m in enumerate(_MONTH_NAMES)}
_MONTH = r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
_MONTH += r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_CLOCK = r"(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2}))?(?:[.,]\d+)?"
_UTC = r"(?:[ \t]*(?:UTC|GMT|Z))?"  # a zone of offset 0 between the clock and its date
_TIMES = [
    # the clock first: "11:48:49 UTC on 2026-12-01", "at 09:30 on 3 March 2026"
    re.compile(
        r"(?<![\d:])" + _CLOCK + _UTC
        + r"[ \t]+(?:on[ \t]+)?(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})\b",
        re.I,
    ),
    re.compile(
        r"(?<![\d:])" + _CLOCK + _UTC + r"[ \t]+(?:on[ \t]+)?" + _MONTH
        + r"\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(?P<y>\d{4}))?\b",
        re.I,
    ),
    re.compile(
        r"(?<![\d:])" + _CLOCK + _UTC
        + r"[ \t]+(?:on[ \t]+)?(?:the[ \t]+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?"
        r"\s+(?:of\s+)?" + _MONTH + r"(?:,?\s+(?P<y>\d{4}))?\b",
        re.I,
    ),
    re.compile(
        r"\b(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})(?:[T\s]+(?:at\s+)?" + _CLOCK + r")?", re.I
    ),
    re.compile(
        r"\b" + _MONTH + r"\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(?P<y>\d{4}),?\s+)?"
        r"(?:at\s+)?" + _CLOCK,
        re.I,
    ),
    re.compile(
        r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH + r",?\s+(?:(?P<y>\d{4}),?\s+)?"
        r"(?:at\s+)?" + _CLOCK,
        re.I,
    ),
    re.compile(r"\b(?P<d>\d{1,2})/" + _MONTH + r"/(?P<y>\d{4}):" + _CLOCK, re.I),
    re.compile(
        r"\b" + _MONTH + r"\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(?P<y>\d{4}))?\b", re.I
    ),
    re.compile(
        r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"(?:,?\s+(?P<y>\d{4}))?\b",
        re.I,
    ),
]
_EPOCH = re.compile(r"(?<![\w.])(?P<epoch>1[5-9]\d{8})(?![\w.])")


@dataclass(frozen=True)
class Moment:
    """A moment as written: fields it does not state are None (they match anything)."""

    year: int | None
    month: int
    day: int
    hour: int | None
    minute: int | None
    second: int | None

    def matches(self, when: datetime, seconds: bool = True, clock: bool = True) -> bool:
        pairs = [(self.year, when.year), (self.month, when.month), (self.day, when.day)]
        pairs += [(self.hour, when.hour), (self.minute, when.minute)] if clock else []
        pairs += [(self.second, when.second)] if seconds and clock else []
        return all(mine is None or mine == theirs for mine, theirs in pairs)


def moments(text: str) -> list[tuple[Moment, int, int]]:
    """Every date or moment in the text with its span (overlapping spellings once)."""
    out: list[tuple[Moment, int, int]] = []
    taken: list[tuple[int, int]] = []
    for pattern in _TIMES:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            groups = m.groupdict()
            month = int(groups["mo"]) if groups.get("mo") else _MONTHS[groups["mon"][:3].lower()]
            hour = int(groups["h"]) if groups.get("h") else None
            found = Moment(
                int(groups["y"]) if groups.get("y") else None,
                month,
                int(groups["d"]),
                hour,
                int(groups["mi"]) if groups.get("mi") else None,
                int(groups["s"]) if groups.get("s") else None,
            )
            out.append((found, m.start(), m.end()))
            taken.append((m.start(), m.end()))
    for m in _EPOCH.finditer(text):
        when = datetime.fromtimestamp(int(m.group("epoch")), tz=UTC)
        out.append(
            (
                Moment(when.year, when.month, when.day, when.hour, when.minute, when.second),
                m.start(),
                m.end(),
            )
        )
    return out


def parse_moment(value: str) -> datetime:
    """A task file's moment: ISO 8601, `Z` or an offset allowed (naive means UTC)."""
    when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)


def moment_span(text: str, when: datetime, precision: str = "minute") -> tuple[int, int] | None:
    """Where the text states the moment, to at least `precision` (day, minute or second); a
    clock time labelled with a zone ("10:41 CET") is read in that zone."""
    for found, start, end in moments(text):
        if precision != "day" and found.minute is None:
            continue
        if precision == "second" and found.second is None:
            continue
        seconds = precision == "second" or when.second != 0
        offset = zone_offset(text[end : end + 16]) if found.hour is not None else None
        local = when + offset if offset else when
        if found.matches(local, seconds=seconds, clock=precision != "day"):
            return start, end
    return None
