"""Clock times the answer labels with a zone, held against the moments the tool outputs state
(the runs of cron schedules: agentbench.scoring.cron).

- A time given in one zone where an output states the same clock time in another (and no
  output states the moment it names) is off by the difference: "expired at 23:59:59 CET" for
  a certificate's "23:59:59 GMT".
- A time labelled UTC (or Z, GMT) must be a moment the prompt or an output states, in any
  zone or none (a log's bare `02:02:11`): "in maintenance until 17:00 UTC" where the API said
  15:00 UTC is a wrong time, not a reading (a cron schedule's run times count as stated). A
  time in another zone must name a stated instant too, or be a clock some output wrote:
  "07:59:59 PST" for a notAfter of 23:59:59 GMT turned the conversion's sign around.
  A clock time with no zone ("the last run was at 18:00", "7:42 pm") must be a moment stated
  too, or a time some output wrote as it stands in its own zone; a duration ("took 00:02:13",
  "02:30 elapsed") and a time inside code (`--since 18:00`) are not clock times.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from agentbench.scoring.cron import cron_times
from agentbench.scoring.quantities import Moment, moments
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at
from agentbench.scoring.zones import zone_offset, zones_named


def _zone_after(text: str, end: int) -> timedelta | None:
    """The zone labelling the clock that ends at `end`, a year between them skipped
    ("23:59:59 2026 GMT", as openssl prints it)."""
    return zone_offset(re.sub(r"^\s*\d{4}\b", "", text[end : end + 24]))


def _zoned(text: str) -> list[tuple[tuple[int | None, int, int, int, int, int | None], float]]:
    """((year, month, day, hour, minute, second), UTC offset in hours) of every clock time
    the text labels with a zone ("23:59:59 CET", "2026-11-23T14:00Z", "Nov 28 23:59:59 2026
    GMT", the year between the clock and its zone as openssl prints it)."""
    out = []
    for m, _, end in moments(text[:200_000]):
        if m.hour is None or m.minute is None:
            continue
        offset = _zone_after(text, end)
        if offset is not None:
            out.append(
                (
                    (m.year, m.month, m.day, m.hour, m.minute, m.second),
                    offset.total_seconds() / 3600,
                )
            )
    return out


CLOCK_TIME = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?(?![\d:])")


def _zoned_clocks(
    text: str,
) -> list[tuple[tuple[int | None, int | None, int | None, int, int, int | None], float]]:
    """Every clock time of an answer's clause labelled with a zone, dated by the clause's
    date where it names one ("23:59:59 CET on 28 Nov 2026"), else undated."""
    dates = [m for m, _, _ in moments(text)]
    day = (dates[0].month, dates[0].day) if dates else (None, None)
    out = []
    for m in CLOCK_TIME.finditer(text):
        offset = _zone_after(text, m.end())
        if offset is None:
            continue
        second = int(m.group(3)) if m.group(3) else None
        out.append(
            ((None, *day, int(m.group(1)), int(m.group(2)), second), offset.total_seconds() / 3600)
        )
    return out


def zone_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """A clock time the answer labels with a zone where a tool output states the same clock
    time in another zone (and no output states the moment it names): "expired at 23:59:59
    CET" for a certificate's "23:59:59 GMT" is an hour off."""
    if not reading.entities.simulated:
        return []
    stated = [z for text in outputs for z in _zoned(text)]
    if not stated:
        return []
    for group in reading.groups:
        for clause in group:
            for (_, mo, d, h, mi, s), offset in _zoned_clocks(clause.text):
                same_clock = [
                    o
                    for (sy, smo, sd, sh, smi, ss), o in stated
                    if (sh, smi) == (h, mi)
                    and (s is None or ss is None or s == ss)
                    and (d is None or (smo, sd) == (mo, d))
                ]
                if not same_clock or any(abs(o - offset) < 0.01 for o in same_clock):
                    continue
                instant = h * 60 + mi - offset * 60  # minutes, UTC
                if any(
                    abs((sh * 60 + smi - so * 60) - instant) < 0.5
                    and (d is None or (smo, sd) == (mo, d))
                    for (_, smo, sd, sh, smi, _), so in stated
                ):
                    continue
                return [
                    f"time {h:02d}:{mi:02d} is given in UTC{offset:+g}, but the environment "
                    f"states it in UTC{same_clock[0]:+g}"
                ]
    return []


def _instants(texts: list[str]) -> tuple[set[int], set[int]]:
    """Minutes past midnight UTC of every clock time the texts state: a zoned one at its
    instant, a bare one (a log's local stamp) as written, and the run times of a cron
    schedule; and apart, every clock time as written whatever its zone (an answer may give a
    log's `03:00 CET` as "03:00")."""
    out: set[int] = set()
    written: set[int] = set()
    for text in texts:
        out |= cron_times(text)
        for (_, _, _, h, mi, _), hours in _zoned(text):
            out.add(round(h * 60 + mi - hours * 60) % 1440)
        for m in CLOCK_TIME.finditer(text[:200_000]):
            if int(m.group(1)) < 24 and int(m.group(2)) < 60:
                zone = zone_offset(text[m.end() : m.end() + 16])
                shift = round(zone.total_seconds() / 60) if zone is not None else 0
                written.add(_minutes(m))
                out.add((_minutes(m) - shift) % 1440)
    return out, written


def unstated_time_problems(reading: Reading, texts: list[str]) -> list[str]:
    """A UTC or unzoned clock time the answer asserts that no text states (within a minute):
    the prompt, what was read or changed, and the calls' own arguments (a window's bound). An
    unzoned time may also be one an output wrote in its own zone; durations and code are not
    clock times."""
    if not reading.entities.simulated:
        return []
    seen: set[int] | None = None
    written: set[int] = set()
    # zones the answer names: a time it converted into one of them ("05:10:52" under a CET
    # column for a log's 04:10:52 UTC; "08:41:17 UTC" for a query's Berlin 09:41:17)
    shifts = [round(h * 60) for h in _answer_zones(reading)]
    for s, group in enumerate(reading.groups):
        for clause in group:
            for m in CLOCK_TIME.finditer(clause.text):
                offset = _zone_after(clause.text, m.end())
                shift = round(offset.total_seconds() / 60) if offset is not None else 0
                at = _bare_clock(clause.text, m) if offset is None else _minutes(m)
                if at == 0 or (at == _DAY_END and _RANGE.search(reading.sentence(s))):
                    continue  # "from 2026-11-16 00:00 UTC to 2026-11-22 23:59:59 UTC": bounds
                if at is None or stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                if seen is None:
                    seen, written = _instants(texts)
                # a bare time may be any stated moment, or a time as some output wrote it
                stated = seen | written if offset is None else seen
                near = {(at - 1) % 1440, at, (at + 1) % 1440}
                if offset is None:  # a bare time in a zone the answer names, of a moment read
                    near |= {(t - z) % 1440 for t in list(near) for z in shifts}
                    hit = near & stated
                elif shift:  # "07:59:59 PST": the instant it names, or a clock some output wrote
                    hit = {(t - shift) % 1440 for t in near} & seen or near & written
                else:  # a UTC time the answer converted from a local time an output wrote
                    local = {(t + z) % 1440 for t in near for z in shifts}
                    hit = near & stated or local & written
                if not hit:
                    zone = "" if offset is None else f" UTC{shift / 60:+g}" if shift else " UTC"
                    return [f"time {m.group()}{zone} is stated in no call, output or the prompt"]
    return []


_DAY_END = 23 * 60 + 59  # a range's last minute ("... to Sunday 23:59:59"), not a moment read
_RANGE = re.compile(r"\b(?:between|from|through|thru)\b|\d\s*(?:–|—|-|to)\s*\w|00:00", re.I)
_DURATION_LEAD = re.compile(
    r"(?:\b(?:took|takes|lasted|lasting|after|for|of|elapsed|duration|uptime|runtime|up|in|every)"
    r"|[`'\"=])\s*$",
    re.IGNORECASE,
)
_ROUGHLY = re.compile(
    r"(?:\b(?:around|about|approximately|roughly|circa|near|by)|~)\s*(?:at\s+)?$", re.IGNORECASE
)
_DURATION_TAIL = re.compile(
    r"^\s*(?:elapsed|long|of\s+(?:cpu|runtime|uptime)|cpu|h\b|hours?|min)", re.IGNORECASE
)


def _minutes(m: re.Match[str]) -> int:
    return int(m.group(1)) * 60 + int(m.group(2))


def _bare_clock(text: str, m: re.Match[str]) -> int | None:
    """Minutes past midnight of a clock time written with no zone ("on Nov 28 at 18:00",
    "7:42 pm"), or None where it reads as a duration or a code fragment ("took 00:02:13",
    "`--since 18:00`")."""
    hour, minute = divmod(_minutes(m), 60)
    if hour > 23 or minute > 59 or text[: m.start()].count("`") % 2:
        return None
    if hour == minute == 0:
        return None  # midnight: any date's bound ("stops at Sunday 00:00:00")
    if re.search(r"[\w.:/@+-]$", text[: m.start()]) or re.match(r"[\w/]", text[m.end() :]):
        return None  # "10.96.0.10:53", "+00:00", "v1:20": an address, an offset, a name
    if _DURATION_LEAD.search(text[max(0, m.start() - 12) : m.start()]):
        return None
    if _ROUGHLY.search(text[max(0, m.start() - 16) : m.start()]):
        return None  # "retries around 16:00": an estimate, maybe derived (15:00 + 3600 s)
    if _DURATION_TAIL.match(text[m.end() : m.end() + 16]):
        return None
    half = re.match(r"\s*([ap])\.?m\b", text[m.end() : m.end() + 6], re.IGNORECASE)
    if half:
        hour = hour % 12 + (12 if half.group(1).lower() == "p" else 0)
    return hour * 60 + minute


_HALF_DAY = re.compile(r"(?<![\d:])(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)


def half_day_problems(reading: Reading, texts: list[str]) -> list[str]:
    """A 12-hour clock time read in the wrong half of the day: "3 PM" where the texts state
    03:00 (a cron schedule's hour 3) and never 15:00."""
    seen: set[int] | None = None
    for group in reading.groups:
        for clause in group:
            for m in _HALF_DAY.finditer(clause.text):
                hour, minute = int(m.group(1)), int(m.group(2) or 0)
                if not 1 <= hour <= 12 or minute > 59:
                    continue
                if stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                at = (hour % 12 + (12 if m.group(3).lower() == "p" else 0)) * 60 + minute
                seen = _instants(texts)[0] if seen is None else seen
                if at not in seen and (at + 720) % 1440 in seen:
                    flipped = (at + 720) % 1440
                    return [
                        f"time {m.group().strip()} is {at // 60:02d}:{at % 60:02d}, but what was "
                        f"read states {flipped // 60:02d}:{flipped % 60:02d}"
                    ]
    return []


def dated_clock_problems(reading: Reading, texts: list[str]) -> list[str]:
    """A clock time the answer dates by the one date its sentence names, where what was read
    states that clock time only on other days: "declined three times on 2026-11-06
    (21:16:51-21:16:53)" where the attempts were on the 6th, 7th and 8th."""
    if not reading.entities.simulated:
        return []
    dated: dict[tuple[int, int, int | None], set[tuple[int, int]]] = {}
    undated: set[tuple[int, int, int | None]] = set()
    # zones the answer names: a moment read in UTC may be given on its day there ("28 Nov
    # 20:42 Berlin time" for 2026-11-28T19:42:13Z)
    shifts = [timedelta(hours=h) for h in _answer_zones(reading)]
    for text in texts:
        text = text[:200_000]
        spans = []
        for m, start, end in moments(text):
            spans.append((start, end))
            if m.hour is not None and m.minute is not None:
                dated.setdefault((m.hour, m.minute, m.second), set()).add((m.month, m.day))
                for local in _in_zones(m, _zone_after(text, end), shifts):
                    key = (local.hour, local.minute, m.second and local.second)
                    dated.setdefault(key, set()).add((local.month, local.day))
        for c in CLOCK_TIME.finditer(text):
            if not any(a <= c.start() < b for a, b in spans):
                undated.add(_clock(c))
    if not dated:
        return []
    for group in reading.groups:
        sentence = next((c.sentence for c in group if c.sentence), "")
        found = moments(sentence)
        for clause in group:
            at = sentence.find(clause.text)
            for day, clock, start, end in _dated_in(sentence, found, clause.text, at):
                on = {d for k, ds in dated.items() if _agree(k, clock) for d in ds}
                if not on or day in on or any(_agree(u, clock) for u in undated):
                    continue
                if _past_midnight(day, clock[0], on):
                    continue  # "started on Nov 6 at 23:58 and ended 00:02": the next day's
                if clock[:2] == (0, 0):
                    continue  # "from 2026-11-16 00:00": a day's boundary, not a read event
                if _offset_days(day, on) & spans_of_days(texts, reading):
                    continue  # "now 11-29 09:30, so the cutoff is 10-30 09:30": 30 days back
                if stance_at(clause, (start, end)) is not Stance.asserted:
                    continue
                others = ", ".join(f"{mo:02d}-{d:02d}" for mo, d in sorted(on))
                said = clause.text[start:end]
                return [
                    f"time {said} is dated {day[0]:02d}-{day[1]:02d}, but what was read states "
                    f"it on {others}"
                ]
    return []


def _answer_zones(reading: Reading) -> list[float]:
    """The UTC offsets, in hours, of the zones other than UTC the answer names."""
    whole = " ".join(reading.sentence(s) for s in range(len(reading.groups)))
    return [h for h in zones_named(whole) if h]


def _in_zones(m: Moment, offset: timedelta | None, shifts: list[timedelta]) -> list[datetime]:
    """The moment as each of the zones shifted to would show it (none where it has no zone)."""
    if offset is None or not shifts:
        return []
    try:
        at = datetime(m.year or 2026, m.month, m.day, m.hour or 0, m.minute or 0, m.second or 0)
    except ValueError:
        return []
    return [at - offset + shift for shift in shifts]


_DAYS_SAID = re.compile(r"\b(\d{1,3})[\s-]*(?:days?|d)\b", re.IGNORECASE)
_WEEKS_SAID = re.compile(r"\b(\d{1,2})[\s-]*weeks?\b", re.IGNORECASE)


def spans_of_days(texts: list[str], reading: Reading) -> set[int]:
    """The whole numbers of days (and weeks, as days) the texts or the answer state: the
    offsets a date may be worked out by ("interval '30 days'", "a 7-day window")."""
    said = "\n".join([*texts, *(c.text for g in reading.groups for c in g)])[:400_000]
    days = {int(m.group(1)) for m in _DAYS_SAID.finditer(said)}
    return days | {7 * int(m.group(1)) for m in _WEEKS_SAID.finditer(said)}


def _offset_days(day: tuple[int, int], on: set[tuple[int, int]]) -> set[int]:
    """How many days (ignoring leap years) `day` lies from each of `on`, either way."""
    def ordinal(md: tuple[int, int]) -> int:
        return date(2001, md[0], min(md[1], 28 if md[0] == 2 else md[1])).toordinal()

    out = set()
    for other in on:
        gap = abs(ordinal(day) - ordinal(other))
        out |= {gap, 365 - gap}
    return out - {0}


def _dated_in(
    sentence: str, found: list[tuple[Moment, int, int]], clause: str, at: int
) -> list[tuple[tuple[int, int], tuple[int, int, int | None], int, int]]:
    """(day, clock, start, end in the clause) of every clock time of the clause with its date:
    a moment that carries both ("02:13:48 on 2026-11-23"), or a bare clock time after the one
    date the sentence names, within 100 characters ("on 2026-11-06 (21:16:51-21:16:53)")."""
    if at < 0:
        return []
    out = []
    ahead = bool(_AHEAD.search(clause))  # "the next run is at 02:00 on Nov 24": not yet read
    for m, start, end in found:
        inside = at <= start and end <= at + len(clause)
        if m.hour is not None and m.minute is not None and inside and not ahead:
            out.append(((m.month, m.day), (m.hour, m.minute, m.second), start - at, end - at))
    days = {(m.month, m.day) for m, _, _ in found if m.hour is None}
    if len(days) != 1 or any(m.hour is not None for m, _, _ in found):
        return out  # no date, several, or times that carry their own
    if any(_MORE_DAYS.match(sentence, end) for _, _, end in found):
        return out  # "on Nov 6, 7 and 8": several days, one spelled out
    if _OTHER_DAYS.search(sentence):
        return out  # "from Friday 18:00 until Monday 14:00, so on 2026-11-16": days by name
    (day,) = days
    dated_at = found[0][2]
    for c in CLOCK_TIME.finditer(clause):
        if dated_at <= at + c.start() <= dated_at + 100:
            out.append((day, _clock(c), c.start(), c.end()))
    return out


_AHEAD = re.compile(
    r"\b(?:next|will|tomorrow|scheduled|due|expected|planned|upcoming)\b", re.IGNORECASE
)
_OTHER_DAYS = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|yesterday|today|tomorrow|tonight|previous"
    r"|prior|next|earlier|later|before|after)\b",
    re.IGNORECASE,
)
_MORE_DAYS = re.compile(
    r"(?:\s*,\s*\d{1,2}(?:st|nd|rd|th)?)*\s*,?\s*(?:and|&|to|through|-|–)\s*\d{1,2}\b(?!:)"
)


def _clock(m: re.Match[str]) -> tuple[int, int, int | None]:
    return int(m.group(1)), int(m.group(2)), int(m.group(3)) if m.group(3) else None


def _agree(a: tuple[int, int, int | None], b: tuple[int, int, int | None]) -> bool:
    return a[:2] == b[:2] and (a[2] is None or b[2] is None or a[2] == b[2])


def _past_midnight(day: tuple[int, int], hour: int, on: set[tuple[int, int]]) -> bool:
    """Whether a clock time near midnight may lie on the day after (or before) the one named."""
    try:
        named = date(2000, *day)
    except ValueError:
        return False
    after, before = named + timedelta(days=1), named - timedelta(days=1)
    return ((after.month, after.day) in on and hour < 3) or (
        (before.month, before.day) in on and hour >= 21
    )
