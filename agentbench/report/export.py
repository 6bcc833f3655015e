"""CSV exports at three levels: one row per run, per episode, or per step.

Columns are named with their units (`_s`, `_tok_s`); a missing figure is an empty cell, never 0.
Run-level figures come from `metrics.summarize`; nothing is computed here.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agentbench.metrics.summary import summarize
from agentbench.records import EpisodeResult, RunRecord

LEVELS = ("run", "episode", "step")

RUN_COLUMNS = [
    "run_id",
    "created_at",
    "status",
    "model",
    "server_kind",
    "server_version",
    "base_url",
    "max_context",
    "spec_decode_seen",
    "router",
    "frontier_model",
    "repeats",
    "concurrency",
    "tool_mode",
    "task_dir",
    "tasks",
    "episodes",
    "scored_episodes",
    "success_rate",
    "success_rate_ci_low",
    "success_rate_ci_high",
    "mean_score",
    "mean_score_ci_low",
    "mean_score_ci_high",
    "steps",
    "thinking_tokens_per_step",
    "thinking_tokens_method",
    "output_tokens_per_step",
    "tokens_per_solved_task",
    "time_to_done_s_median",
    "time_to_done_s_p90",
    "ttft_s_median",
    "decode_tok_s_median",
    "decode_tok_s_spread",
    "decode_steps",
    "server_decode_tok_s_median",
    "prefill_tok_s_median",
    "escalation_rate_calls",
    "escalation_rate_episodes",
    "cost_usd",
    "truncated_steps",
    "tool_calls",
    "off_script_calls",
    "off_script_share",
]
EPISODE_COLUMNS = [
    "run_id",
    "task_id",
    "category",
    "difficulty",
    "repeat",
    "status",
    "score",
    "steps",
    "time_to_done_s",
    "model_time_s",
    "tool_time_s",
    "router_time_s",
    "output_tokens",
    "reasoning_tokens",
    "thinking_tokens_per_step",
    "cost_usd",
    "tool_mode",
    "started_at",
    "explanation",
]
STEP_COLUMNS = [
    "run_id",
    "task_id",
    "repeat",
    "index",
    "target",
    "model",
    "t_start_s",
    "ttft_byte_s",
    "ttft_s",
    "ttfa_s",
    "duration_s",
    "decode_tok_s",
    "prefill_tok_s",
    "server_decode_tok_s",
    "server_prefill_tok_s",
    "prompt_tokens",
    "cached_prompt_tokens",
    "output_tokens",
    "reasoning_tokens",
    "tokens_method",
    "reasoning_method",
    "finish_reason",
    "truncated",
    "discarded",
    "tool_calls",
    "tool_call_names",
    "tool_time_s",
    "router_policy",
    "router_target",
    "router_reason",
    "invalid_tool_call",
    "error",
    "retries",
    "cost_usd",
]


def run_rows(run: RunRecord, episodes: list[EpisodeResult]) -> Iterable[dict[str, Any]]:
    s = summarize(episodes)
    srv = run.server
    cfg = run.config
    row: dict[str, Any] = s.model_dump(include=set(RUN_COLUMNS))
    row.update(
        run_id=run.run_id,
        created_at=run.created_at,
        status=run.status,
        model=srv.model if srv else cfg.get("model"),
        server_kind=srv.kind if srv else None,
        server_version=srv.version if srv else None,
        base_url=srv.base_url if srv else None,
        max_context=srv.max_context if srv else None,
        spec_decode_seen=srv.spec_decode_seen if srv else None,
        router=cfg.get("router"),
        frontier_model=cfg.get("frontier_model"),
        repeats=cfg.get("repeats"),
        concurrency=cfg.get("concurrency"),
        tool_mode=cfg.get("tool_mode"),
        task_dir=run.task_dir,
        success_rate_ci_low=s.success_rate_ci[0] if s.success_rate_ci else None,
        success_rate_ci_high=s.success_rate_ci[1] if s.success_rate_ci else None,
        mean_score_ci_low=s.mean_score_ci[0] if s.mean_score_ci else None,
        mean_score_ci_high=s.mean_score_ci[1] if s.mean_score_ci else None,
    )
    yield row


def episode_rows(run: RunRecord, episodes: list[EpisodeResult]) -> Iterable[dict[str, Any]]:
    for e in episodes:
        row = e.model_dump(include=set(EPISODE_COLUMNS))
        row["steps"] = len(e.steps)
        yield row


def step_rows(run: RunRecord, episodes: list[EpisodeResult]) -> Iterable[dict[str, Any]]:
    for e in episodes:
        for s in e.steps:
            row = s.model_dump(include=set(STEP_COLUMNS))
            row.update(
                run_id=run.run_id,
                task_id=e.task_id,
                repeat=e.repeat,
                tool_calls=len(s.tool_calls),
                tool_call_names=";".join(c.name for c in s.tool_calls),
                router_policy=s.router.policy if s.router else None,
                router_target=s.router.target if s.router else None,
                router_reason=s.router.reason if s.router else None,
            )
            yield row


_ROWS = {
    "run": (RUN_COLUMNS, run_rows),
    "episode": (EPISODE_COLUMNS, episode_rows),
    "step": (STEP_COLUMNS, step_rows),
}


def write_csv(
    path: Path, run: RunRecord, episodes: list[EpisodeResult], level: str = "episode"
) -> None:
    """One row per run, episode or step (`level`); raises ValueError for another level."""
    if level not in _ROWS:
        raise ValueError(f"CSV level {level!r}: use one of {', '.join(LEVELS)}")
    columns, rows = _ROWS[level]
    with Path(path).open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows(run, episodes))
