"""Replay a stored run's trajectories through today's environments and scorer.

    python benchmarks/real/replay.py OUT/qwen1.5b.json [OUT/qwen0.5b.json ...]

For each run JSON (`agentbench run … --json`): every stored tool call is executed again on a fresh
copy of its task's environment (how many would be off-script today, and which were then), and
every scored episode's trajectory — its kept tool calls and final answer, steps a router
discarded left out — is scored again; episodes whose score changes are listed. Nothing calls a
model: this measures what the environment and scorer changes since the run did to its figures.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import load_suite
from agentbench.tasks.model import Step
from agentbench.tasks.validate import play


def trajectory(episode: dict[str, Any]) -> list[Step]:
    steps = [
        Step(calls=[{"tool": c["name"], "args": c["parsed"] or {}} for c in s["tool_calls"]])
        for s in episode["steps"]
        if s["tool_calls"] and not s.get("discarded")
    ]
    if episode["final_answer"] is not None:
        steps.append(Step(answer=episode["final_answer"]))
    return steps


def main(paths: list[str]) -> None:
    suite = load_suite("tasks")
    tasks = {t.id: t for t in suite.tasks}
    for path in paths:
        run = json.load(open(path, encoding="utf-8"))
        calls = off_then = off_now = changed = 0
        for ep in run["episodes"]:
            env = SimulatedEnvironment(tasks[ep["task_id"]], suite.tools, suite.grammar)
            for step in ep["steps"]:
                for call, result in zip(step["tool_calls"], step["tool_results"], strict=False):
                    calls += 1
                    off_then += result["source"] == "fallback"
                    if env.execute(call["name"], call.get("arguments")).source == "fallback":
                        off_now += 1
                        print(f"  off-script today: {ep['task_id']}: {call['arguments'][:100]}")
            steps = trajectory(ep)
            if not steps or ep["status"] not in ("ok", "wrong"):
                continue
            played = asyncio.run(play(suite, tasks[ep["task_id"]], steps))
            score = played if isinstance(played, str) else round(played.score, 3)
            if score != round(ep["score"] or 0.0, 3):
                changed += 1
                why = played if isinstance(played, str) else played.why
                print(f"  re-scored: {ep['task_id']}: {ep['score']:.3f} -> {score} ({why[:200]})")
        print(
            f"{path}: {calls} tool calls, off-script then {off_then}, today {off_now}; "
            f"{changed} episode score(s) changed"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
