"""Facts bound to entities, and claims checked against the declared environment.

An answer is read clause by clause (agentbench.scoring.claims). Where a clause states a
predicate (a lexicon entry, a figure, a moment, a task's own wording), the statement is bound
to the entities the clause names (outside the predicate's own words); a clause naming none is
bound to the nearest entity named earlier in its sentence, else later in it, else the last one
named in an earlier sentence; an answer that names none is unbound (about the task's subject).

- A required fact passes when asserted of its subject's family (or unbound); it fails when the
  answer asserts it of another declared entity that neither the environment nor another fact
  supports (the right cause on a healthy neighbour, two names swapped).
- `members`: a sentence that lists a member must not list another entity of the members' kind.
- Every lexicon cause or state the answer asserts must be supported by the environment text of
  the entities it is bound to (agentbench.scoring.unsupported).
"""

from __future__ import annotations

import re

from agentbench.scoring.claims import Stance, stance_at
from agentbench.scoring.intervals import interval_span
from agentbench.scoring.lexicon import Entry, entry, phrase_pattern
from agentbench.scoring.numbers import derivation_operand
from agentbench.scoring.quantities import moment_span, parse_moment, quantities, quantity_span
from agentbench.scoring.reading import Occurrence, Reading, Span, SpanFn
from agentbench.tasks.expect_answer import every_seconds
from agentbench.tasks.expectations import Fact


def predicate(fact: Fact) -> tuple[SpanFn | None, Entry | None]:
    """What finds the fact's predicate in a clause, and its lexicon entry (if any)."""
    finders: list[SpanFn] = []
    lexical: Entry | None = None
    if fact.is_:
        lexical = entry(fact.is_).extended(fact.wordings, fact.patterns)
    elif fact.wordings or fact.patterns:
        lexical = Entry("task", "condition", tuple(fact.wordings), tuple(fact.patterns), ())
    if lexical is not None:
        finders.append(lexical.span)
    if fact.amount is not None:
        amount = fact.amount
        finders.append(lambda t: quantity_span(t, amount.value, amount.unit, amount.tolerance))
    if fact.at is not None:
        when = parse_moment(fact.at)
        precision = "day" if len(fact.at.strip()) <= 10 else "minute"
        finders.append(lambda t: moment_span(t, when, precision))
    if fact.every is not None:
        step = every_seconds(fact.every)
        if step is not None:
            finders.append(lambda t: interval_span(t, step))
    if not finders:
        return None, None

    def find(text: str) -> Span | None:
        spans = [s for f in finders if (s := f(text)) is not None]
        return min(spans) if spans else None

    return find, lexical


def _subject_finder(reading: Reading, key: str) -> SpanFn:
    family = reading.family(key)

    def find(text: str) -> Span | None:
        spans = [(a, b) for a, b, k in reading._mentions(text) if k in family]
        return min(spans) if spans else None

    return find


def fact_problems(fact: Fact, reading: Reading, others: list[Fact]) -> list[str]:
    """Why the answer fails the fact (empty: it holds)."""
    problems: list[str] = []
    label = fact.label()
    subject = reading.key_of(fact.subject) if fact.subject else None
    family = reading.family(subject) if subject else set()
    find, lexical = predicate(fact)
    named_only = find is None and subject is not None
    if named_only and subject is not None:
        find = _subject_finder(reading, subject)
    if find is not None:
        # an entity named inside the predicate's own words is what it is said of when it is
        # of the subject's kind ("ConfigMap app-config-v2 is not found" is about -v2)
        kinds = set(lexical.absent) if lexical is not None else set()
        if subject in reading.entities.by_key:
            kinds.add(reading.entities.by_key[subject].kind)
        found = [_with_siblings(o, kinds, reading) for o in reading.occurrences(find)]
        found = [_without_attributes(o, subject, reading) for o in found]
        good = [
            o
            for o in found
            if o.stance is Stance.asserted
            and (subject is None or named_only or not o.bound or o.about & family)
        ]
        if not good and fact.required:
            stances = sorted({o.stance.value for o in found})
            how = " and ".join(stances)
            elsewhere = sorted(
                {_show(k) for o in found if o.stance is Stance.asserted for k in o.bound}
            )
            if elsewhere:
                problems.append(f"fact {label!r} is asserted only of {', '.join(elsewhere)}")
            else:
                problems.append(f"fact {label!r} is " + (f"only {how}" if found else "not stated"))
        if subject is not None and not named_only:
            for o in found:
                wrong = o.stance is Stance.asserted and o.bound and not o.about & family
                if wrong and not _excused(o, lexical, fact, reading, others):
                    names = ", ".join(sorted(_show(k) for k in o.bound))
                    problems.append(f"fact {label!r} is asserted of {names}, not {fact.subject}")
                    break
    if fact.members:
        problems += _member_problems(fact, reading)
    return problems


def _without_attributes(o: Occurrence, subject: str | None, reading: Reading) -> Occurrence:
    """Values of the subject's record's other columns are attributes, not rivals: in "the
    database on-call is Jonas Weber", `database` (the team column) describes the row whose
    name is the subject."""
    by_key = reading.entities.by_key
    if subject not in by_key or not by_key[subject].kind.startswith("row:"):
        return o
    table = by_key[subject].kind.split(".", 1)[0]

    def rival(k: str) -> bool:
        kind = by_key[k].kind if k in by_key else ""
        return kind == by_key[subject].kind or not kind.startswith(table + ".")

    kept = frozenset(k for k in o.bound if rival(k))
    if kept == o.bound:
        return o
    if not kept:  # the clause's other names, once the attribute is set aside
        kept = frozenset(k for _, _, k in reading.mentions[o.sentence][o.clause] if rival(k))
    return Occurrence(o.sentence, o.clause, o.span, o.stance, kept, o.inside)


def _with_siblings(o: Occurrence, kinds: set[str], reading: Reading) -> Occurrence:
    by_key = reading.entities.by_key
    siblings = frozenset(k for k in o.inside if k in by_key and by_key[k].kind in kinds)
    if not siblings or o.bound:
        return o
    return Occurrence(o.sentence, o.clause, o.span, o.stance, siblings, o.inside)


def _excused(
    o: Occurrence, lexical: Entry | None, fact: Fact, reading: Reading, others: list[Fact]
) -> bool:
    """A statement about another entity that the environment or another fact supports."""
    if _true_of(o, fact, lexical, reading, []):
        return True
    clause = reading.groups[o.sentence][o.clause].text
    for other in others:
        if other is fact or not other.subject:
            continue
        find, _ = predicate(other)
        key = reading.key_of(other.subject)
        if find is not None and find(clause) and o.bound & reading.family(key):
            return True
    return False


_PREDICATE = re.compile(r"[A-Za-z]{3}")  # words, not a bare value ("1.27.4", "21:22")


def _true_of(
    o: Occurrence,
    fact: Fact,
    lexical: Entry | None,
    reading: Reading,
    answers: list[Fact],
    causes: bool = True,
) -> bool:
    """Whether what the statement says is what the environment says of the entities it is
    bound to: a lexicon cause their text holds evidence for, a task wording their text
    carries ("primary" of the person a record names primary), a figure their record states
    and states instead of the answer's ("FRA-2 has another 59 available"). A wording that
    names an entity, or is a bare value, is a mention, not a predicate, and supports nothing;
    `causes=False` leaves out lexicon evidence (a reject naming its subject: the task says it
    is false of it)."""
    if not o.bound:
        return False
    evidence = reading.evidence(o.bound)
    if not evidence:
        return False
    if causes and lexical is not None and lexical.evidence and lexical.supported_by(evidence):
        return True
    if lexical is not None and not lexical.evidence and lexical.wordings:
        clause = reading.groups[o.sentence][o.clause].text
        said = [
            w
            for w in lexical.wordings
            if phrase_pattern(w).search(clause)
            and _PREDICATE.search(w)
            and not reading._mentions(w)
        ]
        if said and all(phrase_pattern(w).search(evidence) for w in said):
            return True
    if fact.amount is not None:
        amount = fact.amount
        if not quantity_span(evidence, amount.value, amount.unit, amount.tolerance):
            return False
        by_key = reading.entities.by_key
        own = "\n".join(t for k in o.bound if k in by_key for t in by_key[k].evidence)
        return not any(  # the record's own text: a line naming it may hold its neighbours
            quantity_span(own, a.amount.value, a.amount.unit, a.amount.tolerance)
            for a in answers
            if a.amount is not None
        )
    return False


def _show(key: str) -> str:
    return key.split(":", 1)[1] if key.startswith(("name:", "id:")) else key


def _member_problems(fact: Fact, reading: Reading) -> list[str]:
    problems = []
    keys = [reading.key_of(m) for m in fact.members]
    families = set().union(*(reading.family(k) for k in keys))
    kinds = {reading.entities.by_key[k].kind for k in keys if k in reading.entities.by_key}
    find, _ = predicate(fact)
    for s, group in enumerate(reading.groups):
        listing = False
        for c, clause in enumerate(group):
            for a, b, k in reading.mentions[s][c]:
                if k in families and stance_at(clause, (a, b)) is Stance.asserted:
                    listing = True
            span = find(clause.text) if find else None
            if span is not None and stance_at(clause, span) is Stance.asserted:
                listing = True
        if not listing:
            continue
        for c, clause in enumerate(group):
            for a, b, k in reading.mentions[s][c]:
                entity = reading.entities.by_key.get(k)
                if (
                    entity is not None
                    and entity.kind in kinds
                    and k not in families
                    and stance_at(clause, (a, b)) is Stance.asserted
                ):
                    problems.append(f"list {fact.label()!r} also names {_show(k)}")
                    return problems
    return problems


# A figure taken apart: "243 on hand minus 26 reserved", "on_hand 243 = ...", "of which".
_BREAKDOWN = re.compile(r"\b(?:minus|plus|less|of which|out of|in total|total)\b|[=+−]|\s-\s")


def reject_problems(fact: Fact, reading: Reading, required: list[Fact] | None = None) -> list[str]:
    """A rejected statement (a planted mistake's) asserted or offered as a candidate. A
    rejected figure next to the required one (a sentence either side) is its breakdown
    ("217 sellable: 243 on hand minus 26 reserved"), not an answer."""
    find, lexical = predicate(fact)
    subject = reading.key_of(fact.subject) if fact.subject else None
    if find is None and subject is not None:
        find = _subject_finder(reading, subject)
    if find is None:
        return []
    named = _label_entities(fact, reading)
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
    for o in reading.occurrences(find):
        clause = reading.groups[o.sentence][o.clause].text
        if o.stance is Stance.negated or (o.sentence in near and _BREAKDOWN.search(clause)):
            continue
        if labels is not None and labels.search(clause[max(0, o.span[0] - 40) : o.span[1] + 25]):
            continue  # "781 on hand", "retry_backoff would be 45000 ms": said of what it is
        if idents is not None and idents.search(_sentence(reading, o.sentence)):
            continue  # "(the other entry, reindex-search, runs daily at 21:22)"
        if fact.amount is not None and o.sentence in near and _worked(fact, reading, o, required):
            continue
        if o.stance is Stance.asserted and (
            o.bound & named or _true_of(o, fact, lexical, reading, required or [], subject is None)
        ):
            continue  # said of what it is: "reindex-search runs daily at 21:22"
        if subject is None or not o.bound or o.bound & family:
            return [f"wrong answer {fact.label()!r} is {o.stance.value}"]
    return []


def _label_identifiers(name: str) -> re.Pattern[str] | None:
    """The identifiers a rejected statement's own name holds (`reindex-search` in "the
    reindex-search entry's time"): a sentence naming one says the figure of what it is."""
    words = set(re.findall(r"\b[A-Za-z][\w.]*[-_][\w.-]*\w\b", name))
    if not words:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])")


def _sentence(reading: Reading, s: int) -> str:
    return " ".join(c.text for c in reading.groups[s])


def _label_entities(fact: Fact, reading: Reading) -> frozenset[str]:
    """The entities a rejected statement's own name names ("the reindex-search entry's
    time"), and their families: the statement said of them is said of what it is."""
    keys = {k for _, _, k in reading._mentions(fact.label())}
    if fact.subject:
        keys.discard(reading.key_of(fact.subject))
    return frozenset(f for k in keys for f in reading.family(k))


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


def _worked(fact: Fact, reading: Reading, o: Occurrence, required: list[Fact] | None) -> bool:
    """A rejected figure that its sentence combines with another into the required one."""
    assert fact.amount is not None
    sentence = " ".join(c.text for c in reading.groups[o.sentence])
    figures = [(q.raw, q.start) for q in quantities(sentence)]
    results = [f.amount.value for f in required or [] if f.amount is not None]
    return derivation_operand(fact.amount.value, figures, results)
