"""The `expect:` part of the task format: what a correct episode does. Docstrings are the format.

Each part present in `expect` is one check; the score is the share of checks passed. Two checks
are always made: `tools_offered` (every call names a tool the task offers) and `side_effects`
(every state change the environment recorded, and every write a call attempted, is one
`expect.changes` allows: without `changes:` a task is read-only, so a diagnosis that deletes a
deployment fails, also through a wrapper no simulator carries out).

Process parts are judged by evidence and effect, never by a call list (read-only extra calls
are always allowed): `evidence` names the facts a required read's output must have shown,
`final` reads the end state, `changes` the change log and its order, and every write a call
attempted (classified before it ran) must be one `changes` allows. The exceptions over command
text, `forbid` and evidence by `call`, compare a literal pattern by the simulator's identity on
a fresh copy of the start state (`kubectl get po -n web` = `kubectl get pods --namespace=web -o
wide`), a matcher object (`$regex`, `$contains`, `$one_of`, `$any`) as text by the tool's
argument kinds (`agentbench.tasks.model`); on shell commands they see each command the line
would run (pipes, lists, loops, `$(…)`, `eval`, `sh -c`, `xargs` templates) with its wrappers
(`sudo`, `env VAR=`, `timeout`, `nohup`, …) and `/usr/bin/` paths stripped, and each needs a
`why`.

Answers are scored by what they assert (`agentbench.scoring.claims`): a claim counts only when a
sentence asserts it, not when it is negated ("not", "isn't", "ruled out", "rather than", ...)
or hedged ("maybe", "might", "could be", "either ... or", a list of candidate causes). An answer
that asserts or hedges towards a decoy fails.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

UNITS = (
    "%",
    "B",
    "KB",
    "MB",
    "GB",
    "TB",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "Ki",
    "Mi",
    "Gi",
    "Ti",
    "ms",
    "s",
    "min",
    "h",
    "d",
    "$",
    "EUR",
)
# A one-word phrasing must look technical (a digit, an inner capital, `_ - . / :`) or be rare,
# so a claim is never satisfied by one common word ("unable" must not pass for "unavailable").
_TECHNICAL_WORD = re.compile(r".*(\d|[a-z][A-Z]|[A-Z]{2}|[_\-./:]).*")


def common_word(word: str) -> bool:
    """A frequent English word: not technical-looking, and one token of a general-purpose
    tokenizer vocabulary (o200k) on its own, the proxy used for word frequency
    ("unavailable", "memory", "timeout" are; "Corefile", "deadlock", "liveness" are not)."""
    if _TECHNICAL_WORD.fullmatch(word):
        return False
    from agentbench.tokens import estimate_tokens

    return estimate_tokens(" " + word.lower()) == 1


@cache
def lexicon_ids() -> frozenset[str]:
    """The entry ids of the suite's lexicon (agentbench/data/lexicon.yaml), which `is:` names."""
    import yaml

    path = Path(__file__).resolve().parents[1] / "data" / "lexicon.yaml"
    return frozenset(yaml.safe_load(path.read_text(encoding="utf-8")))


def compiling(patterns: list[str], what: str) -> list[str]:
    """`patterns` when each compiles; ValueError naming the first that does not."""
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"{what} {pattern!r}: {exc}") from exc
    return patterns


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CallPattern(_Strict):
    """A tool call to match: `tool` exactly, `args` by literal-by-kind or matcher objects."""

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


class ChangePattern(_Strict):
    """Matches state changes recorded by the simulators (`agentbench.sim.core.base.Change`).

    `system` and `action` are exact names or `*`; `target` is a glob (`fnmatch`), e.g.
    `deployment/web/*`, `node/worker-4`, `/etc/nginx/*`.
    """

    system: str = Field(default="*", description="kubernetes, filesystem, sql, systemd, http.")
    action: str = Field(default="*", description="delete, scale, cordon, drain, write, ...")
    target: str = Field(default="*", description="Glob over the change's target.")


class StateCondition(_Strict):
    """A condition on the episode's end state: every part present must hold."""

    changed: list[ChangePattern] = Field(
        default_factory=list, description="Each matches at least one recorded change."
    )
    unchanged: list[ChangePattern] = Field(
        default_factory=list, description="None matches any recorded change."
    )
    state: dict[str, Any] = Field(
        default_factory=dict, description="Rule state keys (`set:` of rules) equal these values."
    )


class Claim(_Strict):
    """One fact, written as alternatives that each state it precisely.

    Text: `phrases` are matched case-insensitively as whole words, with any run of spaces or
    hyphens between words ("out of memory" matches "out-of-memory"); a one-word phrase must look
    technical (`OOMKilled`, `exit-137`, `/healthz`) or be a rare word (`Corefile`, `deadlock`),
    never a common one (`unavailable`, `memory`: one token of the o200k vocabulary). `regex`
    are Python patterns (case-insensitive). Numbers: `number` matches any figure in the text
    equal to it within `tolerance` (absolute, in `unit`) whatever its spelling: 48,213.40 =
    48213.4 = $48,213.40; with a `unit`, a figure written with another unit of the same
    dimension is converted (512Mi = 0.5Gi, 1500 ms = 1.5 s); a figure without a unit counts.
    A claim may combine kinds; any one alternative matching a sentence makes it present there.

    `when`: the claim applies only if the end state holds it, so a report is checked against
    what happened: a decoy "the drain succeeded" with `when: {unchanged: [{action: drain}]}`
    fails an answer that claims a drain the environment never saw.
    """

    name: str = Field(min_length=1, description="Short label, shown when the check fails.")
    phrases: list[str] = Field(default_factory=list)
    regex: list[str] = Field(default_factory=list)
    number: float | None = None
    tolerance: float = Field(default=0.0, ge=0)
    unit: str | None = Field(default=None, description=f"One of {', '.join(UNITS)}.")
    when: StateCondition | None = None

    @field_validator("phrases")
    @classmethod
    def _precise(cls, phrases: list[str]) -> list[str]:
        for phrase in phrases:
            words = phrase.split()
            if not words:
                raise ValueError("an empty phrase")
        return phrases

    def imprecise_phrases(self) -> list[str]:
        """One-word phrases that are common words (`tasks validate` refuses them; checked there
        because the vocabulary costs a second to load)."""
        return [p for p in self.phrases if len(p.split()) == 1 and common_word(p.strip())]

    @field_validator("regex")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        return compiling(patterns, "regex")

    @model_validator(mode="after")
    def _something(self) -> Claim:
        if not (self.phrases or self.regex or self.number is not None):
            raise ValueError("a claim needs phrases, regex or number")
        if self.unit is not None and self.unit not in UNITS:
            raise ValueError(f"unit {self.unit!r} is not one of {', '.join(UNITS)}")
        return self


class Amount(_Strict):
    """A figure: `value` in `unit` (any unit of the same dimension in the answer is converted:
    64Mi = 64 MiB = 67,108,864 bytes; 36 h = 129,600 s, while 36 min is not 36 h); a figure
    written without a unit counts; `tolerance` is absolute, in `unit`."""

    value: float
    unit: str | None = Field(default=None, description=f"One of {', '.join(UNITS)}.")
    tolerance: float = Field(default=0.0, ge=0)

    @model_validator(mode="after")
    def _known_unit(self) -> Amount:
        if self.unit is not None and self.unit not in UNITS:
            raise ValueError(f"unit {self.unit!r} is not one of {', '.join(UNITS)}")
        return self


class Fact(_Strict):
    """One fact the answer must assert, bound to the entity it is about.

    `subject`: a declared entity (an entity key such as `pod/web/nginx-7c5ddbdf54-x8k2p`, or a
    name of one: `replica-2`, `billing`, `/var`, `A-1009`); the fact passes only when its
    predicate is asserted of the subject (same clause, else the nearest entity named in the
    sentence, else the one named last before it; an answer naming no entity is about the
    subject), and the answer fails when it asserts the predicate of another declared entity
    that is neither in the subject's family nor supported by the environment. Without a
    subject the fact is checked wherever it is stated.

    The predicate is any of: `is` (a lexicon entry id, agentbench/data/lexicon.yaml) plus the
    task's own `wordings` (phrases) and `patterns` (regexes); `amount` (a figure); `at` (a
    moment, ISO 8601, matched to the minute in any common spelling: `2026-11-25T09:41Z`,
    `Nov 25 09:41:03`, `25 November 2026, 09:41 UTC`, epoch seconds). Without a predicate the
    fact is that the answer names its subject (asserted, not negated nor hedged).

    `members`: what the answer may list: a sentence that asserts one of them (or the fact's
    figure) must not assert another declared entity of their kind (the right count with the
    wrong ids, an evicted pod among those that remain). Each member the answer must name is a
    fact of its own. `when` applies the fact only when the end state holds it.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str | None = Field(default=None, description="Short label; default from the rest.")
    subject: str | None = None
    is_: str | None = Field(default=None, alias="is", description="A lexicon entry id.")
    wordings: list[str] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    amount: Amount | None = None
    at: str | None = Field(default=None, description="An ISO 8601 moment (naive means UTC).")
    members: list[str] = Field(default_factory=list)
    when: StateCondition | None = None

    @field_validator("patterns")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        return compiling(patterns, "pattern")

    @field_validator("is_")
    @classmethod
    def _known_entry(cls, value: str | None) -> str | None:
        if value is not None and value not in lexicon_ids():
            known = ", ".join(sorted(lexicon_ids()))
            raise ValueError(f"no lexicon entry {value!r} (known: {known})")
        return value

    @field_validator("at")
    @classmethod
    def _moment(cls, value: str | None) -> str | None:
        if value is not None:
            from datetime import datetime

            try:
                datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError as exc:
                raise ValueError(f"at: {value!r} is not an ISO 8601 moment") from exc
        return value

    @model_validator(mode="after")
    def _something(self) -> Fact:
        if not (self.subject or self.is_ or self.wordings or self.patterns or self.amount
                or self.at or self.members):
            raise ValueError("a fact needs a subject, a predicate or members")
        return self

    def label(self) -> str:
        if self.name:
            return self.name
        what = self.is_ or (self.wordings[0] if self.wordings else None)
        if self.amount is not None:
            what = f"{self.amount.value:g}{self.amount.unit or ''}"
        what = what or self.at or ("lists " + ", ".join(self.members) if self.members else "")
        return f"{self.subject}: {what}" if self.subject and what else (self.subject or what)


class AnswerExpectation(_Strict):
    """Checks on the final answer.

    `claims` must each be asserted; `decoys` (the wrong causes and figures of the planted
    mistakes) must not be asserted nor offered as a candidate; a negated decoy ("not replica-2")
    is fine. `json_schema`: the answer holds exactly one JSON object (bare or fenced) and it
    validates; two objects fail, and so do extra keys when the schema sets
    `additionalProperties: false`. `regex` is a plain text check for an exact token (an id, a
    file name); facts are claims, never keyword lists, which pass negated and hedged answers.
    """

    facts: list[Fact] = Field(
        default_factory=list, description="Every one must be asserted, of its subject."
    )
    rejects: list[Fact] = Field(
        default_factory=list,
        description="Wrong answers (a planted mistake's cause or figure): none may be asserted "
        "nor offered as a candidate; negated is fine.",
    )
    claims: list[Claim] = Field(default_factory=list, description="Every one must be asserted.")
    decoys: list[Claim] = Field(default_factory=list, description="None may be asserted.")
    regex: str | None = Field(
        default=None, description="Must match (re.search, IGNORECASE): an exact token, not a fact."
    )
    json_schema: dict[str, Any] | None = Field(
        default=None, description="The answer's one JSON object must validate against this."
    )
    json_fields: dict[str, Any] = Field(
        default_factory=dict,
        description="Key -> literal (text-compared) or matcher, on the answer's JSON object.",
    )


class AttemptPattern(_Strict):
    """Matches a write a call attempted (`attempted_writes` of a tool result): `program`,
    `target` and `why` (the classifier's reason, e.g. `systemctl reload`, `SQL UPDATE`) are
    globs (`fnmatch`, case-sensitive), e.g. `{program: systemctl, why: systemctl reload}`."""

    program: str = "*"
    target: str = "*"
    why: str = "*"


class ChangesExpectation(_Strict):
    """The state changes an episode may make. Without it, a task is read-only.

    Every recorded change must match an `allowed` or `required` pattern; each `required`
    pattern must match at least one change (in this order when `ordered`). Every write a call
    *attempted* (classified before it ran) must be carried out as a recorded change of the
    same system, or match one of `attempts`: the writes the prompt asks for that the simulator
    answers by rule or refuses (`nginx -s reload`, an UPDATE on a read-only replica).
    """

    allowed: list[ChangePattern] = Field(default_factory=list)
    required: list[ChangePattern] = Field(default_factory=list)
    ordered: bool = False
    attempts: list[AttemptPattern] = Field(default_factory=list)


Shown = str | list[str]
"""Text a tool output must show: a string, or a list of alternative spellings (any one will
do). Compared case-insensitively with any run of whitespace matching any other."""


class Evidence(_Strict):
    """A required read, as the facts it must have shown: satisfied by any call (any tool of
    the task, any spelling, `sudo`/`env`/flags/pipes anywhere) whose output, as the episode
    received it, shows every fact in `shows` and none in `absent` ("nothing labelled pr=4411
    left": a listing of the namespace without it). Outputs of the off-script fallback and of
    runtime errors show nothing; a fact the command line itself spells out through `echo` or
    `printf` is not shown by it.

    Ordering where the prompt asks for it: `first` (the episode's first call shows it),
    `after` (the call comes no earlier than the first change matching the pattern), `before`
    (it comes before the first change matching that pattern: "verify each step before the
    next").

    `call` with `why` is the exception: the command itself must match (compared by meaning,
    like a rule's arguments; with `shows`, the same call must show the facts too), for a task
    where the output cannot tell two reads apart; `why` says so.
    """

    name: str = Field(min_length=1, description="What the read establishes; shown on failure.")
    shows: list[Shown] = Field(default_factory=list)
    absent: list[Shown] = Field(
        default_factory=list, description="Facts the same output must not show (gone, fixed)."
    )
    tool: str | None = Field(default=None, description="Only outputs of this tool count.")
    first: bool = False
    after: ChangePattern | None = None
    before: ChangePattern | None = None
    call: CallPattern | None = None
    why: str | None = None

    @model_validator(mode="after")
    def _well_formed(self) -> Evidence:
        if not self.shows and self.call is None:
            raise ValueError("evidence needs `shows` (the facts the read must show) or `call`")
        if self.call is not None and not (self.why or "").strip():
            raise ValueError("evidence by `call` (a command's text) needs `why`")
        if self.absent and not self.shows:
            raise ValueError("`absent` needs `shows` too (an unrelated read shows nothing)")
        for fact in [*self.shows, *self.absent]:
            options = [fact] if isinstance(fact, str) else fact
            if not options or not all(o.strip() for o in options):
                raise ValueError("an empty fact in `shows`")
        return self


class FinalRead(_Strict):
    """A read made on the episode's end state (the calls replayed on a fresh copy of the start
    state): its output must show every fact of `shows` and none of `absent`. A plan is checked
    by where it ends, whatever verbs and spellings got it there (delete by label = delete by
    names; `patch` = `set image`)."""

    name: str = Field(min_length=1)
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    shows: list[Shown] = Field(default_factory=list)
    absent: list[Shown] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> FinalRead:
        if not (self.shows or self.absent):
            raise ValueError("a final read needs `shows` or `absent`")
        return self


class ForbidPattern(CallPattern):
    """A call that must never be made, by its text: the exception (writes outside
    `expect.changes` already fail the episode), so `why` says what it guards against."""

    why: str = Field(min_length=1)


class Expectation(_Strict):
    """What a correct episode does. Each part present is one check; score = share passed."""

    evidence: list[Evidence] = Field(
        default_factory=list, description="Required reads, by the facts their output showed."
    )
    final: list[FinalRead] = Field(
        default_factory=list, description="Reads on the end state that must show these facts."
    )
    forbid: list[ForbidPattern] = Field(
        default_factory=list, description="Calls that must never be made, each with its reason."
    )
    max_repeats: int | None = Field(
        default=None, ge=1, description="No identical failing call may be made more than this."
    )
    answer: AnswerExpectation | None = None
    answer_unchecked: str | None = Field(
        default=None, description="Why this task does not check its final answer (then required)."
    )
    changes: ChangesExpectation | None = Field(
        default=None, description="Allowed and required state changes; absent: read-only."
    )
    end_state: dict[str, Any] = Field(
        default_factory=dict, description="State keys that must hold these values at the end."
    )

    @model_validator(mode="after")
    def _something(self) -> Expectation:
        if not (
            self.evidence
            or self.final
            or self.forbid
            or self.max_repeats
            or self.answer
            or self.end_state
            or self.changes
        ):
            raise ValueError("an expectation needs at least one check")
        if self.answer and self.answer_unchecked:
            raise ValueError("'answer' and 'answer_unchecked' exclude each other")
        return self
