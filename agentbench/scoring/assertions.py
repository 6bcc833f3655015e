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
from collections.abc import Callable
from dataclasses import dataclass

from agentbench.scoring.claims import Clause, Stance, sentence_clauses, stance_at
from agentbench.scoring.entities import Entities, _pattern
from agentbench.scoring.lexicon import Entry, entry
from agentbench.scoring.numbers import derivation_operand
from agentbench.scoring.quantities import moment_span, parse_moment, quantities, quantity_span
from agentbench.tasks.expectations import Fact

Span = tuple[int, int]
SpanFn = Callable[[str], Span | None]


@dataclass(frozen=True)
class Occurrence:
    sentence: int
    clause: int
    span: Span
    stance: Stance
    bound: frozenset[str]
    inside: frozenset[str] = frozenset()  # entities named within the statement's own words

    @property
    def about(self) -> frozenset[str]:
        return self.bound | self.inside


class Reading:
    """One answer, cut into clauses, with the entities each clause names."""

    def __init__(
        self, answer: str, entities: Entities, extra_names: list[str], happened: list[str]
    ) -> None:
        self.entities = entities
        self.happened = happened  # the episode's recorded changes, as text
        self.groups = sentence_clauses(answer)
        known = {n.lower() for e in entities.by_key.values() for n in e.names}
        self.extra = {
            n: f"name:{n}"
            for n in extra_names
            if n.lower() not in known and n not in entities.by_key
        }
        self.mentions = [[self._mentions(c.text) for c in group] for group in self.groups]

    def _mentions(self, text: str) -> list[tuple[int, int, str]]:
        found = self.entities.mentions(text)
        for name, key in self.extra.items():
            found += [(m.start(), m.end(), key) for m in _pattern(re.escape(name)).finditer(text)]
        return found

    def family(self, key: str) -> set[str]:
        return {key} if key.startswith("name:") else self.entities.family(key)

    def key_of(self, ref: str) -> str:
        if ref in self.extra:
            return self.extra[ref]
        return self.entities.resolve(ref)

    def evidence(self, keys: frozenset[str]) -> str:
        return self.entities.evidence({k for k in keys if not k.startswith("name:")}, self.happened)

    def bind(self, s: int, c: int, span: Span) -> frozenset[str]:
        """The entities a statement at `span` of clause c of sentence s is about; a name that
        several entities share (`checkout` in two namespaces) is narrowed by the nearest
        mention of one's namespace or owner."""
        bound = self._bind(s, c, span)
        if len(bound) < 2:
            return bound
        by_key = self.entities.by_key
        parents = {k: self.entities._ancestors(k) for k in bound if k in by_key}
        if len({frozenset(p) for p in parents.values()}) < 2:
            return bound
        context = [k for i in range(c, -1, -1) for _, _, k in self.mentions[s][i]]
        context += [k for e in range(s - 1, -1, -1) for m in self.mentions[e] for _, _, k in m]
        for key in [k for k in context if k not in bound]:
            narrowed = {k for k, p in parents.items() if key in p}
            if narrowed and narrowed != set(parents):
                return frozenset(narrowed | (bound - set(parents)))
        return bound

    def _bind(self, s: int, c: int, span: Span) -> frozenset[str]:
        own = [(a, b, k) for a, b, k in self.mentions[s][c] if b <= span[0] or a >= span[1]]
        text = self.groups[s][c].text
        if own and all(a >= span[1] for a, _, _ in own):
            # named only after the statement ("... the semicolon that ends every nginx
            # directive"): the sentence's subject before it counts too
            return _subject_run(text, own, span) | self._context(s, c)
        if own:
            return _subject_run(text, own, span)
        return self._context(s, c, after=True)

    def _context(self, s: int, c: int, after: bool = False) -> frozenset[str]:
        """The entities named nearest before clause c in its sentence (then after it, then
        in earlier sentences, when `after`), skipping negated clauses."""
        group = self.groups[s]
        later = []  # a clause after "so" states its own subject: the search stops there
        for i in range(c + 1, len(group)) if after else ():
            if group[i].consequence:
                break
            later.append(i)
        order = [*range(c - 1, -1, -1), *later]
        for i in order:
            if self.mentions[s][i] and not _negated(group[i]):
                return frozenset(k for _, _, k in self.mentions[s][i])
        for earlier in range(s - 1, -1, -1):
            keys = [
                k
                for i, m in enumerate(self.mentions[earlier])
                for _, _, k in m
                if not _negated(self.groups[earlier][i])
            ]
            if keys and after:
                return frozenset(keys)
        return frozenset()

    def occurrences(self, find: SpanFn) -> list[Occurrence]:
        """Where the text states it: in a clause, else across the clauses of one sentence
        (a list cut at its commas: "02:00, 02:15, 02:30"), bound to what the clauses it
        spans name and negated when one of them holds a negation."""
        out = []
        for s, group in enumerate(self.groups):
            if group and not any(find(c.text) for c in group):
                found = self._across(s, find)
                if found is not None:
                    out.append(found)
                continue
            for c, clause in enumerate(group):
                span = find(clause.text)
                if span is not None:
                    inside = frozenset(
                        k for a, b, k in self.mentions[s][c] if span[0] <= a and b <= span[1]
                    )
                    out.append(
                        Occurrence(
                            s, c, span, stance_at(clause, span), self.bind(s, c, span), inside
                        )
                    )
        return out

    def _across(self, s: int, find: SpanFn) -> Occurrence | None:
        """A statement spread over clauses of sentence s: in the sentence as written ("02:00,
        02:15"), else in its clauses joined ("pods) remain")."""
        group = self.groups[s]
        raw = next((c.sentence for c in group if c.sentence), "")
        for text, gap in ((raw, None), (" ".join(c.text for c in group), " ")):
            span = find(text) if text else None
            if span is None:
                continue
            starts, at = [], 0  # where each clause lies in the text
            for clause in group:
                hit = text.find(clause.text, at)
                starts.append(hit if hit >= 0 else at)
                at = (hit if hit >= 0 else at) + len(clause.text) + (len(gap) if gap else 0)
            covered = [
                i
                for i, clause in enumerate(group)
                if starts[i] < span[1] and span[0] < starts[i] + len(clause.text)
            ]
            whole = Clause(text, group[0].hedged_before, False, group[0].negated_before)
            stance = stance_at(whole, span)
            if any(_negated(group[i]) for i in covered[1:]):
                stance = Stance.negated
            named = frozenset(k for i in covered for _, _, k in self.mentions[s][i])
            bound = named or self._context(s, covered[0] if covered else len(group), after=True)
            return Occurrence(s, 0, (0, 0), stance, bound)
        return None


_MODIFIER = re.compile(
    r"\b(?:on|at|from|to|via|behind|inside|against|towards?|into|onto|than|like)\s+"
    r"(?:the\s+|its\s+|their\s+)?(?:\S+\s+)?$",
    re.IGNORECASE,
)
_LIST_GAP = re.compile(r"^(?:\s*(?:,|and|or|&|/|\+|plus)\s*|\s+)+$", re.IGNORECASE)


def _subject_run(text: str, own: list[tuple[int, int, str]], span: Span) -> frozenset[str]:
    """Of several entities a clause names, the ones the statement is about: the last run of
    names before it ("staging runs X and production runs Y": Y is production's), skipping
    names that only modify ("the pod on worker-2", "the cache at 10.0.6.21"); else the first
    run after it."""
    subjects = [m for m in own if not _MODIFIER.search(text[: m[0]])]
    if not subjects:
        return frozenset(k for _, _, k in own)
    before = [m for m in subjects if m[1] <= span[0]]
    pick = before[-1] if before else subjects[0]
    ordered = sorted(subjects)
    index = ordered.index(pick)
    run = [pick]
    for step in (-1, 1):
        i = index
        while 0 <= i + step < len(ordered):
            a, b = sorted([ordered[i], ordered[i + step]])
            if not _LIST_GAP.match(text[a[1] : b[0]]) and a[1] != b[0] and a[:2] != b[:2]:
                break
            i += step
            run.append(ordered[i])
    return frozenset(k for _, _, k in run)


def _negated(clause: Clause) -> bool:
    return stance_at(clause, (0, 0)) is Stance.negated


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
    if lexical is not None and lexical.evidence and lexical.supported_by(reading.evidence(o.bound)):
        return True
    if fact.amount is not None:
        evidence = reading.evidence(o.bound)
        if quantity_span(evidence, fact.amount.value, fact.amount.unit, fact.amount.tolerance):
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
    find, _ = predicate(fact)
    subject = reading.key_of(fact.subject) if fact.subject else None
    if find is None and subject is not None:
        find = _subject_finder(reading, subject)
    if find is None:
        return []
    family = reading.family(subject) if subject else set()
    near: set[int] = set()
    if fact.amount is not None:
        for other in required or []:
            other_find, _ = predicate(other)
            if other.amount is not None and other_find is not None:
                for o in reading.occurrences(other_find):
                    if o.stance is Stance.asserted:
                        near |= {o.sentence - 1, o.sentence, o.sentence + 1}
    for o in reading.occurrences(find):
        clause = reading.groups[o.sentence][o.clause].text
        if o.stance is Stance.negated or (o.sentence in near and _BREAKDOWN.search(clause)):
            continue
        if fact.amount is not None and o.sentence in near and _worked(fact, reading, o, required):
            continue
        if subject is None or not o.bound or o.bound & family:
            return [f"wrong answer {fact.label()!r} is {o.stance.value}"]
    return []


def _worked(fact: Fact, reading: Reading, o: Occurrence, required: list[Fact] | None) -> bool:
    """A rejected figure that its sentence combines with another into the required one."""
    assert fact.amount is not None
    sentence = " ".join(c.text for c in reading.groups[o.sentence])
    figures = [(q.raw, q.start) for q in quantities(sentence)]
    results = [f.amount.value for f in required or [] if f.amount is not None]
    return derivation_operand(fact.amount.value, figures, results)
