"""Lexicon causes, states and components the answer asserts, held against the environment.

Each asserted statement of a lexicon entry with `evidence` is bound to its entities
(agentbench.scoring.assertions); the environment text of those entities (the whole environment
when unbound, and for components always), with the episode's own changes, must match one of the
entry's evidence patterns, or the statement must quote the environment word for word.
"""

from __future__ import annotations

import re

from agentbench.scoring.assertions import predicate
from agentbench.scoring.lexicon import Entry, causes
from agentbench.scoring.reading import Reading, show_key
from agentbench.scoring.stance import Stance
from agentbench.tasks.expectations import Fact


def unsupported_problems(
    reading: Reading, facts: list[Fact], outputs: list[str] | None = None
) -> list[str]:
    """Lexicon causes and states the answer asserts that the environment does not support
    (a statement that quotes what the environment or a tool output said word for word is
    supported: "the Permission denied I got first")."""
    if not reading.entities.global_evidence.strip("\n") or not reading.entities.declared:
        return []  # an answer from knowledge: nothing declared to hold it against
    required = [(f, *predicate(f)) for f in facts]
    for cause in causes():
        for o in reading.occurrences(cause.span):
            if o.stance is not Stance.asserted:
                continue
            clause = reading.groups[o.sentence][o.clause].text
            if _in_code(clause, o.span):
                continue  # `kubectl drain --timeout=300s`: a command written out, not a claim
            lead = reading.lead_in(o) if cause.kind == "event" else ""
            if cause.kind == "event" and _advised(lead + clause, o.span, len(lead)):
                continue  # "roll back to 1.6.1", "you should refund it": advice, not history
            if cause.kind == "component" and _EXAMPLE.search(reading.sentence(o.sentence)):
                continue  # "e.g. `EXPIRE key 129600` in Redis": an example, not the system
            if cause.kind == "component" and _labels_code(reading.sentence(o.sentence), clause):
                continue  # "- Redis: `EXPIRE key 129600`": how-to for one option of several
            before = clause[: o.span[0]]
            attempt = cause.id == "unhealthy" and (
                _ATTEMPT.search(before) or _OWN_ATTEMPT.search(before)
            )
            if attempt and _ERRORED.search("\n".join(outputs or [])):
                continue  # "the first attempt on orders-db-2 failed": a call failed, not db-2
            ref = _other_tag(clause, cause, reading, outputs or [])
            if ref:
                return [f"asserts {cause.id} of image {ref}: what was read shows it of another tag"]
            if any(
                find
                and (s := find(clause))
                and s[0] < o.span[1]
                and o.span[0] < s[1]
                and (
                    (lex is not None and lex.id == cause.id)
                    or (s[0] <= o.span[0] and o.span[1] <= s[1])
                )
                for _, find, lex in required
            ):
                continue  # the clause states a required fact there
            said = clause[o.span[0] : o.span[1]]
            quoted = any(
                said.lower() in seen.lower()
                for seen in [reading.entities.global_evidence, *(outputs or [])]
            )
            there = "" if quoted else _declared_present(reading, cause.absent, o.about)
            if there:
                return [
                    f"asserts {cause.id} of {show_key(there)}, which the environment declares "
                    "(it exists)"
                ]
            # bound only by an earlier sentence's subject ("... A-1042 ... The hourly delta
            # syncs are still succeeding"): too loose a binding to hold against one record
            named_here = {k for m in reading.mentions[o.sentence] for _, _, k in m}
            text = (
                _evidence(reading, cause.own, o.bound)
                if cause.kind not in ("component", "event") and o.bound & (named_here | o.inside)
                else ""
            )
            if not text.strip():
                text = "\n".join([reading.entities.global_evidence, *(outputs or [])])
            if not quoted and not cause.supported_by("\n".join([text, *reading.happened])):
                who = ", ".join(sorted(show_key(k) for k in o.bound)) or "the system"
                return [
                    f"asserts {cause.id} ({said!r}) of {who}: nothing in the environment "
                    "supports it"
                ]
    return []


# an image reference with a version tag: registry.internal/search/invoice-worker:1.9.6 (a
# host:port has no dotted tag)
_IMAGE_REF = re.compile(
    r"(?<![\w./:-])([a-z0-9][\w./-]*[a-z][\w./-]*[a-z0-9]):(v?\d+(?:\.[\w-]+)+)(?![\w-]|\.\w)",
    re.IGNORECASE,
)


def _other_tag(clause: str, cause: Entry, reading: Reading, outputs: list[str]) -> str:
    """An image tag the clause states the cause of, where the lines of what was read that
    support the cause name other tags and the lines naming this one do not support it:
    "manifest unknown for invoice-worker:1.9.6" when the pull failed for 1.106."""
    if not _IMAGE_REF.search(clause):
        return ""
    seen = "\n".join([reading.entities.global_evidence, *outputs])[:400_000]
    lines = [line for line in seen.splitlines() if line.strip()]
    supporting = [line for line in lines if cause.supported_by(line)]
    if not supporting:
        return ""
    for m in _IMAGE_REF.finditer(clause):
        tagged = f"{m.group(1).rsplit('/', 1)[-1]}:{m.group(2)}".lower()
        naming = [line for line in lines if tagged in line.lower()]
        named_elsewhere = naming and not any(line in supporting for line in naming)
        if named_elsewhere and any(_IMAGE_REF.search(line) for line in supporting):
            return m.group()
    return ""


# the subject of a state that is one of the episode's own attempts on an entity ("the first
# attempt on orders-db-2 failed"), not the entity
_ATTEMPTS = (
    r"(?:attempts?|tries|try|reads?|writes?|updates?|inserts?|quer(?:y|ies)|requests?|calls?"
    r"|commands?|uploads?|logins?|pushe?s?|pulls?|lookups?|fetch(?:es)?|retr(?:y|ies)"
    r"|connections?|statements?)"
)
_ATTEMPT = re.compile(
    rf"\b{_ATTEMPTS}\s+(?:on|to|against|at|into|via|through|from)\b[^,;]*$", re.IGNORECASE
)
# ... or the attempt itself, named by a determiner just before the state ("the first read
# failed because the file is payments.yaml": the read of payments.yml failed, not the file)
_OWN_ATTEMPT = re.compile(
    r"\b(?:the|my|our|this|that|one)\s+(?:(?:first|second|initial|earlier|original|last)\s+)?"
    rf"{_ATTEMPTS}\s*$",
    re.IGNORECASE,
)
_ERRORED = re.compile(
    r"\b(?:error|denied|failed|refused|timed?\s?out|cannot|could not|forbidden|read-only"
    r"|no such file|not found)\b",
    re.IGNORECASE,
)


def _declared_present(reading: Reading, kinds: tuple[str, ...], keys: frozenset[str]) -> str:
    """The first of these entities that is a declared object of one of the kinds (and that
    the episode did not delete), else ""."""
    for key in sorted(keys):
        entity = reading.entities.by_key.get(key)
        if entity is None or entity.kind not in kinds:
            continue
        if not any(" delete " in h and key.split("/", 1)[-1] in h for h in reading.happened):
            return key
    return ""


def _evidence(reading: Reading, own: tuple[str, ...], keys: frozenset[str]) -> str:
    """The environment text a statement about these entities is held against: only their own
    records where every one is of a kind the entry reads from its own record (a node is
    NotReady by its own conditions, not by a pod on it that is not ready), else the text of
    their families."""
    if not keys:
        return ""
    by_key = reading.entities.by_key
    if own and all(k in by_key and by_key[k].kind in own for k in keys):
        return "\n".join(t for k in keys for t in by_key[k].evidence)
    return reading.evidence(keys)


_CODE = re.compile(r"`[^`\n]+`")
# a sentence that names a component as an example or a hypothetical
_EXAMPLE = re.compile(
    r"\b(?:e\.g\.|for example|for instance|such as|would|could|if you|in case|depending on)",
    re.IGNORECASE,
)
# a component that labels a line of code, as one option of a how-to list
_LABEL = re.compile(r"\s*(?:\([^)]*\))?\s*:\s*`")


def _labels_code(sentence: str, clause: str) -> bool:
    """Whether the clause (a component's name) labels code in its sentence: "- Redis:
    `EXPIRE key 129600`"."""
    at = sentence.find(clause.strip())
    return at >= 0 and bool(_LABEL.match(sentence, at + len(clause.strip())))

# what before an event's words makes it advice, a plan or a condition, not a report of history
_ADVICE = re.compile(
    r"\b(?:should|could|can|would|may|might|must|need(?:s|ed)?\s+to|want(?:s|ed)?\s+to"
    r"|ha(?:ve|s)\s+to|ought\s+to|recommend\w*|suggest\w*|consider\w*|propos\w*|advis\w*"
    r"|plan(?:s|ning)?\s+to|going\s+to|will|'ll|let's|please|safe\s+to|if|unless|whether"
    r"|in\s+case|before|instead\s+of|rather\s+than|option|candidate|target)\b"
    r"|\bto\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^[\s\-*\u2022>#\d.)]*(?:\*\*[^*]*\*\*:?\s*)?(?:(?:or|and|then|else|otherwise)\s+)?$",
    re.IGNORECASE,
)


def _advised(text: str, span: tuple[int, int], shift: int = 0) -> bool:
    """Whether an event's words stand in advice, a plan or a condition: an imperative that
    opens the clause ("Roll back to 1.6.1", "... or roll back to 4.16.4"), or a modal, "to",
    "if" or "recommend" before it in its sentence ("someone should create it or roll back",
    "safe to roll back to"). `text` is the sentence up to the clause (`shift` characters) and
    the clause; `span` is within the clause."""
    before = text[: shift + span[0]]
    said = text[shift + span[0] : shift + span[1]]
    if _LEAD.match(before[shift:]) and not re.search(r"(?:ed|'d)\b", said, re.IGNORECASE):
        return True
    return bool(_ADVICE.search(before))


def _in_code(clause: str, span: tuple[int, int]) -> bool:
    """Whether the statement lies inside inline code or is a command's flag (`--timeout=300s`
    in a fenced loop)."""
    flag = re.search(r"(?:^|\s)--?[\w-]*$", clause[: span[0]])
    if flag and re.match(r"[\w-]*[=\s]", clause[span[1] :] + " "):
        return True
    return any(m.start() <= span[0] and span[1] <= m.end() for m in _CODE.finditer(clause))
