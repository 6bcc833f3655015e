"""Transcripts as JSONL in the OpenAI chat messages format: one line per episode, to replay or
fine-tune from (docs/transcripts.md).

A line holds the messages the episode's last model call was sent, followed by that call's
answer; assistant turns carry the reasoning text the model produced for them under
`reasoning_content` (the field vLLM and DeepSeek use), which was not sent back to the model,
and, where a call was read out of the text, the text as the model wrote it under `raw_content`
(`content` is what was sent back).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from agentbench.records import EpisodeResult, StepRecord


def _answer(step: StepRecord) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": step.content or None}
    if step.raw_content is not None:
        message["raw_content"] = step.raw_content
    if step.tool_calls and step.request is not None and step.request.tool_mode == "native":
        message["tool_calls"] = [
            {
                "id": c.id or f"call_{step.index}_{i}",
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments},
            }
            for i, c in enumerate(step.tool_calls)
        ]
    return message


def conversation(episode: EpisodeResult) -> dict[str, Any] | None:
    """The episode as one OpenAI-format record; None when no transcript was stored."""
    kept = [s for s in episode.steps if not s.discarded and s.request is not None]
    if not kept:
        return None
    last = kept[-1]
    assert last.request is not None
    messages = [dict(m) for m in last.request.messages] + [_answer(last)]
    turns = [m for m in messages if m.get("role") == "assistant"]
    if len(turns) == len(kept):  # i-th assistant turn <- i-th kept step
        for message, step in zip(turns, kept, strict=True):
            if step.reasoning:
                message["reasoning_content"] = step.reasoning
            if step.raw_content is not None:
                message["raw_content"] = step.raw_content
    return {
        "messages": messages,
        "tools": last.request.tools or [],
        "metadata": {
            "run_id": episode.run_id,
            "task_id": episode.task_id,
            "repeat": episode.repeat,
            "status": episode.status,
            "score": episode.score,
            "model": last.model,
            "tool_mode": last.request.tool_mode,
            "steps": len(episode.steps),
        },
    }


def jsonl_lines(episodes: Iterable[EpisodeResult]) -> Iterator[str]:
    for episode in episodes:
        record = conversation(episode)
        if record is not None:
            yield json.dumps(record, ensure_ascii=False)


def write_jsonl(path: Path, episodes: Iterable[EpisodeResult]) -> int:
    """Write one line per episode that has a transcript; the number written."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as out:
        for line in jsonl_lines(episodes):
            out.write(line + "\n")
            count += 1
    return count
