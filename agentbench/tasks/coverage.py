"""The suite's coverage table: tasks per category and difficulty, and steps per task."""

from __future__ import annotations

from collections import defaultdict

from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task

LEVELS = ("easy", "medium", "hard")


def coverage_markdown(suite: TaskSuite) -> str:
    rows: defaultdict[str, list[Task]] = defaultdict(list)
    for task in suite.tasks:
        rows[task.category].append(task)
    lines = [
        "| category | tasks | easy | medium | hard | plan | reference steps (min–max) "
        "| tool calls in reference | alternates | planted mistakes |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    totals: defaultdict[str, int] = defaultdict(int)
    for category, tasks in sorted(rows.items()):
        steps = [len(t.reference) for t in tasks]
        counts = {level: sum(t.difficulty == level for t in tasks) for level in LEVELS}
        plans = sum(t.step_kind == "plan" for t in tasks)
        calls = sum(len(s.calls) for t in tasks for s in t.reference)
        wrong = sum(len(t.wrong) for t in tasks)
        alternates = sum(len(t.alternates) for t in tasks)
        for key, value in [
            ("tasks", len(tasks)),
            *counts.items(),
            ("plan", plans),
            ("calls", calls),
            ("alternates", alternates),
            ("wrong", wrong),
        ]:
            totals[key] += value
        lines.append(
            f"| {category} | {len(tasks)} | {counts['easy']} | {counts['medium']} | "
            f"{counts['hard']} | {plans} | {min(steps)}–{max(steps)} | {calls} | {alternates} "
            f"| {wrong} |"
        )
    all_steps = [len(t.reference) for t in suite.tasks]
    lines.append(
        f"| **all** | {totals['tasks']} | {totals['easy']} | {totals['medium']} | "
        f"{totals['hard']} | {totals['plan']} | {min(all_steps)}–{max(all_steps)} | "
        f"{totals['calls']} | {totals['alternates']} | {totals['wrong']} |"
    )
    return "\n".join(lines)
