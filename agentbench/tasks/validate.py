"""`agentbench tasks validate`: every reference scores 1.0, every planted mistake below 1.0."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from agentbench.agent.loop import Agent, AgentConfig
from agentbench.backends.scripted import ScriptedBackend
from agentbench.scoring import score_trace
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Step, Task
from router import LOCAL, build_policy


@dataclass
class ValidationProblem:
    task_id: str
    path: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: field '{self.field}': {self.message}"


async def _score(suite: TaskSuite, task: Task, steps: list[Step]) -> tuple[float, str]:
    config = AgentConfig(max_steps=task.max_steps, simulate_latency=False)
    agent = Agent(suite, {LOCAL: ScriptedBackend(steps)}, config)
    trace = await agent.run(task, build_policy("always-local")())
    result = score_trace(task, trace, suite)
    return (result.score or 0.0) if result.status in ("ok", "wrong") else -1.0, result.explanation


async def validate_task(suite: TaskSuite, task: Task) -> list[ValidationProblem]:
    path = str(suite.paths.get(task.id, task.id))
    problems = []
    if len(task.reference) > task.max_steps:
        problems.append(
            ValidationProblem(
                task.id,
                path,
                "max_steps",
                f"{task.max_steps} is below the reference's {len(task.reference)} steps",
            )
        )
    score, why = await _score(suite, task, task.reference)
    if score != 1.0:
        problems.append(
            ValidationProblem(
                task.id, path, "reference", f"scores {max(score, 0):.2f}, must score 1.0: {why}"
            )
        )
    for i, wrong in enumerate(task.wrong):
        score, why = await _score(suite, task, wrong.steps)
        if score >= 1.0:
            problems.append(
                ValidationProblem(
                    task.id,
                    path,
                    f"wrong.{i}",
                    f"planted mistake '{wrong.name}' scores 1.0; the "
                    "expectation is too loose to catch it",
                )
            )
    return problems


def validate_suite(suite: TaskSuite) -> list[ValidationProblem]:
    async def run() -> list[ValidationProblem]:
        out: list[ValidationProblem] = []
        for task in suite.tasks:
            out += await validate_task(suite, task)
        return out

    problems = asyncio.run(run())
    seen: dict[str, Task] = {}
    for task in suite.tasks:
        other = seen.setdefault(task.prompt.strip(), task)
        if other is not task:
            problems.append(ValidationProblem(
                task.id, str(suite.paths.get(task.id, task.id)), "prompt",
                f"same prompt as task '{other.id}'; prompts must be unique (the reference "
                "server and replays identify a task by its prompt)",
            ))
    return problems
