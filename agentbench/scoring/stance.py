"""The stance of a statement in its clause: asserted, hedged, negated, or supposed (what an
"if" clause or a counterfactual describes). The cues are agentbench.scoring.cues'; what each
rule here decides, and why, is in its comment."""

from __future__ import annotations

import re
from enum import Enum
from typing import TYPE_CHECKING

from agentbench.scoring.cues import DOUBLE_NEGATION, EXCULPATED, HEDGE, NEGATION, PASSED_OVER

if TYPE_CHECKING:
    from agentbench.scoring.claims import Clause


class Stance(Enum):
    asserted = "asserted"
    hedged = "hedged"
    negated = "negated"
    supposed = "supposed"  # inside an "if" clause: neither claimed nor offered as a candidate


# Quoted text (an error message, a log line) is the system speaking, not the answer: its
# "not found" negates nothing. Words in quotes are masked before the cue search.
_QUOTED = re.compile(r'"[^"\n]{3,}"|`[^`\n]{2,}`|(?<!\w)\'[^\'\n]{3,}\'(?!\w)')


def unquoted(text: str) -> str:
    return _QUOTED.sub(lambda m: " " * len(m.group()), text)


# What follows a statement belongs to it up to the next coordinated or relative clause: in "I
# raised the limit and the pod is now Running without restarts" the "without" is the second
# clause's, not a negation of the raise; in "OOMKilled is not the cause" the "not" is its own.
# "deleted and restarted nothing": the next words are the statement's own
_OWN_WORDS = r"(?!(?i:(?:\w+ed|nothing|none|no|not|never|neither|nor)\b))"
_NEXT_PREDICATION = re.compile(
    r"(?i:\s(?:which|who|whose|where|while|whereas|so|then|after|before|once|when|until)\s)"
    + _OWN_WORDS
    + r"|(?i:\sand\s)"
    + _OWN_WORDS,
)
# a name and the name right after it: "Saturdays and Sundays it doesn't run" is one subject
_NAME_PAIR = re.compile(r"\s+and\s+[A-Z]\w*")


def _own_predication(after: str, said: str = "") -> str:
    pair = _NAME_PAIR.match(after) if said[:1].isupper() else None
    if pair:  # the statement's subject is two names: what follows is said of both
        return after[: pair.end()] + _own_predication(after[pair.end() :])
    cut = _NEXT_PREDICATION.search(after)
    return after[: cut.start()] if cut else after


# a negation of a word that is itself the negative state: "not missing", "isn't full"
_DENIED_NEGATIVE = re.compile(
    r"(?:\bnot|n't|\bnever|\bno\s+longer)\s+(?:\w+\s+)?(?:missing|absent|gone|deleted|full|"
    r"exhausted|expired|broken|failing|down|unhealthy|lost)\b",
    re.IGNORECASE,
)
# a definition follows: what it says is the term's meaning, its negations the meaning's own
_DEFINES = re.compile(
    r"\W{0,3}(?:\([^)]{0,40}\)\s*)?(?:means|meant|indicates|signals|signifies|tells you|is when|"
    r"stands for|says that)\b",
    re.IGNORECASE,
)
# what the statement is said of is over: "her override as primary ended at 22:00"
_ENDED = re.compile(
    r"\W*(?:(?:role|shift|override|rota|slot|window|status)\s+)?(?:had\s+|has\s+|had\s+already\s+|"
    r"has\s+already\s+|already\s+)?(?:ended|expired|lapsed|ran\s+out|finished)\b"
    r"|\W*(?:is|was|were|are)\s+(?:already\s+)?over\b",
    re.IGNORECASE,
)
# an identifier said to be absent: the negation is the absence, not a denial of the mention
_IDENT_LIKE = re.compile(r"\d|[/:]|\w-\w")
_ABSENT = re.compile(
    r"\W*(?:→|->|=>)?\s*(?:(?:is|was|are|were)\s+)?(?:not\s+found|does\s*(?:not|n't)\s+exist|"
    r"did\s*(?:not|n't)\s+exist|no\s+such\s+\w+|not\s+present)\b",
    re.IGNORECASE,
)
# a permission denied, said with a negation: what follows is what was refused
_DENIAL = re.compile(
    r"(?:\bis|\bwas|\bare|\bwere)(?:\s+not|n't)\s+(?:allowed|authori[sz]ed|permitted)\s+"
    r"(?:to\s+(?:\w+\s+)?)?(?:[\w-]+:)?$",
    re.IGNORECASE,
)
# a counterfactual that describes the alternative the answer set aside
_COUNTERFACTUAL = re.compile(
    r"\W*(?:that|which|this|it|those)\s+would\s+(?:have\s+)?(?:be|been|show|shown|read|mean|look"
    r"\s+like)\b",
    re.IGNORECASE,
)
# a value of a notation explained, not the one in use: "(1-5 = Mon-Fri; 0 or 7 would be Sunday)"
_NOTATION = re.compile(r"\W*[\d`'\"][^,;]{0,20}?\b(?:would|will)\s+(?:be|mean)\s*$", re.IGNORECASE)
# the consequence of a condition in the same clause: "if she doesn't acknowledge it escalates"
_CONSEQUENT = re.compile(
    r"\b(?:then|it|they|this|that|he|she|we|you|(?:the|a|an|its|their)\s+\w+)\s+"
    r"(?:\w+s|will|would|should|must|goes|gets)\b"
    r"(?![^\w]*$)",
    re.IGNORECASE,
)
_CONDITION = re.compile(r"\s*(?:if|unless|in case|whenever|should)\b", re.IGNORECASE)


# the promised outcome of advice or of a fix to come: "Fix the typo and the pods will come up
# on their next retry", "Once the typo is fixed, the pods will come up": what would follow
_ADVISED_THEN = re.compile(
    r"^[\W\d]*(?:(?:just|simply|then)\s+)?(?:fix|correct|edit|change|update|set|raise|increase"
    r"|restore|apply|rename|add|remove|delete|create|restart|roll\s+back|revert|patch|re-?run"
    r"|redeploy|replace|reload|scale|rotate|renew|grant|recreate|re-?apply)\b[^.;!?]{0,200}?"
    r"\band\s+(?:\w+\s+){0,5}?(?:will|'ll)\b",
    re.IGNORECASE,
)
_ONCE = re.compile(r"^[\W\d]*(?:once|as\s+soon\s+as|after|when)\b[^,;.]{1,200},", re.IGNORECASE)
_FUTURE = re.compile(r"\b(?:will|'ll)\b", re.IGNORECASE)


# what a reader is told they will be able to check: "so you can confirm the change is live"
_YOURS_TO_CHECK = re.compile(
    r"\b(?:you|one)\s+(?:can|could|may|will\s+be\s+able\s+to|'ll\s+be\s+able\s+to)\s+"
    r"(?:confirm|verify|check|ensure|make\s+sure|see|tell|test)\b[^.;]*$"
    r"|\blets?\s+you\s+(?:confirm|verify|check|see|tell)\b[^.;]*$",
    re.IGNORECASE,
)


# what a thing is for, not what happened: "the PDB guards evictions such as node drains"
_GOVERNS = re.compile(
    r"\b(?:guards?|protects?\s+against|governs?|applies\s+to|only\s+affects?|is\s+(?:meant\s+)?for"
    r"|prevents?)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)


def _promised(clause: Clause, before: str) -> bool:
    if _ADVISED_THEN.match(before) or _YOURS_TO_CHECK.search(before):
        return True
    at = clause.sentence.find(clause.text.strip())
    return at > 0 and bool(_ONCE.match(clause.sentence)) and bool(_FUTURE.search(before))


def stance_at(clause: Clause, span: tuple[int, int]) -> Stance:
    """The stance of what the clause states at `span` (the statement's own words, and quoted
    text, are left out of the cue search, so "cannot send" is not negated by its own "not")."""
    text = unquoted(clause.text)
    if _DENIED_NEGATIVE.search(text[span[0] : span[1]]):
        return Stance.negated  # "the secret is not missing": its own words deny it
    before = text[: span[0]]
    before = _DENIAL.sub(" ", before)  # "the role isn't allowed s3:PutObject": a denial stated
    if _COUNTERFACTUAL.match(before) or _NOTATION.match(before):
        return Stance.supposed  # "(that would be 137 / reason OOMKilled)": what is not the case
    if _promised(clause, before) or _GOVERNS.search(before):
        return Stance.supposed  # "fix the typo and the pods will come up on their next retry"
    if _CONDITION.match(before):
        if not _CONSEQUENT.search(before):
            return Stance.supposed  # "if she doesn't respond within 10 minutes": a supposition
        before = ""  # "if she doesn't acknowledge it escalates to X": the `not` is the condition's
    after = _own_predication(text[span[1] :], text[span[0] : span[1]])
    absent = _ABSENT.match(after)
    if absent and _IDENT_LIKE.search(text[span[0] : span[1]]):
        after = after[absent.end() :]  # "api:v2.41 → not found": it is absent
    if _DEFINES.match(after) and not NEGATION.match(text[span[0] : span[1]]):
        after = ""  # "502 Bad Gateway means the proxy couldn't get …": the definition's `not`
    rest = before + " … " + after
    if _ENDED.match(after):
        return Stance.negated  # "Marta's override of the primary ended Sunday": no longer so
    cleared = span[1] > 0 and (
        EXCULPATED.match(clause.text[span[1] :]) or PASSED_OVER.match(clause.text[span[1] :])
    )
    if DOUBLE_NEGATION.search(rest):
        return Stance.hedged  # "I can't rule out X" keeps X open
    if clause.contrasted or clause.negated_before or cleared or NEGATION.search(rest):
        return Stance.negated
    if clause.hedged_before or HEDGE.search(rest):
        return Stance.hedged
    return Stance.asserted
