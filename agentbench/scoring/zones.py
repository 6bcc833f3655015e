"""Time zones: the one a label written after a clock time names ("09:41 CET", "10:41
(UTC+1)", "09:41:03 +02:00"), and every zone an answer names anywhere ("CET", "Europe/Berlin",
"Berlin time"), for a time it converted into one of them."""

from __future__ import annotations

import re
from datetime import timedelta

# A zone written after a clock time: "09:41 CET", "10:41 (UTC+1)", "09:41:03 +02:00".
_ZONES: dict[str, float] = {
    "utc": 0,
    "gmt": 0,
    "z": 0,
    "wet": 0,
    "west": 1,
    "bst": 1,
    "cet": 1,
    "cest": 2,
}
_ZONES.update({"eet": 2, "eest": 3, "msk": 3, "ist": 5.5, "jst": 9, "aest": 10, "est": -5})
_ZONES.update({"edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7})
_ZONE = re.compile(
    r"^\s*\(?\s*(?:(?P<name>[A-Za-z]{1,4})\b(?:\s*(?P<sign1>[+-])\s*(?P<h1>\d{1,2})(?::?(?P<m1>\d\d))?)?"
    r"|(?P<sign>[+-])(?P<h>\d\d)(?::?(?P<m>\d\d))?(?![\w:]))"  # +01:00, +0100, PostgreSQL's +00
)


# places whose zone an answer names instead of the zone ("09:41:17 in Berlin"): their offset
# in the months the tasks are set in (November to March)
_PLACES = {
    "berlin": 1, "paris": 1, "amsterdam": 1, "madrid": 1, "rome": 1, "vienna": 1, "warsaw": 1,
    "prague": 1, "stockholm": 1, "zurich": 1, "london": 0, "lisbon": 0, "dublin": 0,
    "helsinki": 2, "athens": 2, "kyiv": 2, "new york": -5, "chicago": -6, "denver": -7,
    "los angeles": -8, "tokyo": 9, "sydney": 11, "kolkata": 5.5, "singapore": 8,
}  # fmt: skip
_NAMED_ZONE = re.compile(
    r"\b(?:(?P<abbr>" + "|".join(z for z in _ZONES if len(z) > 1) + r")\b"
    r"(?:\s*(?P<sign>[+-])\s*(?P<h>\d{1,2})(?::?(?P<m>\d\d))?)?"
    r"|(?:Europe|America|Asia|Australia)/(?P<city>[A-Za-z_]+)"
    r"|(?P<place>" + "|".join(_PLACES) + r")\b)",
    re.IGNORECASE,
)


def _extra_hours(sign: str, hours: str, minutes: str | None) -> float | None:
    """The offset a sign, hours and minutes after a zone name add, or None where they cannot be
    one (an offset is within 14 hours, in quarter hours): "Z-14:19" in "14:02:11Z-14:19:40Z" and
    "Z-2026" in "18:00Z-2026-11-30" are ranges, not zones."""
    h, m = int(hours), int(minutes or 0)
    if h > 14 or m not in (0, 15, 30, 45):
        return None
    return (h + m / 60) * (1 if sign == "+" else -1)


def zones_named(text: str) -> set[float]:
    """The UTC offsets (hours) of every zone the text names anywhere: "CET", "UTC+1",
    "Europe/Berlin", "Berlin time" (an answer that converts may write times in them)."""
    out: set[float] = set()
    for m in _NAMED_ZONE.finditer(text[:50_000]):
        if m.group("abbr"):
            hours = _ZONES[m.group("abbr").lower()]
            if m.group("sign"):
                extra = _extra_hours(m.group("sign"), m.group("h"), m.group("m"))
                if extra is None:
                    continue
                hours += extra
        else:
            place = (m.group("city") or m.group("place")).replace("_", " ").lower()
            if place not in _PLACES:
                continue
            hours = _PLACES[place]
        out.add(hours)
    return out


def zone_offset(after: str) -> timedelta | None:
    """The UTC offset a zone label right after a clock time names (None: no label)."""
    m = _ZONE.match(after)
    if not m:
        return None
    if m.group("sign"):
        extra = _extra_hours(m.group("sign"), m.group("h"), m.group("m"))
        return None if extra is None else timedelta(hours=extra)
    name = m.group("name").lower()
    if name not in _ZONES:
        return None
    hours = _ZONES[name]
    if m.group("sign1") and name != "z":  # "UTC+1"; "Z-14:19" is a range after a UTC time
        extra = _extra_hours(m.group("sign1"), m.group("h1"), m.group("m1"))
        if extra is not None:
            hours += extra
    return timedelta(hours=hours)
