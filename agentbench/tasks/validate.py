"""`agentbench tasks validate`: the reference and every alternate score 1.0, every planted
mistake below 1.0.

Strict mode (the default; `--lenient` for a suite being migrated) also requires what makes a
score trustworthy: at least `MIN_VARIANTS` alternates and planted mistakes per task, a checked
final answer (`expect.answer`, or `expect.answer_unchecked` saying why not), a reference and
alternates that never go off-script (no call answered by the unmatched fallback), and no rule
answering one of their calls that the simulator answers from the declared state.
"""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for

from agentbench.agent.loop import Agent, AgentConfig
from agentbench.backends.scripted import ScriptedBackend
from agentbench.scoring import score_episode
from agentbench.sim.world import World
from agentbench.tasks.env import FALLBACK, world_spec
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Step, Task
from agentbench.tokens import estimate_tokens
from router import LOCAL, build_policy


@dataclass
class ValidationProblem:
    task_id: str
    path: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: field '{self.field}': {self.message}"


# Every task must fit the fleet-matched context of the seeds (32,768) with room for the answer.
CONTEXT_BUDGET_TOKENS = 28_000
MIN_VARIANTS = 2  # alternates and planted mistakes each task ships, in strict mode
STRICT_DEFAULT = True  # --lenient skips the requirements on alternates, answers and off-script


@dataclass
class Played:
    """A scripted trajectory played through the real loop, environment and scorers."""

    score: float  # -1.0 when the episode did not finish as answered or wrong
    why: str
    tokens: int  # estimated tokens of the whole conversation
    off_script: list[str]  # calls answered by no simulator and no rule
    by_rule: list[tuple[str, dict[str, Any]]]  # calls a task rule answered


async def play(suite: TaskSuite, task: Task, steps: list[Step]) -> Played | str:
    """The played trajectory, or why it crashed (a simulator bug the task exposes)."""
    try:
        return await _play_through(suite, task, steps)
    except Exception as exc:  # a simulator bug the task exposes: reported in one line
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return (
            f"playing it raised {type(exc).__name__}: {exc} "
            f"({Path(where.filename).name}:{where.lineno})"
        )


async def _play_through(suite: TaskSuite, task: Task, steps: list[Step]) -> Played:
    config = AgentConfig(max_steps=task.max_steps, simulate_latency=False)
    agent = Agent(suite, {LOCAL: ScriptedBackend(steps)}, config)
    trace = await agent.run(task, build_policy("always-local")())
    result = await score_episode(task, trace, suite)
    text = suite.system_prompt_for(task) + task.prompt
    for step in trace.steps:
        text += "".join(c.arguments for c in step.tool_calls)
        text += "".join(r.output for r in step.tool_results)
    score = (result.score or 0.0) if result.status in ("ok", "wrong") else -1.0
    off = [
        f"{call.name}({call.arguments})"
        for step in trace.steps
        for call, res in zip(step.tool_calls, step.tool_results, strict=False)
        if res.source == FALLBACK
    ]
    by_rule = [
        (call.name, call.parsed)
        for step in trace.steps
        for call, res in zip(step.tool_calls, step.tool_results, strict=False)
        if res.source == "rule" and call.parsed is not None
    ]
    return Played(score, result.explanation, estimate_tokens(text), off, by_rule)


async def validate_task(
    suite: TaskSuite, task: Task, strict: bool = STRICT_DEFAULT
) -> list[ValidationProblem]:
    path = suite.origin(task.id)
    problems: list[ValidationProblem] = []

    def problem(field: str, message: str) -> None:
        problems.append(ValidationProblem(task.id, path, field, message))

    if len(task.reference) > task.max_steps:
        problem(
            "max_steps", f"{task.max_steps} is below the reference's {len(task.reference)} steps"
        )
    if strict:
        _format_problems(task, problem)
    answer = task.expect.answer
    if answer and answer.json_schema is not None:
        try:
            validator_for(answer.json_schema).check_schema(answer.json_schema)
        except SchemaError as exc:
            problem("expect.answer.json_schema", f"not a valid JSON Schema: {exc.message}")
    for kind, claims in (("claims", answer.claims), ("decoys", answer.decoys)) if answer else ():
        for i, claim in enumerate(claims):
            for phrase in claim.imprecise_phrases():
                problem(
                    f"expect.answer.{kind}.{i}.phrases",
                    f"{phrase!r} is one common word; write the fact precisely "
                    "(e.g. 'service unavailable', not 'unavailable')",
                )
    shadowed = _Simulator(task)
    correct = [("reference", "reference", task.reference)]
    correct += [
        (f"alternates.{i}", f"alternate '{a.name}'", a.steps) for i, a in enumerate(task.alternates)
    ]
    for field, name, steps in correct:
        played = await play(suite, task, steps)
        if isinstance(played, str):
            problem(field, f"{name}: {played}")
            continue
        if field == "reference" and played.tokens > CONTEXT_BUDGET_TOKENS:
            problem(
                "environment",
                f"the reference conversation is ~{played.tokens} tokens (tiktoken estimate); keep "
                f"it under {CONTEXT_BUDGET_TOKENS} so the task fits a 32K context",
            )
        if played.score != 1.0:
            problem(
                field, f"{name} scores {max(played.score, 0):.2f}, must score 1.0: {played.why}"
            )
        if strict and played.off_script:
            problem(
                field,
                f"{name} goes off-script: no simulator or rule answers {played.off_script[0]}; "
                "declare the state it reads or a rule",
            )
        if strict:
            for tool, args in played.by_rule:
                if shadowed.covers(tool, args):
                    problem(
                        field,
                        f"{name}: a rule answers {tool}({json.dumps(args)}), which the simulator "
                        "answers from the declared state; drop the rule or declare the state",
                    )
    for i, wrong in enumerate(task.wrong):
        played = await play(suite, task, wrong.steps)
        if isinstance(played, str):
            problem(f"wrong.{i}", f"planted mistake '{wrong.name}': {played}")
        elif played.score >= 1.0:
            problem(
                f"wrong.{i}",
                f"planted mistake '{wrong.name}' scores 1.0; the expectation is too loose to "
                "catch it",
            )
    return problems


class _Simulator:
    """Whether the task's World, at its start state, answers a call (built on first use)."""

    def __init__(self, task: Task) -> None:
        self.spec = world_spec(task.environment)
        self.world: World | None = None

    def covers(self, tool: str, args: dict[str, Any]) -> bool:
        if self.spec is None:
            return False
        if self.world is None:
            self.world = World(self.spec)
        return self.world.from_state(tool, args)


def _format_problems(task: Task, problem: Callable[[str, str], None]) -> None:
    """What strict mode asks of a task's file, beyond its scores."""
    for field, found in (("alternates", task.alternates), ("wrong", task.wrong)):
        if len(found) < MIN_VARIANTS:
            problem(field, f"{len(found)} given; ship at least {MIN_VARIANTS}")
    if task.expect.answer is None and task.expect.answer_unchecked is None:
        problem(
            "expect.answer",
            "the final answer is not checked; add claims/decoys or answer_unchecked: <why>",
        )
    names = [t.name for t in [*task.alternates, *task.wrong]]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problem("alternates", f"trajectory name '{name}' is used twice")


def validate_suite(suite: TaskSuite, strict: bool = STRICT_DEFAULT) -> list[ValidationProblem]:
    async def run() -> list[ValidationProblem]:
        out: list[ValidationProblem] = []
        for task in suite.tasks:
            out += await validate_task(suite, task, strict)
        return out

    problems = asyncio.run(run())
    seen: dict[str, Task] = {}
    for task in suite.tasks:
        other = seen.setdefault(task.prompt.strip(), task)
        if other is not task:
            problems.append(
                ValidationProblem(
                    task.id,
                    suite.origin(task.id),
                    "prompt",
                    f"same prompt as task '{other.id}'; prompts must be unique (the reference "
                    "server and replays identify a task by its prompt)",
                )
            )
    return problems
