"""Rejected statements: the wrong answers of a task's planted mistakes, held against the answer.

A reject is asserted (or offered as a candidate) when its predicate is stated of its subject, or
anywhere when it names none. It is no wrong answer where it is said of what it is: a figure
beside its own label ("781 on hand"), next to the required figure as its breakdown, combined
into it, in a sentence naming an identifier of the reject's own name ("the reindex-search
entry's time"), in a clause that names someone else or, in the first person, no one (the agent's
own call: "my first probe got a 404"), or, once the answer states every required
fact of its own subject by name, where it is true of the entity it is said of
(agentbench.scoring.assertions) or lies in a row of a table the answer shows beside it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agentbench.scoring.assertions import predicate, subject_finder, true_of
from agentbench.scoring.lexicon import phrase_pattern, regex
from agentbench.scoring.numbers import derivation_operand, equations
from agentbench.scoring.quantities import quantities
from agentbench.scoring.reading import Occurrence, Reading, table_row
from agentbench.scoring.stance import Stance
from agentbench.tasks.expectations import Fact

# A figure taken apart: "243 on hand minus 26 reserved", "on_hand 243 = ...", "of which".
_BREAKDOWN = re.compile(r"\b(?:minus|plus|less|of which|out of|in total|total)\b|[=+−]|\s-\s")


def reject_problems(
    fact: Fact,
    reading: Reading,
    required: list[Fact] | None = None,
    outputs: Sequence[str] = (),
) -> list[str]:
    """A rejected statement (a planted mistake's) asserted or offered as a candidate. A
    rejected figure next to the required one (a sentence either side) is its breakdown
    ("217 sellable: 243 on hand minus 26 reserved"), not an answer."""
    find, lexical = predicate(fact)
    subject = reading.key_of(fact.subject) if fact.subject else None
    if find is None and subject is not None:
        find = subject_finder(reading, subject)
    if find is None:
        return []
    answered = _answered(reading, required or [])
    family = reading.family(subject) if subject else set()
    near: set[int] = set()
    if fact.amount is not None:
        for other in required or []:
            other_find, _ = predicate(other)
            if other.amount is not None and other_find is not None:
                for o in reading.occurrences(other_find):
                    if o.stance is Stance.asserted:
                        near |= {o.sentence - 1, o.sentence, o.sentence + 1}
    labels = _labels(fact.label()) if fact.amount is not None else None
    idents = _label_identifiers(fact.label()) if not fact.subject else None
    leading = _STATUS_CODE.match(fact.label())
    code = leading.group(1) if leading else ""
    for o in reading.occurrences(find):
        clause = reading.groups[o.sentence][o.clause].text
        if o.stance in (Stance.negated, Stance.supposed) or (
            o.sentence in near and _BREAKDOWN.search(clause)
        ):
            continue
        if fact.amount is not None and _MENTIONED.search(clause[: o.span[0]]) and _NOUN.match(
            clause[o.span[1] :]
        ):
            continue  # "The 436 figure is what sits on the shelf": the figure talked about
        if labels is not None and _labelled(labels, reading, o):
            continue  # "781 on hand", "retry_backoff would be 45000 ms": said of what it is
        if code and _said_of_code(reading, o, code):
            continue  # "unlike the 503 on /api/profile, which says it is temporarily unable"
        if idents is not None and idents.search(_sentence(reading, o.sentence)):
            continue  # "(the other entry, reindex-search, runs daily at 21:22)"
        if fact.amount is not None and o.sentence in near and _worked(fact, reading, o, required):
            continue
        if fact.amount is not None and _operand_of_answer(fact.amount.value, reading, required):
            continue  # "So 67 − 33 = 34": the working of the answer, said anywhere
        if fact.amount is not None and _base_of_answer(fact.amount.value, reading, o, required):
            continue  # "about 96% (1187 / 1236)": the whole the answer is a share of
        if fact.patterns and not fact.is_ and not _in_sentence(fact, reading, o):
            continue  # a line-level pattern ("not on the sibling's line") the whole sentence fails
        if _quoted_output(clause, o.span, outputs):
            continue  # it answered "unknown flag: --limit": a quote of what a tool printed
        if answered and table_row(reading.groups[o.sentence]):
            continue  # a row of the table the answer drew its answer from, beside the answer
        said = o.stance is not Stance.negated and answered  # hedged or not: "you may see"
        if said and true_of(o, fact, lexical, reading, required or [], subject is None):
            continue  # said of what it is: "FRA-2 has another 59 available"
        own = {k for _, _, k in reading.mentions[o.sentence][o.clause]}
        if subject is not None and own and not own & family:
            continue  # the clause names whom it is about, and it is someone else
        if not o.bound and subject is not None and _FIRST_PERSON.search(clause):
            continue  # "my first probe got a 404": the agent's own call, said of nobody else
        if (
            answered
            and fact.amount is not None
            and _OWN_RESULT.search(reading.lead_in(o) + clause[: o.span[0]])
        ):
            continue  # "my first query returned 41,877.15 - wrong, because": its own working
        if not o.bound and _first_person_aside(reading, o):
            continue  # "My user can't read the log (Permission denied), so I used sudo"
        if subject is None or not o.bound or o.bound & family:
            return [f"wrong answer {fact.label()!r} is {o.stance.value}"]
    return []


_MENTIONED = re.compile(r"\b(?:the|that|this)\s+$", re.IGNORECASE)
# what one of the agent's own earlier calls gave, told beside the answer it went on to
_OWN_RESULT = re.compile(
    r"\b(?:my|our)\s+(?:\w+\s+){0,2}?(?:query|queries|attempt|try|call|read|request|run|sum"
    r"|calculation|count)\b[^.;]{0,80}?\b(?:returned|gave|showed|came\s+(?:back|out)\s+(?:with|at|as)?"
    r"|printed|produced|said|reported|totall?ed)\s+(?:\w+\s+)?(?:EUR\s*|€|\$)?$",
    re.IGNORECASE,
)
_NOUN = re.compile(r"\s*(?:figure|number|value|count|total|reading)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:I|[Mm]y|[Mm]e|[Ww]e|[Oo]ur)\b")
_OWN_SIDE = re.compile(
    r"^[^.;]{0,40}?(?<!\w)(?:is|was|'s|are|were)\s+(?:(?:all|only|just)\s+)?(?:mine|ours|my\s+own|"
    r"our\s+own|on\s+(?:my|our)\s+(?:side|end))\b",
    re.IGNORECASE,
)


def _first_person_aside(reading: Reading, o: Occurrence) -> bool:
    """Whether the clause is an aside in parentheses right after a clause in the first person,
    or says the problem is the agent's own: "My user can't read the log (Permission denied)",
    "that permission problem is mine, not the job's"."""
    group = reading.groups[o.sentence]
    clause = group[o.clause]
    if _OWN_SIDE.search(clause.text[o.span[1] :]):
        return True
    at = clause.sentence.find(clause.text) if clause.sentence else -1
    aside = at > 0 and clause.sentence[:at].rstrip().endswith("(")
    return aside and o.clause > 0 and bool(_FIRST_PERSON.search(group[o.clause - 1].text))
_QUOTE = re.compile(r'"([^"\n]{3,200})"|`([^`\n]{3,200})`')


def _quoted_output(clause: str, span: tuple[int, int], outputs: Sequence[str]) -> bool:
    """Whether the statement lies inside quotes holding what a tool output printed."""
    for m in _QUOTE.finditer(clause):
        if m.start() <= span[0] and span[1] <= m.end():
            quoted = (m.group(1) or m.group(2)).strip().lower()
            return any(quoted in o.lower() for o in outputs)
    return False


def _in_sentence(fact: Fact, reading: Reading, o: Occurrence) -> bool:
    """Whether the reject's own patterns or wordings match its whole sentence too: a pattern
    is written against a line, so one anchored or guarded by a lookahead ("pay_X on a line
    without the sibling order's id") says nothing of a clause cut from that line."""
    sentence = reading.groups[o.sentence][o.clause].sentence
    if not sentence:
        return True
    return any(regex(p).search(sentence) for p in fact.patterns) or any(
        phrase_pattern(w).search(sentence) for w in fact.wordings
    )


def _answered(reading: Reading, required: list[Fact]) -> bool:
    """Whether the answer asserts every required fact, each of its own subject by name (a
    distractor is explained only beside the answer: "Clara Moreau. The shift's primary Priya
    Raman is overridden"; an answer that never names the subject has not answered)."""
    for fact in required:
        find, _ = predicate(fact)
        if find is None or not fact.required or fact.when is not None:
            continue
        family = reading.family(reading.key_of(fact.subject)) if fact.subject else None
        if not any(
            o.stance is Stance.asserted and (family is None or o.about & family)
            for o in reading.occurrences(find)
        ):
            return False
    return True


_STATUS_CODE = re.compile(r"^\s*([1-5]\d\d)\b")
_RELATIVE = re.compile(r"^\W*(?:which|that|where|who|it)\b", re.IGNORECASE)


def _said_of_code(reading: Reading, o: Occurrence, code: str) -> bool:
    """Whether the rejected meaning is said of its own status code: the code stands before it
    in its clause, or in the clause before when this one is a relative clause about it."""
    group = reading.groups[o.sentence]
    named = re.compile(rf"(?<![\w.]){code}(?![\w.])")
    if named.search(group[o.clause].text[: o.span[0]]):
        return True
    if o.clause == 0:
        return False
    previous, clause = group[o.clause - 1], group[o.clause]
    sentence = clause.sentence or ""
    end = sentence.find(previous.text) + len(previous.text)
    between = sentence[end : sentence.find(clause.text, end)] if end >= len(previous.text) else ""
    relative = _RELATIVE.match(between + " " + clause.text)
    return bool(relative and named.search(previous.text))


def _label_identifiers(name: str) -> re.Pattern[str] | None:
    """The identifiers a rejected statement's own name holds (`reindex-search` in "the
    reindex-search entry's time"): a sentence naming one says the figure of what it is."""
    words = set(re.findall(r"\b[A-Za-z][\w.]*[-_][\w.-]*\w\b", name))
    if not words:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])")


def _sentence(reading: Reading, s: int) -> str:
    return " ".join(c.text for c in reading.groups[s])


_NOT_LABELS_TEXT = (
    "the a an of its it is in on to and or for with from instead including included "
    "figure figures other another given gives counted counts converted wrong right "
    "answer value number total as not"
)
_NOT_LABELS = frozenset(_NOT_LABELS_TEXT.split())


def _labels(name: str) -> re.Pattern[str] | None:
    """What a rejected figure's own name says it is ("on hand including reserved", "45000
    (retry_backoff converted instead)"): words of four letters or more, and identifiers."""
    words = {
        w
        for w in re.findall(r"[A-Za-z][\w-]*", name)
        if (len(w) >= 4 or "_" in w) and w.lower() not in _NOT_LABELS
    }
    if not words:
        return None
    return re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(words))) + r")\b", re.I)


_PRONOUN = re.compile(r"\b(?:it|that|this|which)\b[^,;]{0,30}$", re.IGNORECASE)


def _labelled(labels: re.Pattern[str], reading: Reading, o: Occurrence) -> bool:
    """Whether the figure stands beside its own label, or a pronoun right before it refers
    back to the label earlier in its sentence ("your cooldown of 46h isn't what you asked,
    but for reference it would be 165600 seconds")."""
    clause = reading.groups[o.sentence][o.clause]
    if labels.search(clause.text[max(0, o.span[0] - 40) : o.span[1] + 25]):
        return True
    if not _PRONOUN.search(clause.text[: o.span[0]]) or not clause.sentence:
        return False
    at = clause.sentence.find(clause.text)
    return at > 0 and bool(labels.search(clause.sentence[:at]))


def _operand_of_answer(value: float, reading: Reading, required: list[Fact] | None) -> bool:
    """Whether the answer writes out right arithmetic that takes this figure to a required
    amount ("67 − 33 = 34" where 34 is the answer)."""
    results = [f.amount.value for f in required or [] if f.amount is not None]
    if not results:
        return False
    for s in range(len(reading.groups)):
        for terms, result in equations(reading.sentence(s)):
            if any(abs(result - r) < 0.005 for r in results) and any(
                abs(t - value) < 0.005 for t in terms
            ):
                return True
    return False


_SHARE = re.compile(
    r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)\s*(?:/|of|out\s+of)\s*(\d[\d,]*(?:\.\d+)?)(?![\w,])"
)


def _base_of_answer(
    value: float, reading: Reading, o: Occurrence, required: list[Fact] | None
) -> bool:
    """Whether this occurrence is the whole a required amount is written as a share of
    ("1187 / 1236", "1187 of 1236", "1187 out of 1236"): the figure is the base, no answer."""
    results = [f.amount.value for f in required or [] if f.amount is not None]
    clause = reading.groups[o.sentence][o.clause].text
    for m in _SHARE.finditer(clause):
        part, whole = (float(g.replace(",", "")) for g in m.groups())
        inside = m.start(2) < o.span[1] and o.span[0] < m.end(2)
        if inside and abs(whole - value) < 0.005 and any(abs(part - r) < 0.005 for r in results):
            return True
    return False


def _worked(fact: Fact, reading: Reading, o: Occurrence, required: list[Fact] | None) -> bool:
    """A rejected figure that its sentence combines with another into the required one."""
    assert fact.amount is not None
    sentence = " ".join(c.text for c in reading.groups[o.sentence])
    figures = [(q.raw, q.start) for q in quantities(sentence)]
    results = [f.amount.value for f in required or [] if f.amount is not None]
    return derivation_operand(fact.amount.value, figures, results)
