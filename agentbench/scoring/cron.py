"""Cron schedules the prompt or an output shows: the times of day they run at (a job's
`0 2 * * *` says it ran at 02:00), and the count of their runs an answer gives per hour, day or
week ("12 executions per weekday" where `*/15 6-9 * * 1-5` runs 16 times a day)."""

from __future__ import annotations

import re

from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at

_CRON = re.compile(
    r"(?<![\w*/,.:-])([\d*/,-]+)\s+([\d*/,-]+)\s+[\d*/,?LW-]+\s+[\d*/,A-Za-z-]+"
    r"\s+([\d*/,A-Za-z?L#-]+)(?=\s|$|[\"'])"
)


def _field(spec: str, top: int) -> set[int]:
    """The values a cron minute or hour field selects (`*/15`, `4-7`, `0,30`); empty where it
    is not one."""
    out: set[int] = set()
    for part in spec.split(","):
        body, _, step = part.partition("/")
        if not (step.isdigit() or not step) or (step and int(step) == 0):
            return set()
        lo, _, hi = body.partition("-")
        if body == "*":
            lo, hi = "0", str(top)
        if not lo.isdigit() or (hi and not hi.isdigit()):
            return set()
        first, last = int(lo), int(hi) if hi else (top if step else int(lo))
        if first > last or last > top:
            return set()
        out |= set(range(first, last + 1, int(step) if step else 1))
    return out


def cron_times(text: str) -> set[int]:
    """The times of day (minutes past midnight) a cron schedule in the text runs at: a job's
    `0 2 * * *` says it ran at 02:00."""
    out: set[int] = set()
    for m in _CRON.finditer(text[:200_000]):
        minutes, hours = _field(m.group(1), 59), _field(m.group(2), 23)
        out |= {h * 60 + mi for h in hours for mi in minutes}
    return out


_RUN_COUNT = re.compile(
    r"(?<![\d.,])(?P<n>\d+)\s+(?:scheduled\s+)?(?:runs?|times|executions?|invocations?|firings?|jobs)"
    r"\s+(?:an?|per|each|every|on\s+(?:a|each|every))\s+(?P<per>hour|day|weekday|working\s+day"
    r"|business\s+day|weekend\s+day|night|morning|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|monday\s+to\s+friday|week|weekend)\b",
    re.IGNORECASE,
)


_WEEK = ("week", "weekend")


def run_count_problems(reading: Reading, texts: list[str]) -> list[str]:
    """A count of a cron schedule's runs per day or per hour ("12 executions per weekday") that
    no schedule the prompt or an output shows gives: `*/15 6-9 * * 1-5` runs 16 times a day."""
    found = [
        (_field(m.group(1), 59), _field(m.group(2), 23), _field(m.group(3), 7))
        for text in texts
        for m in _CRON.finditer(text[:200_000])
    ]
    schedules = [(minutes, hours) for minutes, hours, _ in found if minutes and hours]
    if not schedules:
        return []
    per_day = {len(minutes) * len(hours) for minutes, hours in schedules}
    per_hour = {len(minutes) for minutes, _ in schedules}
    # a week's runs: a day's times each day the day-of-week field selects (0 and 7 are Sunday)
    per_week = {
        len(minutes) * len(hours) * len({d % 7 for d in days})
        for minutes, hours, days in found
        if minutes and hours and days
    }
    for group in reading.groups:
        for clause in group:
            for m in _RUN_COUNT.finditer(clause.text):
                if stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                per = m.group("per").lower()
                allowed = per_hour if per == "hour" else per_week if per in _WEEK else per_day
                if not allowed:
                    continue
                if int(m.group("n")) not in allowed:
                    return [
                        f"count {m.group().strip()!r} is not what the schedule gives "
                        f"({' or '.join(str(n) for n in sorted(allowed))})"
                    ]
    return []
