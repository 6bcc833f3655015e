"""The process half of `expect:` (agentbench.tasks.expectations): patterns over calls, state
changes and the end state, required reads by the facts their outputs showed, reads of the end
state and the calls a task forbids. The answer half, which also uses `StateCondition`, is in
agentbench.tasks.expect_answer.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator


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
