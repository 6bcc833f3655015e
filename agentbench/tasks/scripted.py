"""Playing a scripted trajectory (a reference solution or a planted mistake) step by step.

Used by `tasks validate` (in-process, through the real agent loop and scorers) and by the
reference server's answering policies. The step to play is chosen by how many assistant turns
the conversation already holds, so a replayed trajectory follows the script whatever the tools
returned.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from agentbench.tasks.model import Step, Task


def assistant_turns(messages: list[dict[str, Any]]) -> int:
    return sum(1 for m in messages if m.get("role") == "assistant")


def find_task(tasks: list[Task], messages: list[dict[str, Any]]) -> Task | None:
    """The task whose prompt is the conversation's first user message."""
    first_user = next((m for m in messages if m.get("role") == "user"), None)
    if first_user is None:
        return None
    content = first_user.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    text = (content or "").strip()
    return next((t for t in tasks if t.prompt.strip() == text), None)


def step_at(steps: list[Step], index: int) -> Step:
    """The scripted step for turn `index`; past the end, the script's last step again."""
    return steps[min(index, len(steps) - 1)]


def noisy_step(task: Task, index: int, noise: float, seed: int) -> Step:
    """The reference step, replaced with the wrong trajectory's step at a seeded rate.

    The draw depends only on (seed, task, step index), so a noise level always corrupts the same
    steps, and a higher noise corrupts a superset of a lower one's steps: the score falls
    monotonically with noise.
    """
    digest = hashlib.sha256(f"{seed}:{task.id}:{index}".encode()).digest()
    draw = random.Random(int.from_bytes(digest[:8], "big")).random()
    if draw < noise:
        wrong = task.wrong[int.from_bytes(digest[8:10], "big") % len(task.wrong)]
        return step_at(wrong.steps, index)
    return step_at(task.reference, index)


def native_tool_calls(step: Step, index: int) -> list[dict[str, Any]]:
    return [
        {
            "id": f"call_{index}_{i}",
            "type": "function",
            "function": {"name": c.tool, "arguments": json.dumps(c.args)},
        }
        for i, c in enumerate(step.calls)
    ]


def prompt_mode_text(step: Step) -> str:
    if step.answer is not None:
        return json.dumps({"final_answer": step.answer})
    calls = [{"tool": c.tool, "parameters": c.args} for c in step.calls]
    return json.dumps(calls[0] if len(calls) == 1 else calls)
