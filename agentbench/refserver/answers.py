"""What the reference server answers: the model name picks a scripted policy.

- `oracle`: plays the task's reference solution, step by step.
- `wrong`: plays the task's first planted wrong trajectory.
- `alternate`: plays the task's first alternate (another correct form; the reference if none),
  so a run through the real HTTP path shows the scorers accept it.
- `noisy` (`noisy-0.2`, `noisy:0.2`, or the server's --noise): the reference with a seeded share
  of steps replaced by a planted mistake (see tasks.scripted.noisy_step).
- `echo`: repeats the last user message as the answer.

Requests with `tools` get native `tool_calls`; requests without get prompt-mode JSON text.

Token logprobs (returned when the request asks for `logprobs`): every token of one answer
carries the same deterministic value (`Answer.logprob`, see `step_logprob`). For `noisy`, a step
replaced by a planted mistake is unsure (uniform in [-2.2, -0.6], around -1.4) and a reference
step is confident (uniform in [-0.9, -0.05], around -0.5); the value is seeded by (seed, task,
step index), so the same step always gets the same value, and a threshold between -0.9 and -0.6
separates mistakes from reference steps imperfectly. `oracle`, `alternate` and `echo` answer at
-0.1, `wrong` at -1.5, whatever the step.
"""

from __future__ import annotations

import hashlib
import json
import random
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

POLICIES = ("oracle", "wrong", "noisy", "echo", "alternate")
_FILLER = (
    "Let me think about which tool gives the facts I need before answering, and check the "
    "namespace, the resource and the flags of the command carefully. "
)


@dataclass
class Answer:
    reasoning: str = ""
    content: str = ""
    tool_calls: list[tuple[str, str]] = field(default_factory=list)  # (name, arguments JSON)
    logprob: float = -0.1  # of every token of this answer (module docstring)


def parse_policy(model: str, default_noise: float) -> tuple[str, float]:
    """`noisy-0.2` -> ("noisy", 0.2). Unknown names raise ValueError."""
    match = re.fullmatch(r"(oracle|wrong|noisy|echo|alternate)(?:[-:]([0-9.]+))?", model)
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
    if policy == "alternate" and task.alternates:
        return step_at(task.alternates[0].steps, index)
    return step_at(task.reference, index)


def step_logprob(task: Task, policy: str, noise: float, seed: int, index: int) -> float:
    """The token logprob of the answer at step `index` (module docstring)."""
    if policy == "wrong":
        return -1.5
    if policy != "noisy":
        return -0.1
    digest = hashlib.sha256(f"logprob:{seed}:{task.id}:{index}".encode()).digest()
    u = random.Random(int.from_bytes(digest[:8], "big")).random()
    mistake = noisy_step(task, index, noise, seed) is not step_at(task.reference, index)
    return round(-0.6 - 1.6 * u if mistake else -0.05 - 0.85 * u, 4)


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
    logprob = step_logprob(task, policy, noise, seed, index)
    if not native_tools:
        return Answer(content=prompt_mode_text(step), logprob=logprob)
    if step.answer is not None:
        return Answer(content=step.answer, logprob=logprob)
    return Answer(tool_calls=[(c.tool, json.dumps(c.args)) for c in step.calls], logprob=logprob)
