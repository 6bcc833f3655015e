"""Facts bound to entities, and claims checked against the declared environment.

An answer is read clause by clause (agentbench.scoring.claims). Where a clause states a
predicate (a lexicon entry, a figure, a moment, a task's own wording), the statement is bound
to the entities the clause names (outside the predicate's own words); a clause naming none is
bound to the nearest entity named earlier in its sentence, else later in it, else the last one
named in an earlier sentence; an answer that names none is unbound (about the task's subject).

- A required fact passes when asserted of its subject's family (or unbound); it fails when the
  answer asserts it of another declared entity that neither the environment nor another fact
  supports (the right cause on a healthy neighbour, two names swapped). What is true of that
  entity (`true_of`: its evidence holds the lexicon state, a line writes the task's wording
  beside its name, its own record states the figure) is context, not a wrong answer.
- `members` (agentbench.scoring.members): a listing must not name a non-member of their kind;
  rejects (agentbench.scoring.rejects) are the planted mistakes' statements.
- Every lexicon cause or state the answer asserts must be supported by the environment text of
  the entities it is bound to (agentbench.scoring.unsupported).
"""

from __future__ import annotations

import re
from dataclasses import replace

from agentbench.scoring.cues import NEGATION
from agentbench.scoring.intervals import interval_span
from agentbench.scoring.lexicon import Entry, entry, phrase_pattern
from agentbench.scoring.members import member_problems
from agentbench.scoring.quantities import moment_span, parse_moment, quantity_span
from agentbench.scoring.reading import Occurrence, Reading, Span, SpanFn, show_key
from agentbench.scoring.stance import Stance, unquoted
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
        finders.append(
            lambda t: _not_an_operand(
                t, quantity_span(t, amount.value, amount.unit, amount.tolerance, amount.convert)
            )
        )
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


# what follows a figure that is a term of written arithmetic: "384 + 23 = 407"
_OPERATOR_AFTER = re.compile(r"\s*[-+*/×−]\s*\d[\d,.]*(?:\s*[-+*/×−]\s*\d[\d,.]*)*\s*=\s*\d")


def _not_an_operand(text: str, span: Span | None) -> Span | None:
    """The span, unless the figure there is a term of arithmetic the text writes out: in
    "384 + 23 = 407 units" the answer given is 407, not 384."""
    if span is None or not _OPERATOR_AFTER.match(text, span[1]):
        return span
    return None


def subject_finder(reading: Reading, key: str) -> SpanFn:
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
        find = subject_finder(reading, subject)
    if find is not None:
        # an entity named inside the predicate's own words is what it is said of when it is
        # of the subject's kind ("ConfigMap app-config-v2 is not found" is about -v2)
        kinds = set(lexical.absent) if lexical is not None else set()
        if subject in reading.entities.by_key:
            kinds.add(reading.entities.by_key[subject].kind)
        found = [_with_siblings(o, kinds, reading) for o in reading.occurrences(find)]
        found = [_without_attributes(o, subject, reading) for o in found]
        found = [_account_of(o, subject, reading) for o in found]
        found = [_referrer_of(o, fact, lexical, reading) for o in found]
        if _names_only(fact, reading):  # "orders-db-1 is not in recovery" names db-1
            found = [_named_despite_predicate(o, reading) for o in found]
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
                {show_key(k) for o in found if o.stance is Stance.asserted for k in o.bound}
            )
            if elsewhere:
                problems.append(f"fact {label!r} is asserted only of {', '.join(elsewhere)}")
            else:
                problems.append(f"fact {label!r} is " + (f"only {how}" if found else "not stated"))
        if subject is not None and not named_only:
            for o in found:
                wrong = o.stance is Stance.asserted and o.bound and not o.about & family
                if wrong and good and _inferred(o, reading):
                    continue  # a clause naming nothing, next to a rival's name, beside a claim
                    # that names the subject: the claim is the answer's, the guess is ours
                if wrong and not _excused(o, lexical, fact, reading, others):
                    names = ", ".join(sorted(show_key(k) for k in o.bound))
                    problems.append(f"fact {label!r} is asserted of {names}, not {fact.subject}")
                    break
    if fact.members:
        problems += member_problems(fact, reading, predicate(fact)[0])
    return problems


def _names_only(fact: Fact, reading: Reading) -> bool:
    """Whether the fact's predicate is only the names of a declared entity ("written on the
    primary orders-db-1": wordings `orders-db-1`, `orders-db-1.internal`)."""
    if not fact.wordings or fact.patterns or fact.is_ or fact.amount or fact.at:
        return False
    if any(re.search(r"\s", w) for w in fact.wordings):
        return False
    names = {n.lower() for e in reading.entities.by_key.values() for n in e.names}
    return any(w.lower() in names for w in fact.wordings)


def _named_despite_predicate(o: Occurrence, reading: Reading) -> Occurrence:
    """A name negated only by what its clause goes on to say of it ("orders-db-1.internal is
    not in recovery") is named: the negation is the predicate's, not the name's."""
    if o.stance is not Stance.negated:
        return o
    clause = reading.groups[o.sentence][o.clause]
    if clause.negated_before or clause.contrasted:
        return o
    if NEGATION.search(unquoted(clause.text[: o.span[0]])):
        return o
    return replace(o, stance=Stance.asserted)


def _inferred(o: Occurrence, reading: Reading) -> bool:
    """Whether what the statement is about was only guessed: neither its own clause nor one
    before it in its sentence names what it is bound to ("Production: 2.14.0, with one canary
    on 2.15.0-rc2" is said of production; "..., so the directive is unterminated" before
    "nginx only notices ..." or a clause after a sentence of other names is a guess)."""
    text = reading.groups[o.sentence][o.clause].text
    first = o.clause if _OWN_NOUN_PHRASE.match(text) else 0  # "the ConfigMap was renamed"
    named = {k for c in range(first, o.clause + 1) for _, _, k in reading.mentions[o.sentence][c]}
    return not (o.bound & named) and not o.inside


# a clause that opens on a subject of its own: "the ConfigMap was renamed", "this pod has ..."
_OWN_NOUN_PHRASE = re.compile(
    r"\W*(?:and\s+|but\s+)?(?:the|this|that|its|their)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:is|was|were|are|has|had|have|got|went|still|never|did|does|do|will|would|can|could)\b",
    re.IGNORECASE,
)


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


def _account_of(o: Occurrence, subject: str | None, reading: Reading) -> Occurrence:
    """An account the subject's own records name is the subject's, not a rival: in "password
    authentication failed for user backup" of a job whose log says it logs in "as user backup",
    the failure is the job's."""
    by_key = reading.entities.by_key
    if subject not in by_key or by_key[subject].kind == "user" or not o.bound:
        return o
    if not all(k.startswith("user:") for k in o.bound):
        return o
    record = reading.evidence(frozenset({subject})).lower()
    if all(re.search(rf"\b{re.escape(k.split(':', 1)[1].lower())}\b", record) for k in o.bound):
        return Occurrence(o.sentence, o.clause, o.span, o.stance, frozenset({subject}), o.inside)
    return o


_WORKLOADS = frozenset(
    {"deployment", "statefulset", "daemonset", "replicaset", "pod", "container", "job", "cronjob"}
)


def _referrer_of(
    o: Occurrence, fact: Fact, lexical: Entry | None, reading: Reading
) -> Occurrence:
    """A missing object said of what references it is said of the object: "report-renderer
    references a ConfigMap that doesn't exist", where the Deployment's spec names the missing
    `report-renderer-config`, is about that ConfigMap (a workload that names no such object is
    still a rival)."""
    if lexical is None or not lexical.absent or not fact.subject or not o.bound:
        return o
    subject = reading.key_of(fact.subject)
    if o.about & reading.family(subject):
        return o
    by_key = reading.entities.by_key
    kinds = {by_key[k].kind for k in o.about if k in by_key}
    if not kinds <= _WORKLOADS:
        return o  # the statement names an object of its own ("-v2 doesn't exist"): a rival
    named = {k for group in reading.mentions[o.sentence] for _, _, k in group}
    if any(k in by_key and by_key[k].kind in lexical.absent for k in named):
        return o  # "references the Secret invoice-db-creds, which doesn't exist": that one
    quoted = f'"{fact.subject.lower()}"'
    for key in o.bound:
        related = frozenset(reading.family(key)) if key in reading.entities.by_key else frozenset()
        if quoted not in reading.evidence(related | {key}).lower():
            return o
    return Occurrence(o.sentence, o.clause, o.span, o.stance, frozenset({subject}), o.inside)


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
    if true_of(o, fact, lexical, reading, []):
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
# what sets a statement about another entity in its own scope: a time, a record, a contrast
# ("the Nov 16-23 shift (primary Priya Raman)", "Piotr takes over as primary next week");
# "Primary is Tomasz Nowak" has none and states the answer
_SCOPED = re.compile(
    r"\d{1,2}:\d\d|\b\d{4}-\d\d-\d\d|\b(?:shift|week|weekend|rota|rotation|scheduled?|regular"
    r"|normally|usually|otherwise|originally|on paper|would|was|were|had|until|till|from|since"
    r"|before|after|earlier|later|next|previous|last|takes? over|took over|handover|other"
    r"|another|also|too|as well|replaced|overrid\w*|covering for|instead of|rather than)\b",
    re.IGNORECASE,
)


def true_of(
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
    if (
        evidence
        and causes
        and lexical is not None
        and lexical.evidence
        and lexical.supported_by(evidence)
    ):
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
        beside = all(_beside_name(w, frozenset({k}), reading) for w in said for k in o.bound)
        scope = " ".join(c.text for c in reading.groups[o.sentence][: o.clause + 1])
        if said and _SCOPED.search(scope) and beside:
            return True  # each entity it is said of: a record beside the one named says nothing
    if fact.amount is not None and evidence:
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


def _beside_name(wording: str, keys: frozenset[str], reading: Reading) -> bool:
    """Whether a line of the environment says the wording of one of these entities, right
    beside its name (`primary: Priya Raman`, `Priya Raman (primary)`): a record holding the
    word elsewhere in the line (`primary: X, secondary: Priya Raman`) says it of X."""
    by_key = reading.entities.by_key
    names = [n for k in keys if k in by_key for n in by_key[k].names]
    names += [k.split(":", 1)[1] for k in keys if k.startswith("name:")]  # the task's names
    if not names:
        return False
    word = phrase_pattern(wording).pattern
    name = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    gap = r"[\s\"':=,(\[{-]{0,6}"
    beside = re.compile(rf"(?:{word}){gap}(?:{name})\b|\b(?:{name}){gap}(?:{word})", re.I)
    lines = reading.evidence(keys).splitlines()
    lines += reading.entities.global_evidence.splitlines() if not lines else []
    return any(beside.search(line) for line in lines)
