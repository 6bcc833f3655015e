"""A weekday said of a date is that date's weekday: "the busiest day was Saturday 2026-11-20"
is wrong whatever any output printed, because 2026-11-20 is a Friday. The calendar decides, not
a record: this is arithmetic a reader checks at a glance and a model gets wrong.

A weekday and a date are paired when they stand together in one clause: one beside the other
("Fri 2026-11-20", "2026-11-20 (Friday)", "Friday, Nov 20", "Friday the 20th of November"),
nothing but punctuation, "the" or "on" between them. A date with no year takes the year of
the dates the prompt and outputs state, when they state one year only.
"""

from __future__ import annotations

import re
from datetime import date

from agentbench.scoring.quantities import Moment, moments
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = re.compile(
    r"\b(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|rsday|urday)?\b\.?",
    re.IGNORECASE,
)
# what may stand between a weekday and the date after it: "Fri 2026-11-20", "Friday, the 20th
# of"; and between a date and the weekday after it: "2026-11-20 (Fri)", "Nov 20, a Saturday"
# (no dash: "Mon 16 Nov - Sun 22 Nov" is a range, its "Sun" the second date's)
_BEFORE_DATE = re.compile(r"[\s,]*(?:(?:on|the)\s+)*", re.IGNORECASE)
_AFTER_DATE = re.compile(r"\s*(?:[,(\[]\s*)?(?:(?:was|is|a|an)\s+)*", re.IGNORECASE)


def _day(token: str) -> int:
    """0 (Monday) .. 6 (Sunday) of a weekday name or its abbreviation."""
    head = token.lower()[:3]
    return next(i for i, d in enumerate(_DAYS) if d.startswith(head))


def _year(texts: list[str]) -> int | None:
    """The one year the texts' dates state (None: none, or several)."""
    years = {m.year for text in texts for m, _, _ in moments(text[:200_000]) if m.year}
    return years.pop() if len(years) == 1 else None


def _pair(text: str, named: re.Match[str], dates: list[tuple[Moment, int, int]]) -> Moment | None:
    """The date standing beside the weekday (None: none)."""
    for moment, start, _ in dates:  # the date after the weekday first: "Sun 22 Nov"
        if start >= named.end() and _BEFORE_DATE.fullmatch(text[named.end() : start]):
            return moment
    for moment, _, end in dates:
        if end <= named.start() and _AFTER_DATE.fullmatch(text[end : named.start()]):
            return moment
    return None


def weekday_problems(reading: Reading, seen: list[str]) -> list[str]:
    """A weekday paired with a date it is not (`seen`: the prompt and the outputs, for the
    year of a date written without one)."""
    year: int | None = None
    year_known = False
    for s in range(len(reading.groups)):
        text = reading.sentence(s)
        dates = moments(text)
        if not dates:
            continue
        for named in _WEEKDAY.finditer(text):
            token = named.group().rstrip(".")
            if token.lower() not in _DAYS and not token[0].isupper():
                continue  # "sat", "sun", "wed" in lower case are words, not days
            paired = _pair(text, named, dates)
            if paired is None:
                continue
            if paired.year is None and not year_known:
                year, year_known = _year([*seen, reading.entities.prompt]), True
            when_year = paired.year or year
            if when_year is None:
                continue
            try:
                actual = date(when_year, paired.month, paired.day).weekday()
            except ValueError:
                continue
            if actual == _day(named.group(1)) or reading.stance_of(s, token) is Stance.negated:
                continue
            said = f"{when_year:04d}-{paired.month:02d}-{paired.day:02d}"
            return [
                f"calls {said} a {_DAYS[_day(named.group(1))].title()}; "
                f"it is a {_DAYS[actual].title()}"
            ]
    return []


# an ISO week number said with dates: "ISO week 46 (Mon 2026-11-16 – Sun 2026-11-22)",
# "2026-W47", "KW 47"
_ISO_WEEK = re.compile(
    r"\bISO[\s-]*(?:8601\s+)?(?:calendar\s+)?week\s*(?:no\.?\s*|number\s*|#\s*)?(\d{1,2})\b"
    r"|\bweek\s*(\d{1,2})\s*\(ISO\b|\b\d{4}-W(\d{2})\b|\bKW\s*(\d{1,2})\b",
    re.IGNORECASE,
)


def iso_week_problems(reading: Reading) -> list[str]:
    """An ISO week number said beside dates none of which lies in that week."""
    for s in range(len(reading.groups)):
        text = reading.sentence(s)
        found = _ISO_WEEK.search(text)
        if found is None:
            continue
        week = int(next(g for g in found.groups() if g))
        days = []
        for moment, _, _ in moments(text):
            if moment.year is None:
                continue
            try:
                days.append(date(moment.year, moment.month, moment.day))
            except ValueError:
                continue
        if not days or reading.stance_of(s, found.group()) is Stance.negated:
            continue
        if all(d.isocalendar()[1] != week for d in days):
            first = days[0]
            return [
                f"calls the week of {first.isoformat()} ISO week {week}; it is ISO week "
                f"{first.isocalendar()[1]}"
            ]
    return []
