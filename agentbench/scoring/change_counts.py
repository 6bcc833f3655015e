"""How many things the answer says were changed, held against the change log.

"4 pods were evicted", "deleted three resources", "restarted both replicas": a count of
changes the answer asserts must be the number the episode recorded of that action (on that
kind, where the noun names one). Counts of what was read or found ("3 pods are left") are not
changes and are left to the answer's other checks.
"""

from __future__ import annotations

import re

from agentbench.scoring.reading import Reading
from agentbench.scoring.spelled import with_digits
from agentbench.scoring.stance import Stance, stance_at
from agentbench.sim.core.base import Change

# verb -> the change actions that carry it out
_VERBS: dict[str, frozenset[str]] = {
    "evict": frozenset({"evict"}),
    "delet": frozenset({"delete"}),
    "remov": frozenset({"delete"}),
    "restart": frozenset({"restart", "rollout-restart", "try-restart", "reload-or-restart"}),
    "cordon": frozenset({"cordon"}),
    "drain": frozenset({"drain"}),
    "scal": frozenset({"scale"}),
    "truncat": frozenset({"truncate", "write"}),
    "kill": frozenset({"kill"}),
}
_VERB = r"(?P<verb>evict|delet|remov|restart|cordon|drain|scal|truncat|kill)(?:ed|d)\b"
# a noun of cluster objects or files, and the change-target kind it names
_NOUNS = {
    "pod": "pod/",
    "deployment": "deployment/",
    "service": "service/",
    "node": "node/",
    "file": "",
    "object": "",
    "resource": "",
    "replica": "pod/",
    "container": "",
    "job": "job/",
}
_NOUN = r"(?P<noun>" + "|".join(_NOUNS) + r")s?\b"
_N = r"(?P<n>\d{1,4})"
_COUNTED = (
    re.compile(  # "4 pods were evicted"
        rf"\b{_N}\s+(?:\w+\s+){{0,2}}?{_NOUN}\s+(?:(?:were|was|got|have been|had been)\s+)?"
        rf"(?:\w+\s+)?{_VERB}",
        re.IGNORECASE,
    ),
    re.compile(  # "evicted all 3 pods"
        rf"\b{_VERB}\s+(?:\w+\s+){{0,2}}?(?:all\s+)?{_N}\s+(?:[\w-]+\s+){{0,2}}?{_NOUN}",
        re.IGNORECASE,
    ),
)


def change_count_problems(reading: Reading, changes: list[Change]) -> list[str]:
    """Why a count of changes the answer asserts is not the recorded one (empty: none is)."""
    if not changes:
        return []  # nothing changed: a claimed action fails on its own (actions.py)
    for group in reading.groups:
        for clause in group:
            text = with_digits(clause.text)  # "three pods were evicted"
            same = len(text) == len(clause.text)
            for m in (m for p in _COUNTED for m in p.finditer(text)):
                if stance_at(clause, m.span() if same else (0, 0)) is not Stance.asserted:
                    continue
                verb = m.group("verb").lower()
                kind = _NOUNS[m.group("noun").lower()]
                done = [
                    ch for ch in changes if ch.action in _VERBS[verb] and ch.target.startswith(kind)
                ]
                said = int(m.group("n"))
                if done and said != len(done):
                    return [
                        f"says {m.group().strip()!r}, but the episode recorded "
                        f"{len(done)} such change(s)"
                    ]
    return []
