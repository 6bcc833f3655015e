"""Replay stored runs through today's environments and scorer; say which episodes change and why.

    python benchmarks/real/replay.py benchmarks/real/runs/*.json.gz [--list] [--tasks DIR]

Each file is a results JSON (`agentbench run … --json`, plain or gzipped). Nothing calls a model;
two questions are answered for every episode:

1. Tool outputs. Every stored tool call of a kept step runs again, in order, on a fresh copy of
   its task's environment, bounded as an episode's calls are. The episode is listed when an
   output, or who answered it (`sim:<program>`, a task rule, the off-script `fallback`), differs
   from the stored one: step, command, was/now source and the first differing line. A call the
   runtime never ran (past the per-step cap) or abandoned when its episode ended is not rerun.
2. Scores. The episode's trajectory (its kept steps with today's outputs, its stored final answer
   and ending) is scored by today's scorer. The episode is listed when its score or success
   changed: old and new score and status, the checks that now fail or no longer fail (with the
   first one's detail), whether its tool outputs changed, and whether its task file differs
   from the one the run hashed (`config.task_hashes`): a changed expectation is another reason
   than a changed scorer.

A replay needs only the JSON and the task directory (the repository's `tasks/` by default): the
scorer reads the calls, outputs and answer, never the prompt or the serving setup. One screen a
run by default (the first few changes of each kind); `--list` prints every one. Exit 0 whatever
changed; 2, with one line, when a file is not a results JSON or the task directory cannot load.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Any

from agentbench.agent.toolrun import ToolCallStuck, describe_call, run_tool
from agentbench.cli.resume import task_hashes
from agentbench.errors import AgentbenchError
from agentbench.records import CheckRecord, EpisodeResult, EpisodeTrace, ToolResultRecord
from agentbench.runner import read_results_json
from agentbench.scoring import score_trace
from agentbench.tasks.env import FALLBACK, SimulatedEnvironment
from agentbench.tasks.families.tier import DEFAULT_SEED, load_tier
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task

ROOT = Path(__file__).resolve().parents[2]
SHOWN = 8  # changes of each kind printed per run without --list
SHARED = "(tools and suite.yaml)"  # task_hashes' key for the files every task shares
NOT_RERUN = ("too_many_calls",)  # result kinds the runtime gave without running the call


@dataclass
class OutputChange:
    episode: str  # task id (#repeat when the run repeated it)
    step: int
    command: str
    was: str  # who answered then (source)
    now: str
    diff: str  # the first differing line


@dataclass
class ScoreChange:
    episode: str
    old: float
    new: float
    old_status: str
    new_status: str
    why: str


@dataclass
class Replay:
    """What replaying one run found."""

    episodes: int = 0
    calls: int = 0
    off_then: int = 0
    off_now: int = 0
    not_rerun: int = 0
    success_then: int = 0
    success_now: int = 0
    outputs: list[OutputChange] = field(default_factory=list)
    scores: list[ScoreChange] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)  # task ids today's suite no longer has
    edited: set[str] = field(default_factory=set)  # task ids whose file changed since the run
    shared_edited: bool = False  # the tool definitions or suite.yaml changed since the run


def clean(text: str | None, width: int) -> str:
    """One line of stored (model-written) text as it is safe to print: no control characters."""
    if text is None:
        return "(none)"
    flat = "".join(c if c.isprintable() else "?" for c in " ".join(text[: width * 4].split()))
    return flat[:width] + ("…" if len(flat) > width or len(text) > width * 4 else "")


def first_difference(was: str, now: str) -> str:
    """The first line that differs, both versions shown from a little before where they part."""
    for n, (a, b) in enumerate(zip_longest(was.splitlines(), now.splitlines()), 1):
        if a != b:
            if a is None or b is None:
                return f"line {n}: was «{clean(a, 50)}», now «{clean(b, 50)}»"
            col = next(
                (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)),
            )
            start = max(0, col - 20)
            cut = "…" if start else ""
            return (
                f"line {n} col {col + 1}: was «{cut}{clean(a[start:], 50)}», "
                f"now «{cut}{clean(b[start:], 50)}»"
            )
    return "the same lines; line endings differ"


async def execute(env: SimulatedEnvironment, name: str, arguments: str) -> ToolResultRecord:
    """The call as an episode's runtime would run and record it today."""
    try:
        return (await run_tool(env, name, arguments)).record(name)
    except ToolCallStuck as exc:  # the text the agent loop records for an abandoned call
        why = f"the call was abandoned: {exc}"
        record = ToolResultRecord(name=name, output=why, ok=False, kind="error", latency_s=0.0)
        return record.model_copy(update={"source": "runtime_error", "limit": "abandoned"})


async def replay_calls(
    suite: TaskSuite, task: Task, episode: EpisodeResult, label: str, out: Replay
) -> tuple[EpisodeTrace, bool]:
    """The episode's trace with every call run again today, and whether an output changed."""
    env = SimulatedEnvironment(task, suite.tools, suite.grammar)
    steps, changed = [], False
    for step in episode.steps:
        results = []
        for call, stored in zip(step.tool_calls, step.tool_results, strict=False):
            if stored.kind in NOT_RERUN or stored.limit == "abandoned":
                out.not_rerun += 1
                results.append(stored)
                continue
            now = await execute(env, call.name, call.arguments)
            out.calls += 1
            out.off_then += stored.source == FALLBACK
            out.off_now += now.source == FALLBACK
            if (now.output, now.source) != (stored.output, stored.source):
                changed = True
                diff = first_difference(stored.output, now.output)
                command = describe_call(call.name, call.arguments)
                out.outputs.append(
                    OutputChange(label, step.index, command, stored.source, now.source, diff)
                )
            results.append(now)
        steps.append(step.model_copy(update={"tool_results": results}))
    status = "answered" if episode.status in ("ok", "wrong") else episode.status
    trace = EpisodeTrace(steps, episode.final_answer, status, state=env.state)
    trace.simulator_errors = list(env.simulator_errors)
    return trace, changed


def check_changes(then: list[CheckRecord], now: list[CheckRecord]) -> str:
    """Which checks fail now that did not then, and the reverse (the first one's detail)."""
    failing_then = Counter(c.name for c in then if not c.passed)
    failing_now = Counter(c.name for c in now if not c.passed)
    new, fixed = failing_now - failing_then, failing_then - failing_now
    parts = []
    if new:
        first = next(c for c in now if not c.passed and c.name in new)
        parts.append(f"now failing: {', '.join(sorted(new))} ({clean(first.detail, 90)})")
    if fixed:
        first = next(c for c in then if not c.passed and c.name in fixed)
        parts.append(
            f"no longer failing: {', '.join(sorted(fixed))} (was: {clean(first.detail, 90)})"
        )
    if len(then) != len(now):
        parts.append(f"{len(then)} checks then, {len(now)} now")
    return "; ".join(parts) or "the same checks fail"


async def replay_run(
    suite: TaskSuite, config: dict[str, Any], episodes: list[EpisodeResult]
) -> Replay:
    out = Replay(episodes=len(episodes))
    hashed = config.get("task_hashes") or {}
    today = task_hashes(suite)
    out.shared_edited = SHARED in hashed and hashed[SHARED] != today.get(SHARED)
    tasks = {t.id: t for t in suite.tasks}
    repeated = Counter(e.task_id for e in episodes)
    for episode in episodes:
        out.success_then += episode.success
        task = tasks.get(episode.task_id)
        if task is None:
            out.gone.append(episode.task_id)
            continue
        label = episode.task_id + (f"#{episode.repeat}" if repeated[episode.task_id] > 1 else "")
        edited = episode.task_id in hashed and hashed[episode.task_id] != today.get(task.id)
        if edited:
            out.edited.add(episode.task_id)
        trace, outputs_changed = await replay_calls(suite, task, episode, label, out)
        scored = score_trace(task, trace, suite)
        out.success_now += scored.status == "ok"
        if episode.score is None or scored.score is None:
            continue  # not scored (a backend error): nothing to compare
        old, new = round(episode.score, 3), round(scored.score, 3)
        if old == new and episode.success == (scored.status == "ok"):
            continue
        why = check_changes(episode.checks, scored.checks)
        why += "; its tool outputs changed" if outputs_changed else ""
        why += "; its task file changed since the run" if edited else ""
        out.scores.append(ScoreChange(label, old, new, episode.status, scored.status, why))
    return out


def report(path: Path, run: dict[str, Any], found: Replay, everything: bool) -> list[str]:
    model = (run.get("config") or {}).get("model", "?")
    lines = [f"{path}: run {run.get('run_id', '?')}, model {model}, {found.episodes} episodes"]
    output_eps = len({c.episode for c in found.outputs})
    lines.append(
        f"  tool calls: {found.calls} rerun ({found.not_rerun} never run or abandoned, not rerun); "
        f"off-script then {found.off_then}, today {found.off_now}; "
        f"outputs changed: {len(found.outputs)} calls in {output_eps} episodes"
    )
    lines.append(
        f"  scores: success {found.success_then}/{found.episodes} then, "
        f"{found.success_now}/{found.episodes} today; "
        f"score or success changed: {len(found.scores)} episodes"
    )
    edited = sorted(found.edited)
    lines.append(
        f"  since the run: {len(edited)} task files edited"
        + (f" ({', '.join(edited[:5])}{', …' if len(edited) > 5 else ''})" if edited else "")
        + (", tools or suite.yaml edited" if found.shared_edited else "")
        + (f"; gone from the suite: {', '.join(sorted(set(found.gone)))}" if found.gone else "")
    )
    outputs = [
        f"  output  {o.episode} step {o.step} `{o.command}`: was {o.was}, now {o.now}; {o.diff}"
        for o in found.outputs
    ]
    scores = [
        f"  score   {s.episode}: {s.old:.3f} -> {s.new:.3f} ({s.old_status} -> {s.new_status}): "
        + s.why
        for s in found.scores
    ]
    if not outputs and not scores:
        lines.append("  no changes")
    for listed, kind in ((outputs, "output"), (scores, "score")):
        lines += listed if everything else listed[:SHOWN]
        if not everything and len(listed) > SHOWN:
            lines.append(f"  … {len(listed) - SHOWN} more {kind} changes (--list prints them)")
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="results JSON files (.json, .json.gz)")
    parser.add_argument("--list", action="store_true", help="print every change, not the first")
    parser.add_argument("--tasks", type=Path, default=ROOT / "tasks", help="the task directory")
    args = parser.parse_args(argv)
    try:
        for path in args.runs:
            run, episodes = read_results_json(path)
            config = run.get("config") or {}
            # the tier the run drew: a full-tier run's variants come from its seed
            suite = load_tier(
                args.tasks,
                config.get("suite") or "default",
                config.get("task_seed") or DEFAULT_SEED,
                config.get("variants"),
            )
            found = asyncio.run(replay_run(suite, config, episodes))
            print("\n".join(report(path, run, found, args.list)), flush=True)
    except AgentbenchError as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
