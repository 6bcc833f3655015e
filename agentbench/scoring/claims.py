"""Answers scored by what they assert.

The answer is cut into sentences (lines, bullets, `. ! ?`, code-fence lines; a JSON object gives
one sentence per value, led by its key, so `"ruled_out": ["bad image"]` negates) and each
sentence into clauses (`, ; : ( ) …`, "but", "because", "rather than", ...). A claim matched in
a clause is one of:

- **negated**: the clause holds a negation ("not", "isn't", "no longer", "ruled out",
  "unlikely", ...), it is the part after "rather than" / "instead of", or it follows a
  negating lead-in ("Ruled out: X, Y", or a bulleted list under "Not the cause:");
- **hedged**: a hedge ("maybe", "might", "could be", "possibly", "either", "one of the
  following", "if", ...) stands in the clause or earlier in its sentence, the sentence is a
  question, or the clause is an item of a bulleted list under a hedged lead-in ("Possible
  causes:");
- **asserted**: neither.

A required claim passes only when asserted somewhere; a decoy fails the answer when it is
asserted or hedged (offered as a candidate), never when negated.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from agentbench.jsontext import json_values
from agentbench.scoring.cues import (
    CLAUSE_BREAK,
    CONSEQUENCE,
    CONTRAST,
    DISOWNED,
    HEDGE,
    HEDGE_STOP,
    NEGATING_LEAD,
    NEGATING_TAIL,
)
from agentbench.scoring.numbers import number_matches
from agentbench.scoring.patterns import TaskPattern, task_pattern
from agentbench.scoring.stance import Stance, stance_at, unquoted
from agentbench.tasks.expectations import Claim


@dataclass(frozen=True)
class Clause:
    """A clause, with what its context says: a hedge earlier in the sentence or list, or the
    clause follows "rather than" / "instead of" (negated)."""

    text: str
    hedged_before: bool = False
    contrasted: bool = False
    negated_before: bool = False  # under a negating lead-in ("Ruled out: X, Y")
    consequence: bool = False  # it follows "so", "therefore": a statement of its own
    sentence: str = ""  # the whole sentence, punctuation and breaks included


# Typographic quotes and dashes as models often write them ("isn’t" must negate like "isn't").
_TYPOGRAPHY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
_FENCE = re.compile(r"^\s*```[\w-]*\s*$", re.MULTILINE)
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d{1,2}[.)])\s+")
# a sentence ends at . ! ? (not an abbreviation's, "i.e.", "e.g.", "vs.", "a.m." before a
# lowercase word, nor an ellipsis in a
# list, "02:15, ... 04:30") and at one closed by
# markdown or a quote: "**Clara Moreau.** The ..."
_SENTENCE_END = re.compile(
    r"(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\bvs\.)(?<!\bapprox\.)(?<!\bcf\.)(?<!\.\.\.)"
    r"(?<!\b[ap]\.m\.)(?<!\betc\.)(?<=[.!?])\s+"
    r"|(?<=\b[ap]\.m\.)\s+(?=(?-i:[A-Z]))|(?<=\betc\.)\s+(?=(?-i:[A-Z]))"
    r"|(?<=[.!?][*_\"')\]])\s+|(?<=[.!?][*_]{2})\s+",
    re.IGNORECASE,
)
_SPACE_RUN = re.compile(r"[^\S\n]{2,}")


def json_spans(text: str) -> list[tuple[int, int, Any]]:
    """(start, end, value) of every top-level JSON object, or array holding one, in the text."""
    return [
        (start, end, value)
        for start, end, value in json_values(text)
        if isinstance(value, dict)
        or (isinstance(value, list) and any(isinstance(v, dict) for v in value))
    ]


def _json_sentences(value: Any, key: str = "") -> Iterator[str]:
    """One sentence per leaf, led by its key ("ruled_out bad image"), so a key can negate."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _json_sentences(v, f"{key} {k}".strip())
    elif isinstance(value, list):
        for item in value:
            yield from _json_sentences(item, key)
    elif value is False:
        yield f"not {key.replace('_', ' ')}".strip()  # "timed_out": false says it did not
    elif value is not None:
        yield f"{key.replace('_', ' ')} {value}".strip()


def sentences(text: str) -> Iterator[tuple[str, str]]:
    """(sentence, lead) for every sentence: lead is "hedged" or "negated" for an item of a
    bulleted list under such a lead-in ("Possible causes:", "Ruled out:"), else ""."""
    prose, last = [], 0
    for start, end, value in json_spans(text):
        prose.append(text[last:start] + "\n")
        last = end
        for sentence in _json_sentences(value):
            yield sentence, ""
        if isinstance(value, dict) and 1 < len(value) <= 8 and not any(
            isinstance(v, (dict, list)) for v in value.values()
        ):
            # a flat record is also one statement: {"order_id": 88412, "status": "refunded"}
            yield "; ".join(f"{k.replace('_', ' ')} {v}" for k, v in value.items()), ""
    lead = ""
    for raw in _unwrapped(_FENCE.sub("\n", "".join(prose) + text[last:]).splitlines()):
        line = raw.strip()
        if not line:
            continue
        bullet = _BULLET.match(line)
        if bullet:
            line = line[bullet.end() :]
        else:
            lead = ""
        # a table row is one sentence, its cells its clauses: "| applies at 10:00? |" asks
        # about its own cell, not the row
        for sentence in [line] if line.startswith("|") else _SENTENCE_END.split(line):
            if sentence.strip(" \t\"'`,"):
                yield sentence.strip(), lead if bullet else ""
        if line.endswith(":"):
            lead = _lead(line[:-1]) or lead


_BLOCK_START = re.compile(r"^\s*(?:[-*•+]\s|\d{1,2}[.)]\s|#|\||>|\$ |```)")
_LINE_DONE = re.compile(r"[.!?:|]\W{0,3}$|^\s*(?:#|\|)")


def _unwrapped(lines: list[str]) -> list[str]:
    """Lines with a paragraph's hard wraps undone: a line that starts no list item, heading,
    table row or quote continues the line before it when that one ran to a wrap width (60
    characters or more) without ending a sentence ("... its outbound\nconnection to payments
    fails" is one sentence; a short list item is not wrapped)."""
    out: list[str] = []
    for line in lines:
        if (
            out
            and len(out[-1].strip()) >= 60
            and line.strip()
            and not _BLOCK_START.match(line)
            and not _LINE_DONE.search(out[-1])
        ):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return out


def _lead(label: str) -> str:
    """What a lead-in ("Ruled out", "Possible causes", "..., but neither qualifies") does to
    what follows it."""
    if NEGATING_TAIL.search(label.strip(" *_`#")):
        return "negated"
    if len(label.split()) > 6:
        return ""
    if NEGATING_LEAD.fullmatch(label.strip(" *_`#")):
        return "negated"
    return "hedged" if HEDGE.search(label) else ""


def sentence_clauses(text: str) -> list[list[Clause]]:
    """The clauses of the text with their context (module docstring), sentence by sentence."""
    out: list[list[Clause]] = []
    # one space for a run: CLAUSE_BREAK's `\s*(?:…)` backtracks over a run quadratically (a
    # model's answer of 20,000 spaces took half an hour), and no cue tells two spaces from one
    text = _SPACE_RUN.sub(" ", text.translate(_TYPOGRAPHY))
    for sentence, lead in sentences(text):
        group: list[Clause] = []
        out.append(group)
        label, colon, rest = sentence.partition(": ")
        if colon and _lead(label):
            group.append(Clause(label))
            sentence, lead = rest, _lead(label)
        question = sentence.rstrip().endswith("?") and not sentence.startswith("|")
        base = lead == "hedged" or question  # a question asserts nothing
        hedged, after_so, aside, set_apart = base, False, False, False
        parts = _split_outside_code(sentence)
        # where a first impression starts ("At first glance ...", "... 6417 - at first that
        # looks like EUR 6,417"): None while the sentence has none
        first_look: int | None = len(group) if _FIRST_LOOK.match(sentence) else None
        for index, part in enumerate(parts):
            if index % 2:  # a break: a hedge reaches past commas, not past "; but however"
                if first_look is not None and len(group) > first_look and _TURN.search(part):
                    # "At first glance it looked like 102, but that is on-hand stock"
                    group[first_look:] = [
                        replace(c, negated_before=True) for c in group[first_look:]
                    ]
                    first_look = None
                if HEDGE_STOP.fullmatch(part.strip()):
                    hedged = base
                after_so = after_so or bool(CONSEQUENCE.search(part))
                # what describes a term set apart is said of it: "unlike 502/504, which …",
                # "… — unlike a 500 (an unexpected internal error) or a 504 (…)"
                describes = bool(_RELATIVE.search(part) or "(" in part)
                aside = aside or (
                    describes and (set_apart or bool(group and _SET_APART.match(group[-1].text)))
                )
                continue
            if first_look is None and index and _FIRST_LOOK.match(part):
                first_look = len(group)
            for i, piece in enumerate(CONTRAST.split(part)):
                if piece.strip():
                    listed = set_apart and bool(_LISTED.match(piece))
                    apart = i > 0 or aside or listed
                    group.append(
                        Clause(piece, hedged, apart, lead == "negated", after_so, sentence)
                    )
                    hedged = hedged or bool(HEDGE.search(unquoted(piece)))
                    after_so = aside = False
                    # a trailing "… — unlike X": what lists or describes X after it is X's
                    set_apart = set_apart or (len(group) > 1 and bool(_SET_APART.match(piece)))
        _disown(group)
        _negated_list(group)
        _alternatives(group, sentence)
    return out


# a clause that sets its subject apart from the one the sentence is about, and the relative
# clause that describes it: "unlike 502/504, which report a bad or timed-out response"
_SET_APART = re.compile(
    r"\W*(?:unlike|as\s+opposed\s+to|in\s+contrast\s+(?:to|with)|contrary\s+to|"
    r"different\s+from|as\s+distinct\s+from)\b",
    re.IGNORECASE,
)
_RELATIVE = re.compile(r"\b(?:which|who)\b", re.IGNORECASE)
_LISTED = re.compile(r"\W*(?:or|nor)\s", re.IGNORECASE)


# where a clause of raw answer text starts and ends: punctuation before a space, a
# parenthesis, a line break, a dash between spaces
_CLAUSE_BOUND = re.compile(r"[.;:,!?]\s|[.!?]$|[()\n]|\s[-–—]\s")


def clause_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause of raw text around [start, end): from the last bound before `start` to the
    first one after `end` ("… so `-s reopen` makes the master pick up the new config")."""
    starts = [b.end() for b in _CLAUSE_BOUND.finditer(text, 0, start)]
    after = _CLAUSE_BOUND.search(text, end)
    return (starts[-1] if starts else 0), (after.start() if after else len(text))


# a parenthesised list of alternatives: "(manual ALTER, a hotfix script, or a branch's
# migration)" asserts none of them
_PARENTHESES = re.compile(r"\(([^()]{1,600})\)")
# three or more: "A, B or C", "A, B, or C"; not "(X, or Y)", an error's own two readings
_OR = re.compile(r",[^,]*,[^,]*?\bor\s|,\s*[^\s,][^,]*?\sor\s", re.IGNORECASE)


def _alternatives(group: list[Clause], sentence: str) -> None:
    spans = [m.span(1) for m in _PARENTHESES.finditer(sentence[:20_000]) if _OR.search(m.group(1))]
    if not spans:
        return
    for index, clause in enumerate(group):
        at = sentence.find(clause.text)
        if at >= 0 and any(a <= at and at + len(clause.text) <= b for a, b in spans):
            group[index] = replace(clause, hedged_before=True)


# "I have not edited, reloaded or restarted anything": a negation that ends its clause on the
# first of a list of verbs reaches the rest of the list, cut off by the commas
_NEGATED_HEAD = re.compile(r"\b(?:not|never|no|n't|neither)\s+(?:\w+\s+){0,1}\w+\s*$", re.I)
_LIST_TAIL = re.compile(r"^\s*(?:\w+\s+){0,5}?\w+\s+(?:or|nor)\s+\w+(?:\s+\w+){0,3}[\s.!?]*$", re.I)


def _negated_list(group: list[Clause]) -> None:
    for index in range(len(group) - 1):
        head, rest = group[index], group[index + 1]
        if _NEGATED_HEAD.search(unquoted(head.text)) and _LIST_TAIL.match(unquoted(rest.text)):
            group[index + 1] = replace(rest, negated_before=True)


# a first impression the sentence goes on to correct: "At first glance X, but Y", "My first
# guess was X; actually Y"
_FIRST_LOOK = re.compile(
    r"\W*(?:at\s+first(?:\s+(?:glance|sight))?|initially|my\s+first\s+(?:guess|read|reading|"
    r"thought|impression|hunch)|i\s+(?:first|initially)\s+(?:thought|assumed|suspected|read|took))\b",
    re.IGNORECASE,
)
_TURN = re.compile(r"\b(?:but|however|actually)\b", re.IGNORECASE)

# Inline code and quoted text are one piece: `proxy_pass http://x;` or "unexpected ';', expected
# ':'" hold no clause breaks of the answer's own.
_CODE = re.compile(r'`[^`\n]+`|"[^"\n]+"')


def _split_outside_code(sentence: str) -> list[str]:
    """re.split of the sentence at CLAUSE_BREAK (breaks kept at odd indices), never inside
    inline code or double quotes."""
    masked = _CODE.sub(lambda m: "x" * len(m.group()), sentence)
    pieces = re.split(f"({CLAUSE_BREAK.pattern})", masked, flags=re.IGNORECASE)
    out, at = [], 0
    for piece in pieces:
        piece = piece or ""
        out.append(sentence[at : at + len(piece)])
        at += len(piece)
    return out


def _disown(group: list[Clause]) -> None:
    """A clause that disowns what came before it in its sentence ("..., not the job's
    problem") negates the clauses before it."""
    for index in range(len(group) - 1, 0, -1):
        if DISOWNED.match(unquoted(group[index].text)):
            for earlier in range(index):
                group[earlier] = replace(group[earlier], negated_before=True)
            return


def clauses(text: str) -> list[Clause]:
    """Every clause of the text with its context (module docstring)."""
    return [clause for group in sentence_clauses(text) for clause in group]


@lru_cache(maxsize=4096)
def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in re.split(r"[\s\-_]+", phrase.strip()) if w]
    body = r"[\s\-_]+".join(words)
    start = r"\b" if re.match(r"\w", phrase.strip()) else ""
    end = r"\b" if re.search(r"\w$", phrase.strip()) else ""
    return re.compile(start + body + end, re.IGNORECASE)


def _span(claim: Claim, text: str) -> tuple[int, int] | None:
    """Where the clause states the claim (an empty span for a figure); None if it does not."""
    patterns: list[re.Pattern[str] | TaskPattern] = [_phrase_pattern(p) for p in claim.phrases]
    patterns += [task_pattern(p) for p in claim.regex]
    for pattern in patterns:
        match = pattern.search(text)
        if match:
            return match.span()
    if claim.number is not None and number_matches(claim, text):
        return (0, 0)
    return None


def stance(claim: Claim, clause: Clause) -> Stance | None:
    """How the clause states the claim; None if it does not."""
    span = _span(claim, clause.text)
    return None if span is None else stance_at(clause, span)


def stances(claim: Claim, parts: list[Clause]) -> set[Stance]:
    """Every stance in which the answer states the claim (empty: never mentioned)."""
    return {found for c in parts if (found := stance(claim, c)) is not None}


def claim_problems(answer: str, claims: list[Claim], decoys: list[Claim]) -> list[str]:
    """Why the answer fails its claims and decoys (empty: it passes). `when` is applied before."""
    parts = clauses(answer)
    problems: list[str] = []
    for claim in claims:
        found = stances(claim, parts)
        if Stance.asserted in found:
            continue
        if found:
            how = " and ".join(sorted(s.value for s in found))
            problems.append(f"claim {claim.name!r} is only {how}, never asserted")
        else:
            problems.append(f"claim {claim.name!r} is not stated")
    for decoy in decoys:
        found = stances(decoy, parts) - {Stance.negated}
        if found:
            how = " and ".join(sorted(s.value for s in found))
            problems.append(f"decoy {decoy.name!r} is {how}")
    return problems
