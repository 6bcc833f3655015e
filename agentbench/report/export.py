"""CSV exports: one row per episode (and per step with `level='step'`)."""

from __future__ import annotations

import csv
from pathlib import Path

from agentbench.records import EpisodeResult, RunRecord

EPISODE_COLUMNS = [
    "run_id", "task_id", "category", "difficulty", "repeat", "status", "score", "time_to_done_s",
    "model_time_s", "tool_time_s", "router_time_s", "output_tokens", "reasoning_tokens",
    "thinking_tokens_per_step", "cost_usd",
]
STEP_COLUMNS = [
    "run_id", "task_id", "repeat", "index", "target", "model", "ttft_byte_s", "ttft_s", "ttfa_s",
    "duration_s", "decode_tok_s", "prefill_tok_s", "server_decode_tok_s", "prompt_tokens",
    "output_tokens", "reasoning_tokens", "tokens_method", "finish_reason", "truncated",
    "discarded", "tool_calls",
]


def write_csv(path: Path, run: RunRecord, episodes: list[EpisodeResult],
              level: str = "episode") -> None:
    with path.open("w", newline="") as fh:
        if level == "step":
            writer = csv.DictWriter(fh, STEP_COLUMNS)
            writer.writeheader()
            for e in episodes:
                for s in e.steps:
                    row = s.model_dump(include=set(STEP_COLUMNS))
                    row.update(run_id=run.run_id, task_id=e.task_id, repeat=e.repeat,
                               tool_calls=len(s.tool_calls))
                    writer.writerow(row)
            return
        writer = csv.DictWriter(fh, EPISODE_COLUMNS)
        writer.writeheader()
        for e in episodes:
            writer.writerow(e.model_dump(include=set(EPISODE_COLUMNS)))
