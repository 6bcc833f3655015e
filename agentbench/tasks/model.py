"""The task file format. These models' docstrings are its documentation (see tasks/README.md).

A task is one YAML file under `tasks/<category>/`. Tool schemas are shared files under
`tasks/tools/`; the flag grammar used to compare shell commands is `tasks/tools/flags.yaml`.

Argument patterns. Wherever a tool call is described (environment rules, expectations), its
`args` map argument names to either a literal value, compared by the argument's declared kind
(see `ToolDef.match`), or a matcher object with one key:

- `{$regex: PATTERN}`   the argument (as text) matches PATTERN (Python `re.search`)
- `{$contains: TEXT}`   the argument contains TEXT (case-insensitive)
- `{$one_of: [A, B]}`   the argument equals one of the literals (by its kind)
- `{$any: true}`        any value, but the argument must be present
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from agentbench.sim.environment import WorldSpec
from agentbench.tasks.expectations import (
    AnswerExpectation,
    AttemptPattern,
    CallPattern,
    ChangePattern,
    ChangesExpectation,
    Claim,
    Evidence,
    Expectation,
    FinalRead,
    ForbidPattern,
    StateCondition,
)

__all__ = [
    "AnswerExpectation",
    "ArgKind",
    "AttemptPattern",
    "Call",
    "CallPattern",
    "ChangePattern",
    "ChangesExpectation",
    "Claim",
    "Environment",
    "Evidence",
    "Expectation",
    "FinalRead",
    "ForbidPattern",
    "Rule",
    "StateCondition",
    "Step",
    "Task",
    "ToolDef",
    "Trajectory",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ArgKind(StrEnum):
    """How a literal argument value is compared."""

    exact = "exact"  # JSON equality
    shell = "shell"  # parsed argv with flag aliases (tasks/tools/flags.yaml)
    sql = "sql"  # whitespace collapsed, case-folded outside quotes, trailing ';' dropped
    text = "text"  # stripped and case-folded
    number = "number"  # numeric equality (a numeric string equals the number)


class ToolDef(_Strict):
    """A tool offered to the model: one file `tasks/tools/<name>.yaml`."""

    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$", description="Function name.")
    description: str = Field(min_length=1, description="What the model is told the tool does.")
    parameters: dict[str, Any] = Field(description="JSON Schema of the arguments (an object).")
    match: dict[str, ArgKind] = Field(
        default_factory=dict, description="Argument name -> comparison kind; default `exact`."
    )
    unmatched: str = Field(
        default="error: no result for {tool} with these arguments",
        description="Output for a call no rule matches; `{program}`, `{tool}`, `{command}` "
        "and `{<argument name>}` are filled in. Realistic text, e.g. "
        "`bash: {program}: command not found`.",
    )
    unmatched_by_program: dict[str, str] = Field(
        default_factory=dict,
        description="For shell tools: program -> unmatched output (e.g. kubectl's NotFound).",
    )

    @field_validator("parameters")
    @classmethod
    def _object_schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        if value.get("type") != "object":
            raise ValueError("must be a JSON Schema with type: object")
        return value

    def openai_schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


class Call(_Strict):
    """A concrete tool call, as in a reference solution or a wrong trajectory."""

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


class RuleChange(_Strict):
    """A state change a rule's answer stands for (`systemctl stop patroni` answered by a rule
    stops patroni.service), recorded like a simulator's change."""

    system: str = Field(min_length=1, description="systemd, kubernetes, filesystem, sql, ...")
    action: str = Field(min_length=1, description="stop, restart, reload, delete, ...")
    target: str = Field(min_length=1, description="What changed, e.g. nginx.service.")
    detail: str = ""


class Rule(_Strict):
    """One environment rule. The first rule whose tool, args and `when` match answers the call."""

    tool: str
    args: dict[str, Any] = Field(
        default_factory=dict, description="Pattern; arguments not named match anything."
    )
    when: dict[str, Any] = Field(
        default_factory=dict, description="State keys that must hold these values."
    )
    output: str | None = Field(default=None, description="Tool output on success.")
    error: str | None = Field(default=None, description="Tool output when the call fails.")
    exit_code: int | None = Field(
        default=None, description="For shell tools; default 0 for output, 1 for error."
    )
    set: dict[str, Any] = Field(default_factory=dict, description="State changes applied.")
    changes: list[RuleChange] = Field(
        default_factory=list,
        description="The changes the answered call makes, recorded in the episode as a "
        "simulator's are (`expect.changes` judges them).",
    )
    latency_s: float = Field(default=0.0, ge=0, le=60, description="Simulated tool latency.")

    @model_validator(mode="after")
    def _one_result(self) -> Rule:
        if (self.output is None) == (self.error is None):
            raise ValueError("a rule needs exactly one of 'output' or 'error'")
        return self


class Environment(WorldSpec):
    """The deterministic simulation of the tools. Nothing is ever executed on the host.

    Tools answer from the declared state (the simulator fields, declared once in
    agentbench/sim/environment.py `WorldSpec`; formats in agentbench/sim/core/spec.py,
    agentbench/sim/sql/spec.py and tasks/README.md), as the real systems would. `rules` are
    overrides for what a simulator cannot say: a matching rule answers first; a call no rule and
    no simulator answers gets the tool's `unmatched` text and counts as off-script.
    """

    state: dict[str, Any] = Field(default_factory=dict, description="Initial rule state.")
    rules: list[Rule] = Field(default_factory=list)

    @model_validator(mode="after")
    def _database_clock(self) -> Environment:
        """A database declaring no clock runs on the host's (else the cluster's) clock."""
        if self.sql is not None and self.sql.now is None:
            if self.system is not None:
                self.sql.now = self.system.now
            elif self.cluster is not None:
                self.sql.now = self.cluster.now
        return self


class Step(_Strict):
    """One model turn of a scripted trajectory: tool calls (parallel if several) or an answer."""

    calls: list[Call] = Field(default_factory=list)
    answer: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Step:
        if bool(self.calls) == (self.answer is not None):
            raise ValueError("a step has either 'calls' or 'answer'")
        return self


class Trajectory(_Strict):
    """A scripted trajectory other than the reference.

    Under `wrong:` a planted mistake that must score below 1.0; under `alternates:` a correct
    trajectory in another valid form (other flags, aliases, SQL, wording) that must score 1.0.
    """

    name: str
    description: str = ""
    steps: list[Step] = Field(min_length=1)


class Task(_Strict):
    """One agent task."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]{1,80}$")
    category: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{1,40}$")
    difficulty: Literal["easy", "medium", "hard"]
    step_kind: Literal["plan", "execute"] = "execute"
    description: str = Field(min_length=1, description="One line: what the task tests.")
    system_prompt: str | None = Field(default=None, description="Default: the suite's prompt.")
    prompt: str = Field(min_length=1)
    tools: list[str] = Field(default_factory=list, description="Names of files in tasks/tools.")
    max_steps: int = Field(default=8, ge=1, le=50, description="Step budget (model calls).")
    environment: Environment = Field(default_factory=Environment)
    expect: Expectation
    reference: list[Step] = Field(min_length=1, description="Must score 1.0.")
    wrong: list[Trajectory] = Field(min_length=1, description="Each must score below 1.0.")
    alternates: list[Trajectory] = Field(
        default_factory=list, description="Correct trajectories in other forms; each scores 1.0."
    )
    tags: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _answer_last(self) -> Task:
        scripts = [("reference", self.reference)]
        scripts += [(f"wrong[{w.name}]", w.steps) for w in self.wrong]
        scripts += [(f"alternates[{a.name}]", a.steps) for a in self.alternates]
        for name, steps in scripts:
            for step in steps[:-1]:
                if step.answer is not None:
                    raise ValueError(f"{name}: only the last step may be an answer")
        named = [(f"expect.final[{r.name}]", r.tool) for r in self.expect.final]
        named += [(f"expect.evidence[{e.name}]", e.tool) for e in self.expect.evidence if e.tool]
        for where, tool in named:
            if tool not in self.tools:
                raise ValueError(f"{where}: tool {tool!r} is not one of the task's tools")
        return self
