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

from typing import Any

from pydantic import Field, model_validator

from agentbench.tasks.expect_answer import (
    UNITS,
    Amount,
    AnswerExpectation,
    Claim,
    Fact,
    common_word,
    lexicon_ids,
)
from agentbench.tasks.expect_process import (
    AttemptPattern,
    CallPattern,
    ChangePattern,
    ChangesExpectation,
    Evidence,
    FinalRead,
    ForbidPattern,
    Shown,
    StateCondition,
    _Strict,
    compiling,
)

__all__ = [
    "UNITS",
    "Amount",
    "AnswerExpectation",
    "AttemptPattern",
    "CallPattern",
    "ChangePattern",
    "ChangesExpectation",
    "Claim",
    "Evidence",
    "Expectation",
    "Fact",
    "FinalRead",
    "ForbidPattern",
    "Shown",
    "StateCondition",
    "common_word",
    "compiling",
    "lexicon_ids",
]


class Expectation(_Strict):
    """What a correct episode does. Each part present is one check; score = share passed."""

    evidence: list[Evidence] = Field(
        default_factory=list, description="Required reads, by the facts their output showed."
    )
    final: list[FinalRead] = Field(
        default_factory=list, description="Reads on the end state that must show these facts."
    )
    parallel: list[str] = Field(
        default_factory=list,
        description="Names of `evidence` reads the prompt asks for at the same time: one step "
        "(one model turn) must hold calls showing each of them.",
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
        names = {e.name for e in self.evidence}
        unknown = [n for n in self.parallel if n not in names]
        if unknown:
            raise ValueError(f"parallel names no evidence read {unknown[0]!r}")
        if len(self.parallel) == 1:
            raise ValueError("parallel needs two evidence reads or more")
        return self
