"""What the reference server answers: the model name picks a scripted policy.

- `oracle`: plays the task's reference solution, step by step.
- `wrong`: plays the task's first planted wrong trajectory.
- `noisy` (`noisy-0.2`, `noisy:0.2`, or the server's --noise): the reference with a seeded share
  of steps replaced by a planted mistake (see tasks.scripted.noisy_step).
- `echo`: repeats the last user message as the answer.

Requests with `tools` get native `tool_calls`; requests without get prompt-mode JSON text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from agentbench.tasks.model import Step, Task
from agentbench.tasks.scripted import (
    assistant_turns,
    find_task,
    noisy_step,
    prompt_mode_text,
    step_at,
)

POLICIES = ("oracle", "wrong", "noisy", "echo")
_FILLER = (
    "Let me think about which tool gives the facts I need before answering, and check the "
    "namespace, the resource and the flags of the command carefully. "
)


@dataclass
class Answer:
    reasoning: str = ""
    content: str = ""
    tool_calls: list[tuple[str, str]] = field(default_factory=list)  # (name, arguments JSON)


def parse_policy(model: str, default_noise: float) -> tuple[str, float]:
    """`noisy-0.2` -> ("noisy", 0.2). Unknown names raise ValueError."""
    match = re.fullmatch(r"(oracle|wrong|noisy|echo)(?:[-:]([0-9.]+))?", model)
    if not match:
        raise ValueError(model)
    noise = float(match.group(2)) if match.group(2) else default_noise
    return match.group(1), noise


def filler_reasoning(n_tokens: int) -> str:
    from agentbench.refserver.schedule import ref_tokenize

    text = ""
    while len(ref_tokenize(text)) < n_tokens:
        text += _FILLER
    return "".join(ref_tokenize(text)[:n_tokens])


def _last_user(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user" and isinstance(message.get("content"), str):
            return str(message["content"])
    return ""


def choose_step(task: Task, policy: str, noise: float, seed: int, index: int) -> Step:
    if policy == "wrong":
        return step_at(task.wrong[0].steps, index)
    if policy == "noisy":
        return noisy_step(task, index, noise, seed)
    return step_at(task.reference, index)


def answer(
    tasks: list[Task],
    model: str,
    messages: list[dict[str, Any]],
    native_tools: bool,
    *,
    noise: float = 0.2,
    seed: int = 0,
) -> Answer:
    policy, noise = parse_policy(model, noise)
    if policy == "echo":
        return Answer(content=_last_user(messages) or "echo")
    task = find_task(tasks, messages)
    if task is None:
        return Answer(content="This reference server has no task with that prompt.")
    index = assistant_turns(messages)
    step = choose_step(task, policy, noise, seed, index)
    if not native_tools:
        return Answer(content=prompt_mode_text(step))
    if step.answer is not None:
        return Answer(content=step.answer)
    return Answer(tool_calls=[(c.tool, json.dumps(c.args)) for c in step.calls])
