"""A time said of a log event is the time of a record that holds the event.

"The TimeoutError was first logged at 14:05:03" where the 14:05:03 line is the slow-checkout
WARNING and the first TimeoutError comes at 14:05:31: a right time of the wrong line. The
outputs are cut into records (a line that starts with a timestamp, with the lines after it that
start with none, as a traceback hangs under its line); a clause that gives a clock time beside
an event the records name (an exception class or a severity word, or the one the sentence
before named, for a clause that opens with "it") is held to a record that states that time and
holds that event, whenever some record states the time and some record holds the event: the
time of one beside the name of the other fails. A time no record states is left to the clock
checks, and a denied or hedged statement is no claim.
"""

from __future__ import annotations

import re

from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at

# a record's first line: an ISO stamp, syslog's "Nov 29 14:05:03", a bracketed or bare clock
_STAMPED = re.compile(
    r"^\W{0,2}(?:\d{4}-\d\d-\d\d[T ]|[A-Z][a-z]{2}\s+\d{1,2}\s+|\d{1,2}/[A-Z][a-z]{2}/\d{4}:)?"
    r"(\d{1,2}):(\d\d)(?::(\d\d))?"
)
_CLOCK = re.compile(r"(?<![\d:.])(\d{1,2}):(\d\d)(?::(\d\d))?(?![\d:])")
# what names an event distinctively: an exception class, a severity word
_EVENT = re.compile(
    r"\b[A-Z][A-Za-z]+(?:Error|Exception|Timeout)\b"
    r"|\b(?:ERROR|WARN|WARNING|FATAL|PANIC|CRITICAL|CRIT|EMERG|ALERT|SEVERE)\b"
)
# a clause that speaks of the last sentence's event by a pronoun: "It was first logged at ..."
_PRONOUN = re.compile(r"^\W*(?:it|this|that|the\s+(?:error|exception|failure))\b", re.IGNORECASE)
_MAX_RECORDS = 20_000


def _records(outputs: list[str]) -> list[tuple[tuple[int, int, int | None], str]]:
    """((hour, minute, second), text) of each timestamped record of the outputs."""
    out: list[tuple[tuple[int, int, int | None], str]] = []
    for text in outputs:
        current: list[str] | None = None
        stamp: tuple[int, int, int | None] = (0, 0, None)
        for line in text[:200_000].splitlines():
            m = _STAMPED.match(line)
            if m and int(m.group(1)) < 24:
                if current is not None:
                    out.append((stamp, "\n".join(current)))
                second = int(m.group(3)) if m.group(3) else None
                stamp, current = (int(m.group(1)), int(m.group(2)), second), [line]
            elif current is not None:
                current.append(line)
            if len(out) >= _MAX_RECORDS:
                return out
        if current is not None:
            out.append((stamp, "\n".join(current)))
    return out


def _at(stamp: tuple[int, int, int | None], hour: int, minute: int, second: int | None) -> bool:
    return stamp[:2] == (hour, minute) and (second is None or stamp[2] in (None, second))


def stamp_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """A clock time given beside an event that the records place at other times (module
    docstring; empty: none is)."""
    records = _records(outputs)
    if not records:
        return []
    before: list[re.Match[str]] = []
    for group in reading.groups:
        for c, clause in enumerate(group):
            text = clause.text
            events = [m for m in _EVENT.finditer(text)]
            if not events and c == 0 and before and _PRONOUN.match(text):
                events = before[-1:]  # "... `TimeoutError: ...`. It was first logged at 14:05:03"
            if not events:
                continue
            for clock in _CLOCK.finditer(text):
                hour, minute = int(clock.group(1)), int(clock.group(2))
                second = int(clock.group(3)) if clock.group(3) else None
                if hour > 23:
                    continue
                own = [e for e in events if e.string is text]
                nearest = min(own, key=lambda e: _distance(e, clock)) if own else events[0]
                event = nearest.group()
                holding = [stamp for stamp, body in records if event in body]
                stated = [body for stamp, body in records if _at(stamp, hour, minute, second)]
                if not holding or not stated or any(event in body for body in stated):
                    continue
                if stance_at(clause, clock.span()) is not Stance.asserted:
                    continue
                when = ", ".join(
                    sorted(
                        {
                            f"{h:02d}:{m:02d}" + (f":{s:02d}" if s is not None else "")
                            for h, m, s in holding
                        }
                    )[:3]
                )
                return [
                    f"gives {clock.group()} for {event!r}, but the record at {clock.group()} "
                    f"does not hold it (it is logged at {when})"
                ]
        sentence_events = [m for clause in group for m in _EVENT.finditer(clause.text)]
        before = sentence_events or before
    return []


def _distance(event: re.Match[str], clock: re.Match[str]) -> int:
    return min(abs(event.start() - clock.end()), abs(clock.start() - event.end()))
