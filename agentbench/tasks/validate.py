"""`agentbench tasks validate`: every reference scores 1.0, every planted mistake below 1.0."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from agentbench.agent.loop import Agent, AgentConfig
from agentbench.backends.scripted import ScriptedBackend
from agentbench.backends.tokens import estimate_tokens
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


# Every task must fit the fleet-matched context of the seeds (32,768) with room for the answer.
CONTEXT_BUDGET_TOKENS = 28_000


async def _score(suite: TaskSuite, task: Task, steps: list[Step]) -> tuple[float, str, int]:
    """(score, explanation, estimated tokens of the whole conversation)."""
    config = AgentConfig(max_steps=task.max_steps, simulate_latency=False)
    agent = Agent(suite, {LOCAL: ScriptedBackend(steps)}, config)
    trace = await agent.run(task, build_policy("always-local")())
    result = score_trace(task, trace, suite)
    text = suite.system_prompt_for(task) + task.prompt
    for step in trace.steps:
        text += "".join(c.arguments for c in step.tool_calls)
        text += "".join(r.output for r in step.tool_results)
    score = (result.score or 0.0) if result.status in ("ok", "wrong") else -1.0
    return score, result.explanation, estimate_tokens(text)


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
    score, why, tokens = await _score(suite, task, task.reference)
    if tokens > CONTEXT_BUDGET_TOKENS:
        problems.append(
            ValidationProblem(
                task.id,
                path,
                "environment",
                f"the reference conversation is ~{tokens} tokens (tiktoken estimate); keep it "
                f"under {CONTEXT_BUDGET_TOKENS} so the task fits a 32K context",
            )
        )
    if score != 1.0:
        problems.append(
            ValidationProblem(
                task.id, path, "reference", f"scores {max(score, 0):.2f}, must score 1.0: {why}"
            )
        )
    for i, wrong in enumerate(task.wrong):
        score, why, _ = await _score(suite, task, wrong.steps)
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
            problems.append(
                ValidationProblem(
                    task.id,
                    str(suite.paths.get(task.id, task.id)),
                    "prompt",
                    f"same prompt as task '{other.id}'; prompts must be unique (the reference "
                    "server and replays identify a task by its prompt)",
                )
            )
    return problems
