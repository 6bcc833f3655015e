"""One answer read for the fact checks: its clauses, the entities each clause names and what a
statement in it is bound to (agentbench.scoring.assertions checks facts against this reading;
figures, actions and unsupported claims read it too).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from agentbench.scoring.claims import Clause, sentence_clauses
from agentbench.scoring.entities import Entities, _pattern
from agentbench.scoring.stance import Stance, stance_at

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


# a consequence clause that opens with a subject of its own, no pronoun back to the last one
_OWN_SUBJECT = re.compile(
    r"\W*(?:(?:so|therefore|thus|hence|which means|meaning)\W+)?(?:that\s+)?"
    r"(?:nothing|nobody|no\s+\w+|every\w*|all\s+\w+|any\w*|the\s+(?:whole|entire)\b)",
    re.IGNORECASE,
)
_PLURAL = re.compile(
    r"\b(?:are|were|have|both|all|several|these|those|two|three|four|five|\d+)\b", re.IGNORECASE
)


def _introduces(clause: Clause) -> bool:
    """Whether the clause is a lead-in about several things that its sentence lists after a
    colon ("Two services are unhealthy: ..."; not "CreateContainerConfigError: ...")."""
    at = clause.sentence.find(clause.text) if clause.sentence else -1
    if at < 0 or not clause.sentence[at + len(clause.text) :].lstrip().startswith(":"):
        return False
    return bool(_PLURAL.search(clause.text))


# a clause whose subject is a count of its own: "4 succeeded", "the other 2 were cancelled"
COUNT_SUBJECT = re.compile(
    r"\W*(?:and\s+|but\s+|while\s+)?(?:the\s+other\s+|another\s+)?"
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?:of\s+them\s+|more\s+|others?\s+)?(?:were|was|are|is|succeeded|failed|ended|passed"
    r"|remain\w*|got|had|have|did)\b",
    re.IGNORECASE,
)


def tail_phrase(text: str, span: tuple[int, int]) -> bool:
    """Whether a predicate of its own follows the statement in its clause ("failures [was
    followed by a successful redeploy]"): what parentheses after it name is that phrase, while
    after "a redeploy of the same version (dep-70f1)" they name the statement's own noun."""
    rest = text[span[1] :]
    return len(re.findall(r"[A-Za-z]{2,}", rest)) >= 3 and bool(_VERB.search(rest))


_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|does|did|will|would|can|could)\b", re.IGNORECASE
)


def asides_after(group: list[Clause], c: int) -> list[int]:
    """The clauses in parentheses right after clause c: "redeploy (dep-70f1, dep-72b0)"."""
    out = []
    for i in range(c + 1, len(group)):
        if not parenthetical(group[i]):
            break
        out.append(i)
    return out


def parenthetical(clause: Clause) -> bool:
    """Whether the clause lies inside parentheses of its sentence: "(override for Priya)"."""
    at = clause.sentence.find(clause.text) if clause.sentence else -1
    before = clause.sentence[:at] if at >= 0 else ""
    return before.count("(") > before.count(")")


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

    def sentence(self, s: int) -> str:
        """Sentence s as written, or its clauses joined where no text of it was kept."""
        group = self.groups[s]
        return next((c.sentence for c in group if c.sentence), " ".join(c.text for c in group))

    def lead_in(self, o: Occurrence) -> str:
        """The sentence's text before the occurrence's clause (with a space after it)."""
        group = self.groups[o.sentence]
        return " ".join(c.text for c in group[: o.clause]) + (" " if o.clause else "")

    def stance_of(self, s: int, token: str) -> Stance:
        """The stance of the first clause of sentence s that holds `token` (asserted when none
        does: a token that spans clauses, "137 (SIGKILL)", is read at sentence level)."""
        for clause in self.groups[s]:
            at = clause.text.find(token)
            if at >= 0:
                return stance_at(clause, (at, at + len(token)))
        return Stance.asserted

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
        clause = self.groups[s][c]
        if clause.consequence and _OWN_SUBJECT.match(text):
            return frozenset()  # "..., so nothing is listening behind 10.96.0.10": the situation
        if COUNT_SUBJECT.match(text) and c > 0:
            # "..., 4 succeeded": a count of the group named before, not of what the
            # parentheses before it list ("3 failed (dep-70e8, ...), 4 succeeded")
            return self._context(s, c, after=True, tail=True, aside=True)
        return self._context(s, c, after=True, tail=tail_phrase(text, span))

    def _context(
        self, s: int, c: int, after: bool = False, tail: bool = False, aside: bool = False
    ) -> frozenset[str]:
        """The entities named nearest before clause c in its sentence (then after it, then
        in earlier sentences, when `after`), skipping negated clauses. With `tail` (the
        statement is followed in its clause by a phrase of its own), the parentheses right
        after the clause name that phrase, not the statement."""
        group = self.groups[s]
        later = []  # a clause after "so" states its own subject: the search stops there
        # "the 3 failures were followed by a redeploy (dep-70f1, dep-72b0)": the redeploy's
        attached = set(asides_after(group, c)) if tail else set()
        for i in range(c + 1, len(group)) if after else ():
            if group[i].consequence:
                break
            if i not in attached:
                later.append(i)
        order = [*range(c - 1, -1, -1), *later]
        if aside:  # parentheses are asides: what they name is not the clause's subject
            order = [i for i in order if not parenthetical(group[i])]
        if after and _introduces(group[c]):
            # "Two services are unhealthy: auth (503) and profile (...)": said of every one
            listed = [
                k
                for i in later
                if not _negated(group[i]) and not parenthetical(group[i])
                for _, _, k in self.mentions[s][i]
            ]
            if listed and not any(self.mentions[s][i] for i in range(c)):
                return frozenset(listed)
        for i in order:
            # the user an action ran as ("... as user indexer") is not what a later clause is about
            own = [
                k
                for a, b, k in self.mentions[s][i]
                if not _AS_USER.search(group[i].text[:a])
                and not _REPORTS.match(group[i].text[b:])  # "the payments API shows ...": a source
            ]
            if own and not _negated(group[i]):
                return frozenset(own)
        for earlier in range(s - 1, -1, -1):
            if table_row(self.groups[earlier]):
                continue  # a row is about its own first cell; the text after the table is not
            keys = [
                k
                for i, m in enumerate(self.mentions[earlier])
                for _, b, k in m
                if not _negated(self.groups[earlier][i])
                and not _REPORTS.match(self.groups[earlier][i].text[b:])
                and not _denied_after(self.groups[earlier], self.mentions[earlier], i)
                and not k.startswith("user:")
            ]  # a user named in an earlier sentence (a file's owner) is no later subject
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
            # the stance of the clauses it covers, not of the sentence's later ones ("... 07:45
            # - 16 runs a day, none on weekdays": the `none` is another statement's)
            lo = starts[covered[0]] if covered else 0
            hi = starts[covered[-1]] + len(group[covered[-1]].text) if covered else len(text)
            lo, hi = min(lo, span[0]), max(hi, span[1])
            # the context of the first clause it covers, not of the sentence's first: "My
            # first thought was X, but that's not right: 6-8 ... 08:55" retracts only X
            first = group[covered[0]] if covered else group[0]
            whole = Clause(text[lo:hi], first.hedged_before, False, first.negated_before)
            stance = stance_at(whole, (span[0] - lo, span[1] - lo))
            # a later clause it spans negates it by words outside the statement's own
            # ("the Secret ..., X, isn't present" holds its `n't` inside the statement)
            for i in covered[1:]:
                own_end = max(0, min(len(group[i].text), span[1] - starts[i]))
                rest = group[i].text[own_end:]
                if rest.strip() and _negated(replace(group[i], text=rest)):
                    stance = Stance.negated
            named = frozenset(k for i in covered for _, _, k in self.mentions[s][i])
            bound = named or self._context(s, covered[0] if covered else len(group), after=True)
            return Occurrence(s, 0, (0, 0), stance, bound)
        return None


def table_row(group: list[Clause]) -> bool:
    """Whether the sentence is a row of a markdown table (`| FRA-1 | 68 | 23 | 45 |`)."""
    sentence = (group[0].sentence or "").strip() if group else ""
    return sentence.startswith("|") and sentence.endswith("|")


_REPORTS = re.compile(
    r"\s*(?:api|endpoint|service|log|logs|output|table|record|response)?\s*(?:shows|showed|says|said|"
    r"reports|reported|lists|listed|returns|returned|confirms|confirmed|prints|printed)\s+"
    r"(?:that|this|the|its|those|these|it)\b"  # "... shows that payment as failed": of another
    # a program reading what is wrong: "where nginx notices the problem"
    r"|\s+(?:notices|noticed|complains|complained|trips|tripped|chokes|choked)\b",
    re.IGNORECASE,
)
_AS_USER = re.compile(r"\bas\s+(?:the\s+)?(?:user\s+|account\s+)?$", re.IGNORECASE)
_MODIFIER = re.compile(
    r"\b(?:on|at|from|to|via|behind|inside|against|towards?|into|onto|than|like|as)\s+"
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


def show_key(key: str) -> str:
    """An entity key as a reader would name it (`name:Priya Raman` -> `Priya Raman`)."""
    return key.split(":", 1)[1] if key.startswith(("name:", "id:")) else key


def _negated(clause: Clause) -> bool:
    return stance_at(clause, (0, 0)) is Stance.negated


def _denied_after(group: list[Clause], mentions: list[list[tuple[int, int, str]]], i: int) -> bool:
    """Whether the predicate of a name in clause i is a later clause of the sentence that names
    nothing and is negated: "The other site, `default` (changed in March), is not involved"."""
    for clause, named in zip(group[i + 1 :], mentions[i + 1 :], strict=True):
        if named or clause.consequence:
            return False
        if _DENIED_PREDICATE.match(clause.text):
            return True
    return False


# a predicate with no subject of its own that denies: "is not involved", "wasn't touched"
_DENIED_PREDICATE = re.compile(
    r"\W*(?:(?:is|are|was|were|has|have|had|does|do|did)\s+(?:not|never|nothing|no)\b"
    r"|(?:isn|aren|wasn|weren|hasn|haven|hadn|doesn|don|didn)[’']t\b)",
    re.IGNORECASE,
)
