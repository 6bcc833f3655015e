"""The answer half of `expect:` (agentbench.tasks.expectations): facts bound to entities, the
wrong answers a task rejects, the older phrase claims and decoys, and structured-answer checks.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field, field_validator, model_validator

from agentbench.tasks.expect_process import StateCondition, _Strict, compiling

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
    convert: bool = Field(
        default=True,
        description="false: the figure must be written in `unit` itself (or bare), as a "
        "conversion task asks: 1680 hours, not 1680 minutes nor the 10w it started from.",
    )

    @model_validator(mode="after")
    def _known_unit(self) -> Amount:
        if self.unit is not None and self.unit not in UNITS:
            raise ValueError(f"unit {self.unit!r} is not one of {', '.join(UNITS)}")
        return self


_STEP = re.compile(r"^\s*(\d+)\s*([smhd])\s*$")


def every_seconds(step: str) -> int | None:
    """A recurrence step ("30m") in seconds; None when it is not one."""
    found = _STEP.match(step)
    if found is None or int(found[1]) == 0:
        return None
    return int(found[1]) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[found[2]]


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
    `Nov 25 09:41:03`, `25 November 2026, 09:41 UTC`, epoch seconds); `every` (a recurrence
    step, `30m`: "every 30 minutes", "twice an hour", "at :00 and :30", or the runs listed
    30 minutes apart, agentbench/scoring/intervals.py). Without a predicate the
    fact is that the answer names its subject (asserted, not negated nor hedged).

    `members`: what the answer may list: a sentence that asserts one of them (or the fact's
    figure) must not assert another declared entity of their kind (the right count with the
    wrong ids, an evicted pod among those that remain). Each member the answer must name is a
    fact of its own. `when` applies the fact only when the end state holds it. `required: false`
    makes it a condition on what the answer says, not a demand: unstated passes, but stated of
    another declared entity fails.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str | None = Field(default=None, description="Short label; default from the rest.")
    subject: str | None = None
    is_: str | None = Field(default=None, alias="is", description="A lexicon entry id.")
    wordings: list[str] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    amount: Amount | None = None
    at: str | None = Field(default=None, description="An ISO 8601 moment (naive means UTC).")
    every: str | None = Field(
        default=None, description='A recurrence step: "30m", "2h", "90s", "1d".'
    )
    members: list[str] = Field(default_factory=list)
    when: StateCondition | None = None
    required: bool = Field(
        default=True,
        description="False: the answer need not state it, but if it states the predicate it "
        'must be of the subject ("if you name the on-call, it is Jonas Weber").',
    )

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

    @field_validator("every")
    @classmethod
    def _step(cls, value: str | None) -> str | None:
        if value is not None and every_seconds(value) is None:
            raise ValueError(f"every: {value!r} is not a step such as 30m, 2h, 90s or 1d")
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
        if not (
            self.subject
            or self.is_
            or self.wordings
            or self.patterns
            or self.amount
            or self.at
            or self.every
            or self.members
        ):
            raise ValueError("a fact needs a subject, a predicate or members")
        return self

    def label(self) -> str:
        if self.name:
            return self.name
        what = self.is_ or (self.wordings[0] if self.wordings else None)
        if self.amount is not None:
            what = f"{self.amount.value:g}{self.amount.unit or ''}"
        what = what or self.at or (f"every {self.every}" if self.every else None)
        what = what or ("lists " + ", ".join(self.members) if self.members else "")
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
    max_sentences: int | None = Field(
        default=None,
        ge=1,
        description="The prompt's limit on the answer's length (\"in one sentence\"): at most "
        "this many sentences, list items and table rows each counting as one.",
    )
    json_schema: dict[str, Any] | None = Field(
        default=None, description="The answer's one JSON object must validate against this."
    )
    json_fields: dict[str, Any] = Field(
        default_factory=dict,
        description="Key -> literal (text-compared) or matcher, on the answer's JSON object.",
    )
    handover: list[str] = Field(
        default_factory=list,
        description="SQL writes the answer may hand over for someone else to run: a write "
        "statement in the answer must touch the same rows of the task's database as one of "
        "these (run on a writable copy, never on the episode's).",
    )

    @field_validator("regex")
    @classmethod
    def _regex_compiles(cls, pattern: str | None) -> str | None:
        return compiling([pattern], "regex")[0] if pattern is not None else None
