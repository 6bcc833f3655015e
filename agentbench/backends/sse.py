"""OpenAI chat-completion chunks as they stream (`data: {...}` lines, then `data: [DONE]`):
each chunk read into a StreamAccumulator, every field typed, the tool calls and text bounded
(agentbench.backends.limits); a chunk that cannot be read is a bad stream naming its field."""

from __future__ import annotations

import json
import math
from typing import Any

from agentbench.backends.http import bad_stream
from agentbench.backends.limits import (
    MAX_STREAMED_TOOL_CALLS,
    StreamLimits,
    check_text,
)
from agentbench.backends.stream import StreamAccumulator, typed
from agentbench.errors import RetryableBackendError
from agentbench.jsontext import loads


def count(usage: dict[str, Any], *path: str) -> int | None:
    """An integer usage field, or None when absent; anything else is a bad stream."""
    value: Any = usage
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"usage.{'.'.join(path)} = {value!r:.80} (not a whole number)")
    return value


def _small(fields: dict[str, Any], limit: int = 4096) -> dict[str, Any]:
    """A usage or timings object as stored: whole when small (every server's is under 1 KB),
    else only its numbers and the usage details, so junk in it is not stored with every step."""
    if len(json.dumps(fields)) <= limit:
        return fields
    keep = ("completion_tokens_details", "prompt_tokens_details")
    return {
        k: v
        for k, v in fields.items()
        if (isinstance(v, int | float) and len(k) < 64) or (k in keep and len(json.dumps(v)) < 512)
    }


class SseReader:
    """OpenAI chat-completion chunks (`data: {...}` lines, then `data: [DONE]`)."""

    def __init__(self, url: str, limits: StreamLimits | None = None) -> None:
        self.url = url
        self.limits = limits or StreamLimits.for_max_tokens(None)
        self.fragments = 0
        self.complete = False
        self.usage: dict[str, Any] | None = None
        self.timings: dict[str, Any] | None = None
        self.logprobs: list[float] = []

    def feed(self, line: str, now_ns: int, acc: StreamAccumulator) -> None:
        if not line.startswith("data:"):
            return  # `event:`, `id:`, `retry:` fields
        data = line[5:].strip()
        if data == "[DONE]":
            self.complete = True
            return
        try:
            chunk = loads(data)
        except json.JSONDecodeError as exc:
            raise bad_stream(self.url, line, f"an SSE line that is not JSON ({exc.msg})") from exc
        if not isinstance(chunk, dict):
            raise bad_stream(self.url, line, "an SSE payload that is not a JSON object")
        if "error" in chunk and not chunk.get("choices"):
            raise RetryableBackendError(
                "stream_error",
                f"{self.url} reported an error mid-stream: {str(chunk['error'])[:200]}",
            )
        try:
            self._read_chunk(chunk, acc, now_ns)
        except (AttributeError, TypeError, ValueError, KeyError) as exc:
            raise bad_stream(self.url, line, f"a chunk of the wrong shape ({exc})") from exc
        check_text(acc, self.limits)
        usage = chunk.get("usage")
        if usage:
            if not isinstance(usage, dict):
                raise bad_stream(self.url, line, "a usage that is not an object")
            try:
                for path in (
                    ("completion_tokens",),
                    ("prompt_tokens",),
                    ("completion_tokens_details", "reasoning_tokens"),
                    ("prompt_tokens_details", "cached_tokens"),
                ):
                    count(usage, *path)
            except ValueError as exc:
                raise bad_stream(self.url, line, str(exc)) from exc
            self.usage = _small(usage)
        timings = chunk.get("timings")
        if isinstance(timings, dict):
            self.timings = _small(timings)

    def _read_chunk(self, chunk: dict[str, Any], acc: StreamAccumulator, now: int) -> None:
        """One chunk's deltas into `acc`; a field of the wrong type raises ValueError/TypeError
        (a bad stream), and a stream past its tool-call bounds StreamOverLimit (a cut)."""
        acc.model = typed(chunk.get("model"), str, "model") or acc.model
        for choice in typed(chunk.get("choices"), list, "choices") or []:
            delta = typed(choice.get("delta"), dict, "delta") or {}
            reasoning = delta.get("reasoning") or delta.get("reasoning_content")
            acc.add_reasoning(typed(reasoning, str, "delta.reasoning") or "", now)
            acc.add_content(typed(delta.get("content"), str, "delta.content") or "", now)
            for call in typed(delta.get("tool_calls"), list, "delta.tool_calls") or []:
                self._read_tool_call(call, acc, now)
            finish = typed(choice.get("finish_reason"), str, "finish_reason")
            if finish:
                acc.finish_reason = finish
            for item in (choice.get("logprobs") or {}).get("content") or []:
                value = item.get("logprob")
                if isinstance(value, int | float) and math.isfinite(value):
                    self.logprobs.append(float(value))

    def _read_tool_call(self, call: dict[str, Any], acc: StreamAccumulator, now: int) -> None:
        index = typed(call.get("index", 0), int, "tool_calls[].index")
        function = typed(call.get("function"), dict, "tool_calls[].function") or {}
        self.fragments += 1
        if self.fragments > self.limits.fragments:
            raise self.limits.cut(f"over {self.limits.fragments:,} tool-call fragments")
        if index not in acc.tool_indices() and len(acc.tool_indices()) >= MAX_STREAMED_TOOL_CALLS:
            raise self.limits.cut(f"over {MAX_STREAMED_TOOL_CALLS} tool calls in one answer")
        acc.add_tool_fragment(
            index,
            now,
            id=typed(call.get("id"), str, "tool_calls[].id"),
            name=typed(function.get("name"), str, "tool_calls[].function.name"),
            arguments=typed(function.get("arguments"), str, "tool_calls[].function.arguments"),
        )
