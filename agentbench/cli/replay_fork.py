"""`agentbench routes fork RUN_ID`: a threshold sweep that pays only for
the divergent suffixes (agentbench.agent.replay)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from agentbench.agent.loop import Agent
from agentbench.agent.replay import ForkedEpisode, fork_sweep
from agentbench.backends.base import Backend
from agentbench.cli.options import write_text, written
from agentbench.cli.resume import stored_suite
from agentbench.cli.targets import open_target
from agentbench.errors import ConfigError
from agentbench.metrics.intervals import rate_interval
from agentbench.metrics.replay import answer_pairs
from agentbench.runner import RunConfig
from agentbench.store import ResultStore
from agentbench.tasks.loader import load_suite
from router import FRONTIER, LOCAL, PolicySpecError, build_policy

Flags = tuple[str | None, str | None, str | None]  # model, base URL, API key env var


def replay_fork(
    db: str,
    run_id: str,
    thresholds: list[float],
    json_out: str | None,
    *,
    local: Flags,
    frontier: Flags,
    concurrency: int = 1,
) -> None:
    for t in thresholds:
        try:
            build_policy(f"confidence:threshold={t!r}")
        except PolicySpecError as exc:
            raise ConfigError(f"--thresholds: {exc}") from exc
    if not (local[0] or local[1]) or not (frontier[0] or frontier[1]):
        raise ConfigError(
            "`routes fork` continues episodes live: name the local model "
            "(--base-url URL --model NAME) and the frontier (--frontier-base-url "
            "URL --frontier NAME, or --frontier PROVIDER/MODEL)"
        )
    with ResultStore(db) as store:
        run = store.run(store.resolve(run_id))
        episodes = [e for e in store.episodes(run.run_id) if answer_pairs(e)]
    if not episodes:
        raise ConfigError(
            f"run {run.run_id} has no recorded (local, frontier) answer pairs: "
            "make it with `agentbench run --record-both`"
        )
    if not run.task_dir or not Path(run.task_dir).is_dir():
        raise ConfigError(f"run {run.run_id}: its task directory {run.task_dir!r} is gone")
    # the stored run decides: its own task selection, refused when a task file changed
    suite = (
        stored_suite(run, Path(run.task_dir))
        if run.config.get("task_hashes")
        else load_suite(Path(run.task_dir))
    )
    missing = sorted({e.task_id for e in episodes} - {t.id for t in suite.tasks})
    if missing:
        raise ConfigError(f"tasks of run {run.run_id} not in {run.task_dir}: {', '.join(missing)}")
    cfg = RunConfig.model_validate(run.config)
    agent_config = cfg.agent_config(logprobs=True)  # the fork reads the stored logprobs
    with (
        open_target(
            local=None, model=local[0], base_url=local[1], api_key_env=local[2]
        ) as local_target,
        open_target(
            local=None,
            model=frontier[0],
            base_url=frontier[1],
            api_key_env=frontier[2],
            flag_names=("--frontier-base-url", "--frontier-api-key-env"),
        ) as frontier_target,
    ):
        targets = {LOCAL: local_target.backend, FRONTIER: frontier_target.backend}
        for flag, given, stored in (
            ("--model", local_target.backend.model, cfg.model),
            ("--frontier", frontier_target.backend.model, cfg.frontier_model),
        ):
            if stored and given != stored:
                raise ConfigError(
                    f"{flag} {given} is not the model run {run.run_id} recorded "
                    f"({stored}); a fork continues the recorded episodes with "
                    "the same models"
                )
        agent = Agent(suite, targets, agent_config)
        results = asyncio.run(_sweep(agent, episodes, thresholds, concurrency))
    points = [summarize(t, forks) for t, forks in results.items()]
    print_forks(run.run_id, len(episodes), points)
    if json_out:
        write_text(Path(json_out), json.dumps(points, indent=2), "--json")
        written(json_out, "fork JSON")


async def _sweep(
    agent: Agent, episodes: Any, thresholds: list[float], concurrency: int
) -> dict[float, list[ForkedEpisode]]:
    backends: list[Backend] = list(agent.targets.values())
    try:
        for backend in backends:
            await backend.check_reachable()
        return await fork_sweep(agent, episodes, thresholds, concurrency)
    finally:
        for backend in backends:
            await backend.aclose()


def summarize(threshold: float, forks: list[ForkedEpisode]) -> dict[str, Any]:
    """One threshold's figures, and every episode's decisions and counts."""
    scored = [f for f in forks if f.score.score is not None]
    by_task: dict[str, list[float]] = {}
    for f in scored:
        by_task.setdefault(f.task_id, []).append(1.0 if f.success else 0.0)
    ci = rate_interval(list(by_task.values()))
    decisions = sum(f.decisions for f in forks)
    return {
        "threshold": threshold,
        "episodes": len(forks),
        "success": ci.value if ci else None,
        "success_ci": [ci.low, ci.high] if ci else None,
        "escalation_rate": sum(f.escalated for f in forks) / decisions if decisions else None,
        "steps": decisions,
        "replayed_steps": sum(f.replayed_steps for f in forks),
        "live_steps": sum(f.live_steps for f in forks),
        "live_calls": sum(f.live_calls for f in forks),
        "diverged_episodes": sum(f.diverged_at is not None for f in forks),
        "per_episode": [
            {
                "task_id": f.task_id,
                "repeat": f.repeat,
                "status": f.score.status,
                "score": f.score.score,
                "targets": f.targets,
                "diverged_at": f.diverged_at,
                "replayed_steps": f.replayed_steps,
                "live_steps": f.live_steps,
                "live_calls": f.live_calls,
            }
            for f in forks
        ],
    }


def print_forks(run_id: str, n: int, points: list[dict[str, Any]]) -> None:
    console = Console()
    table = Table(
        title=f"Confidence thresholds replayed on {run_id} with live forks ({n} episodes)",
        title_justify="left",
    )
    for column in (
        "threshold",
        "success (95% CI)",
        "steps escalated",
        "replayed steps",
        "live steps",
        "live calls",
        "diverged episodes",
    ):
        table.add_column(column, justify="right")
    for p in points:
        success = "n/a" if p["success"] is None else f"{p['success']:.0%}"
        if p["success_ci"]:
            success += f" [{p['success_ci'][0]:.0%}, {p['success_ci'][1]:.0%}]"
        rate = "n/a" if p["escalation_rate"] is None else f"{p['escalation_rate']:.0%}"
        table.add_row(
            f"{p['threshold']:g}",
            success,
            rate,
            str(p["replayed_steps"]),
            str(p["live_steps"]),
            str(p["live_calls"]),
            f"{p['diverged_episodes']}/{p['episodes']}",
        )
    console.print(table)
    console.print(
        "Replayed: answers read from the recording (no model call), up to and "
        "including the first step where the threshold keeps a local answer the "
        "recording did not; from there the episode ran live (live steps, live model "
        "calls). Outcomes are measured, not bounded."
    )
