"""An exit status decoded into the wrong signal: a process killed by signal N exits 128 + N, so
"exit code 137 means it got SIGTERM" is wrong whatever the outputs say (137 is SIGKILL, 9;
SIGTERM gives 143). Like a weekday of a date, this is arithmetic a reader checks on sight.

A status and a signal are paired when the status is written as one ("exit code 137", "exited
137", "status 143", "137 (…)") and the nearest signal named after it in the same sentence, with
no other status between, is the one it is said to mean; "signal 9 (SIGTERM)" pairs a number
with a name the same way. A sentence that points back ("That's the exit code 143.") pairs its
status with the last signal the sentence before it named ("the kubelet SIGKILLed the JVM").
"""

from __future__ import annotations

import re

from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance

SIGNALS = {
    "HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "IOT": 6, "BUS": 7,
    "FPE": 8, "KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14,
    "TERM": 15,
}  # fmt: skip
# a signal's name, also as a verb: "the kubelet SIGKILLed the JVM"
_NAME = re.compile(r"\bSIG(" + "|".join(SIGNALS) + r")(?:ed|'d)?\b", re.IGNORECASE)
# a sentence that points back at what the one before it said: "That's the exit code 143."
_POINTS_BACK = re.compile(
    r"^\W*(?:that|this|which|it)(?:'s|\s+is|\s+was|\s+explains|\s+gives|\s+is\s+why)\b",
    re.IGNORECASE,
)
# an exit status of a killed process: 129..159 written as a status
_STATUS = re.compile(
    r"\b(?:exit(?:ed|s)?(?:\s+(?:with|code|status))*|code|status|returned|rc)[\s:=*`_]*"
    r"(?:of\s+)?(1(?:29|[3-5]\d))\b",
    re.IGNORECASE,
)
_SIGNAL_NUMBER = re.compile(r"\bsignal\s+(\d{1,2})\b", re.IGNORECASE)
_WINDOW = 80  # characters after the status within which its signal is named


def _named_after(text: str, at: int) -> re.Match[str] | None:
    """The first signal name after `at`, within the window and before any other status."""
    window = text[at : at + _WINDOW]
    stop = _STATUS.search(window)
    found = _NAME.search(window)
    if found is None or (stop is not None and stop.start() < found.start()):
        return None
    return found


def _last_named(text: str) -> re.Match[str] | None:
    """The last signal named in a sentence, when no status follows it there."""
    names = list(_NAME.finditer(text))
    if not names or _STATUS.search(text, names[-1].end()):
        return None
    return names[-1]


def signal_problems(reading: Reading) -> list[str]:
    """A status or signal number said to mean a signal it is not."""
    for s in range(len(reading.groups)):
        text = reading.sentence(s)
        pairs = [(m, int(m.group(1)) - 128) for m in _STATUS.finditer(text)]
        pairs += [(m, int(m.group(1))) for m in _SIGNAL_NUMBER.finditer(text)]
        for found, number in pairs:
            name, at = _named_after(text, found.end()), s
            if name is None and s and _POINTS_BACK.match(text):
                name, at = _last_named(reading.sentence(s - 1)), s - 1
            if name is None or SIGNALS[name.group(1).upper()] == number:
                continue
            if reading.stance_of(at, name.group()) is not Stance.asserted:
                continue
            return [
                f"{found.group().strip()!r} is signal {number}, not "
                f"{name.group().upper()} ({SIGNALS[name.group(1).upper()]})"
            ]
    return []
