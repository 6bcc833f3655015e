"""Cause and effect swapped: the cause the task asks for stated as the symptom of a symptom.

A diagnosis names a cause (a lexicon cause, a typo, a full disk) and what it brings about (crash
loops, restarts, evictions, 5xx responses). An answer can hold every required fact and still
run the chain backwards: "the Corefile warning is a side effect of the restart loop", "the disk
pressure is a consequence of the evictions", "the 502s are the root problem". Two readings fail:

- a required fact stated as the consequence, symptom or side effect of a symptom that holds no
  required fact ("X is a side effect of Y");
- a symptom that holds no required fact named the root cause ("the 503s are the root error",
  "root cause: the restarts").

What counts as a symptom is the lexicon's `state` entries (crash loop, evicted, unhealthy, not
ready) plus HTTP error statuses and the words for crashes, restarts, retries and evictions. A
negated or conditional sentence ("the 502s are not the root cause") asserts neither.
"""

from __future__ import annotations

import re

from agentbench.scoring.assertions import predicate
from agentbench.scoring.lexicon import lexicon
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at
from agentbench.tasks.expect_answer import Fact

_NOUN = r"(?:side[\s-]?effects?|symptoms?|consequences?|results?|by-?products?|effects?|fallout)"
_DEMOTED = re.compile(
    r"(?P<effect>[^.;:!?]{3,200}?)\s+(?:is|are|was|were)\s+(?:(?:just|merely|only|simply|all|"
    r"really|actually|likely|probably)\s+)*(?:a|an|the)\s+(?:(?:downstream|secondary|knock-on|"
    r"direct|mere)\s+)?" + _NOUN + r"\s+(?:of|from)\s+(?P<cause>[^.;!?]{2,200})",
    re.IGNORECASE,
)
_ROOTED = re.compile(
    r"(?P<root>[^.;:!?]{3,160}?)\s+(?:is|are|was|were)\s+(?:(?:really|actually|clearly)\s+)*"
    r"the\s+(?:(?:real|actual|underlying|true)\s+)?root(?:[\s-]+(?:cause|problem|error|issue|"
    r"failure))?\b"
    r"|\broot[\s-]+cause\s*(?:is|was|:|=)\s*(?P<named>[^.;!?]{3,200})",
    re.IGNORECASE,
)
# the statement's own stance (scoring.stance) decides negation and hedges; a condition inside
# the match ("if the 502s are the root cause") asserts nothing either
_LABEL = re.compile(r"\W*(?:the\s+)?(?:likely\s+|probable\s+)?root[\s-]+cause\W*", re.IGNORECASE)
_IF = re.compile(r"\b(?:if|whether|unless)\b", re.IGNORECASE)
_SYMPTOM_WORDS = re.compile(
    r"\b(?:[45]\d\d(?:s|'s)?|[45]xx)\b(?!\s*(?:Mi|Gi|MB|GB|ms|s\b|seconds?|bytes))"
    r"|\b(?:crash\w*|restart\w*|retr(?:y|ies|ied)|retry[\s-]storm|evict\w*|exits?|exited)\b",
    re.IGNORECASE,
)

# where the label's cause was read, not the cause: "Root cause (from the failed pod's log)"
_SOURCE = re.compile(
    r"\W*(?:from|per|according\s+to|as\s+(?:seen|shown)\s+in|see|via|based\s+on|in)\b",
    re.IGNORECASE,
)

# the cause named ends its noun phrase at a comma, a colon or a relative clause
_CUT = re.compile(
    r"[:,(]|\s(?:which|and|but|where|while|that\s+(?:is|are|was|were))\s", re.IGNORECASE
)


def _symptom(text: str) -> bool:
    """A symptom, and no lexicon cause ("the probe failures" is a cause, not a state)."""
    entries = lexicon().values()
    if any(e.kind == "cause" and e.span(text) is not None for e in entries):
        return False
    if _SYMPTOM_WORDS.search(text):
        return True
    return any(e.kind == "state" and e.span(text) is not None for e in entries)


def causality_problems(reading: Reading, required: list[Fact]) -> list[str]:
    """Cause and effect swapped (module docstring)."""
    finds = [f for fact in required if (f := predicate(fact)[0]) is not None]
    if not finds:
        return []

    def holds_fact(text: str) -> bool:
        return any(find(text) is not None for find in finds)

    for group in reading.groups:
        for c, clause in enumerate(group):
            if _LABEL.fullmatch(clause.text) and c + 1 < len(group):  # "Root cause: the 502s."
                named = group[c + 1]
                if _SOURCE.match(named.text) and c + 2 < len(group):
                    named = group[c + 2]  # "Root cause (from the failed pod's log): …"
                if (
                    stance_at(named, (0, len(named.text))) is Stance.asserted
                    and _symptom(named.text)
                    and not holds_fact(named.text)
                ):
                    return [
                        "names a symptom as the root cause (cause and effect swapped): "
                        f"{named.text.strip()[:100]!r}"
                    ]
            for m in _DEMOTED.finditer(clause.text):
                effect, cause = m["effect"], _CUT.split(m["cause"], maxsplit=1)[0]
                if stance_at(clause, m.span()) is not Stance.asserted or _IF.search(m.group()):
                    continue
                swapped = holds_fact(effect) and not _symptom(effect)
                if swapped and _symptom(cause) and not holds_fact(cause):
                    said = m.group().strip()[:100]
                    return [
                        "states a cause as the consequence of a symptom (cause and effect "
                        f"swapped): {said!r}"
                    ]
            for m in _ROOTED.finditer(clause.text):
                root = m["root"] or m["named"] or ""
                if stance_at(clause, m.span()) is not Stance.asserted or _IF.search(m.group()):
                    continue
                if _symptom(root) and not holds_fact(root):
                    said = m.group().strip()[:100]
                    return [
                        f"names a symptom as the root cause (cause and effect swapped): {said!r}"
                    ]
    return []
