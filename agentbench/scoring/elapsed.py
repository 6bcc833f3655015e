"""How long something took or how long ago it was, held against the moments the outputs print.

"The incident lasted 53 minutes" where the row reads 07:58:03 to 08:41:17; "it expired about
33 hours ago" where the certificate's notAfter is Nov 28 23:59:59 and the clock reads Nov 29
09:26:41. A duration the answer states in a clause that speaks of elapsed time (lasted, took,
ago, later, after, since, for, between, …) must be one the environment supports: within
rounding of a duration an output, the prompt or a call prints, or of the time between two
moments (or two clock times of one day) that the outputs, the prompt, the environment's clock
and its declared data state. Rounding is one unit
of the figure as written (43 minutes for 43m14s) or 5%; a figure said to be approximate
("about", "~", "over", "nearly") may be 25% off. Left alone when fewer than two moments are
known and no interval is printed (`00:43:14`): a duration from knowledge ("the back-off caps
at 5 minutes") has nothing to be held to.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from itertools import combinations

from agentbench.scoring.clocks import CLOCK_TIME
from agentbench.scoring.quantities import Moment, moments, quantities, unit_base
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at
from agentbench.tasks.model import Environment

_ELAPSED = re.compile(
    r"\b(?:last(?:ed|ing|s)?|took|takes|ago|elapsed|duration|later|earlier|after|since|for|"
    r"between|apart|span\w*|runtime|run\s*time|uptime|old|expired|gap|within|in\s+the\s+past|"
    r"long|until|before|from)\b",
    re.IGNORECASE,
)
_ROUGHLY = re.compile(
    r"(?:about|around|~|≈|roughly|nearly|almost|approx\w*\.?|some|over|under|more\s+than|"
    r"less\s+than|at\s+least|at\s+most|just|up\s+to|close\s+to|circa)\s*$",
    re.IGNORECASE,
)
# the units the quantity reader leaves alone, in seconds: "a six-month certificate"
_LONG_UNITS = {"month": 2629800.0, "months": 2629800.0, "y": 31557600.0, "yr": 31557600.0}
_LONG_UNITS |= {"yrs": 31557600.0, "year": 31557600.0, "years": 31557600.0}
_SPELLED = {"one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "nine": 9, "twelve": 12}
# months and years, which the quantity reader leaves alone: "a six-month certificate"
_LONG = re.compile(
    r"\b(?P<n>\d+|one|two|three|four|six|nine|twelve)[\s-]*(?P<u>months?|years?)\b", re.I
)
# an interval as SQL or ps prints it: 00:43:14, 1 day 02:03:04
_INTERVAL = re.compile(r"(?<![\d:.])(?:(\d+)\s+days?\s+)?(\d{1,3}):([0-5]\d):([0-5]\d)(?![\d:])")
_AGE = re.compile(r"(?<![\w.:/-])(?=\d)(?:\d+d)?(?:\d+h)?(?:\d+m(?!i))?(?:\d+s)?(?![\w.:/-])")
# a field whose name gives its unit: replica_lag_s, timeoutSeconds, duration_ms,
# escalation_after_minutes, retention_days
_KEYED = re.compile(
    r"\b\w*?(_s|_secs?|_seconds|Seconds|_ms|Ms|_millis|_mins?|_minutes|Minutes|_hours?|_hrs"
    r"|Hours|_days|Days)\b\"?\s*[:=]\s*(\d+(?:\.\d+)?)"
)
_KEYED_UNIT = {"ms": 0.001, "millis": 0.001, "min": 60.0, "mins": 60.0, "minutes": 60.0}
_KEYED_UNIT |= {"hour": 3600.0, "hours": 3600.0, "hrs": 3600.0, "days": 86400.0}
_STATUSES = re.compile(r"[1-5]\d\ds")
# a duration printed as an age, how long ago: "7 (4m11s ago)", "Exited (1) 38 minutes ago"
_AGO = re.compile(r"(?:\d+\s*[a-z]*\s*){1,4}ago\b", re.IGNORECASE)
# a clause about how long something ran, which an age does not tell ("each run lasts about
# four minutes", "after running for about 38 minutes")
_LIFETIME = re.compile(
    r"\b(?:last(?:s|ed|ing)|ran|runs|running|lived|lives|surviv\w*|stay(?:s|ed)?\s+up|uptime"
    r"|before\s+(?:being\s+|it\s+(?:is|was|gets|got)\s+)?(?:killed|oom\w*|crash\w*|dying|dies|exit\w*))\b",
    re.IGNORECASE,
)
# a printed duration that is a run's length: "Duration: 8s", "took 00:02:13", "running 4m12s"
_RAN_FOR = re.compile(
    r"\b(?:took|duration|elapsed|runtime|run\s*time|uptime|lasted|ran(?:\s+for)?"
    r"|running(?:\s+for)?|up\s+for)\b"
    r"\W*\S*\W*$",
    re.IGNORECASE,
)
_AGE_WORDS = re.compile(r"\b(?:ago|since|age|old|older)\b", re.IGNORECASE)
_LIMIT = 200  # moments held, per episode


def _unit(said: str) -> float:
    """The size of the smallest unit a written duration names (4m12s: a second)."""
    sizes = []
    for word in re.findall(r"[a-zA-Z]+", said.lower()):
        if word in _LONG_UNITS:
            sizes.append(_LONG_UNITS[word])
            continue
        try:
            dimension, factor = unit_base(word)
        except KeyError:
            continue
        if dimension == "seconds":
            sizes.append(factor)
    return min(sizes) if sizes else 1.0


def _durations(text: str) -> list[tuple[float, float, int, int]]:
    """(seconds, unit, start, end) of every duration written in the text."""
    out = [
        (q.value, _unit(text[q.start : q.end]), q.start, q.end)
        for q in quantities(text)
        if q.dimension == "seconds"
    ]
    for m in _LONG.finditer(text):
        n = m.group("n").lower()
        count = int(n) if n.isdigit() else _SPELLED[n]
        unit = _unit(m.group("u"))
        out.append((count * unit, unit, m.start(), m.end()))
    return out


def _intervals(text: str) -> list[float]:
    """Intervals as SQL prints them (00:43:14), fields named for their unit (`replica_lag_s:
    3`) and ages as kubectl prints them (84m, 3h12m, 9d): the reader of quantities takes a bare
    `84m` for a size."""
    text = text[:200_000]
    out: list[float] = [
        int(m.group(1) or 0) * 86400
        + int(m.group(2)) * 3600
        + int(m.group(3)) * 60
        + int(m.group(4))
        for m in _INTERVAL.finditer(text)
    ]
    out += _keyed_lengths(text)  # "replica_lag_s": 3, timeoutSeconds: 5, took_ms=120
    out += [_seconds(m.group()) for m in _AGE.finditer(text) if m.group()]
    return out


def _instants(found: list[Moment], year: int) -> list[tuple[datetime, bool]]:
    """Each moment as a datetime (a missing year is the episode's), with whether it has a
    clock time (a bare date is only known to the day)."""
    out = []
    for m in found[:_LIMIT]:
        try:
            at = datetime(m.year or year, m.month, m.day, m.hour or 0, m.minute or 0, m.second or 0)
        except ValueError:
            continue
        out.append((at, m.hour is not None))
    return out


_YEAR_AFTER = re.compile(r"\s+(\d{4})\b")


def _with_year(moment: Moment, text: str, end: int) -> Moment:
    """The moment with the year written after its clock ("Nov 28 23:59:59 2026 GMT")."""
    after = _YEAR_AFTER.match(text, end)
    if moment.year is None and after:
        return replace(moment, year=int(after.group(1)))
    return moment


def _clocks(text: str) -> set[int]:
    """Seconds past midnight of every clock time the text writes."""
    return {
        int(h) * 3600 + int(m) * 60 + int(sec or 0)
        for h, m, sec in CLOCK_TIME.findall(text[:200_000])
        if int(h) < 24 and int(m) < 60
    }


def environment_clock(environment: Environment) -> list[str]:
    """The simulated clock ("now") each section of the environment runs on, as written: a
    database declaring none (and no host or cluster to take one from) runs on the default
    clock, which its now() prints."""
    sections = (environment.system, environment.cluster)
    clocks = [str(s.now) for s in sections if s is not None and getattr(s, "now", None)]
    if environment.sql is not None:
        clocks.append(environment.sql.clock)
    return clocks


# an output that prints ages: kubectl's AGE and LAST SEEN columns, "4m11s ago"
_AGED = re.compile(r"\bAGE\b|\bLAST SEEN\b|\bAge\b|\bago\b")


def aged_moments(outputs: list[str], environment: Environment) -> list[str]:
    """The moments the outputs' ages work back to from the environment's clock, as ISO text: a
    pod 22m old at 10:50 UTC was created about 10:28 UTC, a time the answer may state."""
    now = [
        (at, clock.rstrip().endswith(("Z", "+00:00")))
        for clock in environment_clock(environment)
        for at, timed in _instants([m for m, _, _ in moments(clock)], 2026)
        if timed
    ]
    ages: set[float] = set()
    for text in outputs:
        text = text[:200_000]
        if not _AGED.search(text):
            continue
        ages |= {v for m in _AGO.finditer(text) for v in _age_values(m.group())}
        ages |= {_seconds(m.group()) for m in _AGE.finditer(text)}
    return [
        f"{at - timedelta(seconds=age):%Y-%m-%dT%H:%M:%S}{'Z' if utc else ''}"
        for at, utc in now[:2]
        for age in sorted(a for a in ages if a > 0)[:_LIMIT]
    ]


def elapsed_problems(
    reading: Reading, texts: list[str], environment: Environment, required: list[float]
) -> list[str]:
    """Why a duration the answer states is none the environment supports (module docstring;
    empty: each one is). `texts`: the prompt, the calls and their outputs."""
    if not reading.entities.simulated:
        return []
    # what the environment declares counts too: an answer may know a moment it did not print
    sources = [*texts, *environment_clock(environment), reading.entities.global_evidence]
    found = [_with_year(m, t, end) for t in sources for m, _, end in moments(t[:200_000])]
    years = [m.year for m in found if m.year]
    instants = _instants(found, max(set(years), key=years.count) if years else 2026)
    intervals = [v for t in sources for v in _intervals(t)]
    if len({at for at, _ in instants}) < 2 and not intervals:
        return []
    printed = [v for t in sources for v, _, _, _ in _durations(t[:200_000])] + intervals
    gaps = [
        (abs((a - b).total_seconds()), ta and tb) for (a, ta), (b, tb) in combinations(instants, 2)
    ]
    # what a run's length may be: a duration printed as one ("Duration: 8s", "running
    # 4m12s", `uptime_s: 86033`, 00:43:14) or the gap between two moments the outputs print;
    # and what is an age: a duration printed "ago", or a gap from the environment's clock
    unaged = [_AGO.sub(" ", t[:200_000]) for t in texts]
    lengths = [
        v for t in unaged for v, _, start, _ in _durations(t) if _RAN_FOR.search(t[:start][-24:])
    ]
    lengths += [v for t in unaged for v in _keyed_lengths(t)]
    lengths += [
        int(m.group(1) or 0) * 86400 + int(m.group(2)) * 3600 + int(m.group(3)) * 60
        + int(m.group(4))
        for t in unaged
        for m in _INTERVAL.finditer(t)
    ]  # fmt: skip
    read = _instants([_with_year(m, t, e) for t in unaged for m, _, e in moments(t)], 2026)
    spans = [(abs((a - b).total_seconds()), x and y) for (a, x), (b, y) in combinations(read, 2)]
    ages = [v for t in texts for m in _AGO.finditer(t[:200_000]) for v in _age_values(m.group())]
    now = _instants([m for t in environment_clock(environment) for m, _, _ in moments(t)], 2026)
    ages += [abs((a - b).total_seconds()) for a, _ in now for b, _ in read]
    # clock times without a date ("at 08:00" in the prompt, "10:00 UTC" in a file): the gap
    # between them on one day
    clocks = sorted({c for t in sources for c in _clocks(t)})[:_LIMIT]
    gaps += [(float(b - a), True) for a, b in combinations(clocks, 2)]
    for group in reading.groups:
        for clause in group:
            cued = bool(_ELAPSED.search(clause.text))
            for value, unit, start, end in _durations(clause.text):
                if _STATUSES.fullmatch(clause.text[start:end]):
                    continue  # "the 503s": responses, not seconds
                if not cued and unit < _LONG_UNITS["month"]:
                    continue  # months and years are always elapsed time ("a six-month cert")
                if stance_at(clause, (start, end)) is not Stance.asserted:
                    continue
                said = clause.text[start:end]
                if any(abs(value - r) < 1e-6 for r in required):
                    continue
                rough = bool(_ROUGHLY.search(clause.text[:start]))
                lifetime = _LIFETIME.search(clause.text) and not _AGE_WORDS.search(clause.text)
                if (
                    lifetime
                    and not _supported(value, unit, rough, lengths, spans)
                    and _supported(value, unit, rough, ages, [])
                ):
                    return [
                        f"duration {said!r} is how long ago something happened (an age), "
                        "not how long it ran"
                    ]
                if _supported(value, unit, rough, printed, gaps) or _bare(said, texts):
                    continue
                return [
                    f"duration {said!r} is no time between the moments read, nor a duration "
                    "any output prints"
                ]
    return []


def _age_values(said: str) -> list[float]:
    """Seconds of a duration printed as an age: "4m11s ago", "38 minutes ago"."""
    found = [v for v, _, _, _ in _durations(said)]
    if re.search(r"\d[dhms](?![a-z])", said):
        found.append(_seconds(said, r"(\d+)([dhms])(?![a-z])"))
    return found


_UNIT_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def _seconds(age: str, pattern: str = r"(\d+)([dhms])") -> float:
    """Seconds of an age as kubectl writes it: 3h12m, 4m11s, 9d."""
    return float(sum(int(n) * _UNIT_SECONDS[u] for n, u in re.findall(pattern, age)))


def _keyed_lengths(text: str) -> list[float]:
    """Seconds of the fields named for their unit: `uptime_s: 86033`, `duration_ms=120`."""
    return [float(m.group(2)) * _keyed_unit(m.group(1)) for m in _KEYED.finditer(text)]


def _keyed_unit(suffix: str) -> float:
    """Seconds in the unit a field's name ends with (`_ms`, `Minutes`, `_days`)."""
    word = suffix.lstrip("_").lower()
    return 0.001 if word in ("ms", "millis") else _KEYED_UNIT.get(word, 1.0)


def _bare(said: str, sources: list[str]) -> bool:
    """Whether the figure as written (three digits or more) is a bare number a call or output
    prints (`max-age=7200`,
    `lag_seconds: 5`, `-checkend 1209477`): its unit is the field's."""
    number = re.match(r"\d[\d,]*(?:\.\d+)?", said)
    if number is None or len(number.group().replace(",", "")) < 3:
        return False  # "30" is printed somewhere in most outputs
    digits = re.escape(number.group().replace(",", ""))
    token = re.compile(r"(?<![\w./-])(?<!\d:)" + digits + r"(?![\w./-]|:\d)")
    return any(token.search(t[:200_000]) for t in sources)


def _supported(
    said: float, unit: float, rough: bool, printed: list[float], gaps: list[tuple[float, bool]]
) -> bool:
    def near(value: float, slack: float = 0.0) -> bool:
        share = 0.25 if rough else 0.05
        return abs(said - value) <= max(unit, share * value, slack)

    if any(near(p) for p in printed):
        return True
    # a bare date is known to the day: it supports days, weeks and months, not "30 ms"
    return any(
        near(gap, 0.0 if timed else 86400.0) for gap, timed in gaps if timed or unit >= 86400
    )
