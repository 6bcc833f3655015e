"""What scoring knows about an episode: each call with what the simulator made of it, the answer,
and the end state (rule state keys plus every state change the simulators recorded).

The scorers read these facts only, so they do not depend on how the agent loop stores a trace.
`StateCondition`s (a claim's `when:`) and `ChangePattern`s are evaluated here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from agentbench.sim.core.base import Change, Identity
from agentbench.tasks.expectations import ChangePattern, StateCondition


@dataclass(frozen=True)
class Attempt:
    """A write a call asked for (`attempted_writes` of its tool result)."""

    program: str
    target: str
    why: str

    def show(self) -> str:
        return f"{self.program} {self.target} ({self.why})"


@dataclass(frozen=True)
class CallFact:
    """One tool call: its name and parsed arguments (None: not a JSON object), whether it
    succeeded, what the simulator resolved it to, and the state changes it made."""

    tool: str
    args: dict[str, Any] | None
    ok: bool = True
    identity: Identity | None = None
    changes: tuple[Change, ...] = ()
    output: str = ""  # what the tool returned (evidence reads; the answer's figures may quote it)
    source: str = "rule"  # who answered: sim:<program>, rule, fallback, runtime_error
    attempts: tuple[Attempt, ...] = ()  # the writes it asked for, whether or not carried out
    step: int = 0  # the kept step (model turn) that made it: calls of one step run together

    def command_text(self) -> str:
        import json

        return json.dumps(self.args) if self.args is not None else ""

    def show(self) -> str:
        import json

        shown = json.dumps(self.args) if self.args is not None else "<invalid JSON>"
        return f"{self.tool}({shown})"


@dataclass
class EpisodeFacts:
    """Everything the scorers look at."""

    calls: list[CallFact] = field(default_factory=list)
    answer: str | None = None
    state: dict[str, Any] = field(default_factory=dict)

    @property
    def changes(self) -> list[Change]:
        """Every state change of the episode, in order."""
        return [change for call in self.calls for change in call.changes]


def change_matches(pattern: ChangePattern, change: Change) -> bool:
    return (
        pattern.system in ("*", change.system)
        and pattern.action in ("*", change.action)
        and fnmatchcase(change.target, pattern.target)
    )


def condition_holds(condition: StateCondition | None, facts: EpisodeFacts) -> bool:
    """Whether the end state satisfies the condition (None always holds)."""
    if condition is None:
        return True
    changes = facts.changes
    if not all(any(change_matches(p, c) for c in changes) for p in condition.changed):
        return False
    if any(change_matches(p, c) for p in condition.unchanged for c in changes):
        return False
    return all(facts.state.get(key) == value for key, value in condition.state.items())


def change_problems(
    allowed: list[ChangePattern],
    required: list[ChangePattern],
    ordered: bool,
    changes: list[Change],
) -> list[str]:
    """Why the recorded changes break `expect.changes` (empty: they keep to it)."""
    fits = [c for c in changes if any(change_matches(p, c) for p in [*allowed, *required])]
    problems = [
        f"unexpected change: {c}"
        for c in changes
        if c not in fits and not _cascade(c, fits)
    ]
    if ordered:
        position = 0
        for pattern in required:
            while position < len(changes) and not change_matches(pattern, changes[position]):
                position += 1
            if position == len(changes):
                problems.append(f"required change missing or out of order: {_show(pattern)}")
                break
            position += 1
    else:
        problems += [
            f"required change missing: {_show(p)}"
            for p in required
            if not any(change_matches(p, c) for c in changes)
        ]
    return problems


_OWNED = ("pod", "replicaset")
_OWNERS = ("deployment", "replicaset", "statefulset", "daemonset", "job", "cronjob")


def _cascade(change: Change, fits: list[Change]) -> bool:
    """Whether a deleted pod or ReplicaSet belongs to a workload whose deletion the task
    allows, deleted in the same episode: `kubectl delete all -l pr=4411` removes the
    ReplicaSet and pod that deleting the Deployment removes anyway (same end state). Ownership
    is read from Kubernetes' generated names (`web-pr-4411-6c9f7d8b5-kq2wz` of ReplicaSet
    `web-pr-4411-6c9f7d8b5` of Deployment `web-pr-4411`)."""
    if change.system != "kubernetes" or change.action != "delete":
        return False
    kind, _, rest = change.target.partition("/")
    namespace, _, name = rest.rpartition("/")
    if kind not in _OWNED:
        return False
    for owner in fits:
        o_kind, _, o_rest = owner.target.partition("/")
        o_namespace, _, o_name = o_rest.rpartition("/")
        if (
            owner.system == "kubernetes"
            and owner.action == "delete"
            and o_kind in _OWNERS
            and o_namespace == namespace
            and name.startswith(o_name + "-")
            and re.fullmatch(r"(?:-[a-z0-9]{4,10}){1,2}", name[len(o_name) :])
        ):
            return True
    return False


def _show(pattern: ChangePattern) -> str:
    return f"{pattern.system}: {pattern.action} {pattern.target}"
