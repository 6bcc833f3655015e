"""OpenAI chat-completion chunks as they stream (`data: {...}` lines, then `data: [DONE]`):
each choice of a chunk read into a `Delta` for the StreamAccumulator, every field typed (the
accumulator bounds the tool calls and text, backends.limits), the usage kept as `Reported`; a
chunk that cannot be read is a bad stream naming its field."""

from __future__ import annotations

import json
from typing import Any

from agentbench.backends.http import bad_stream, json_object
from agentbench.backends.stream import Delta, Reported, StreamAccumulator, ToolDelta, typed
from agentbench.errors import RetryableBackendError


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

    def __init__(self, url: str) -> None:
        self.url = url
        self.complete = False
        self.usage: dict[str, Any] | None = None
        self.timings: dict[str, Any] | None = None

    def feed(self, line: str, now_ns: int, acc: StreamAccumulator) -> None:
        if not line.startswith("data:"):
            return  # `event:`, `id:`, `retry:` fields
        data = line[5:].strip()
        if data == "[DONE]":
            self.complete = True
            return
        chunk = json_object(self.url, line, data, "an SSE payload")
        if "error" in chunk and not chunk.get("choices"):
            raise RetryableBackendError(
                "stream_error",
                f"{self.url} reported an error mid-stream: {str(chunk['error'])[:200]}",
            )
        try:
            self._read_chunk(chunk, acc, now_ns)
        except (AttributeError, TypeError, ValueError, KeyError) as exc:
            raise bad_stream(self.url, line, f"a chunk of the wrong shape ({exc})") from exc
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

    def reported(self) -> Reported:
        """The usage's counts (checked as whole numbers when the chunk was read)."""
        usage = self.usage
        if not usage:
            return Reported("usage")
        return Reported(
            "usage",
            output=count(usage, "completion_tokens"),
            reasoning=count(usage, "completion_tokens_details", "reasoning_tokens"),
            prompt=count(usage, "prompt_tokens"),
            cached=count(usage, "prompt_tokens_details", "cached_tokens"),
            usage=usage,
        )

    def _read_chunk(self, chunk: dict[str, Any], acc: StreamAccumulator, now: int) -> None:
        """One chunk's choices into `acc`, a Delta each; a field of the wrong type raises
        ValueError/TypeError (a bad stream), a stream past its bounds StreamOverLimit (a cut)."""
        model = typed(chunk.get("model"), str, "model")
        choices = typed(chunk.get("choices"), list, "choices") or []
        for delta in [_delta(choice, model) for choice in choices] or [Delta(model=model)]:
            acc.feed(delta, now)


def _delta(choice: dict[str, Any], model: str | None) -> Delta:
    delta = typed(choice.get("delta"), dict, "delta") or {}
    reasoning = delta.get("reasoning") or delta.get("reasoning_content")
    logprobs = (choice.get("logprobs") or {}).get("content") or []
    return Delta(
        reasoning=typed(reasoning, str, "delta.reasoning") or "",
        content=typed(delta.get("content"), str, "delta.content") or "",
        tool_calls=tuple(
            _tool_delta(call)
            for call in typed(delta.get("tool_calls"), list, "delta.tool_calls") or []
        ),
        finish_reason=typed(choice.get("finish_reason"), str, "finish_reason"),
        model=model,
        logprobs=tuple(
            float(v)
            for v in (item.get("logprob") for item in logprobs)
            if isinstance(v, int | float)
        ),
    )


def _tool_delta(call: dict[str, Any]) -> ToolDelta:
    function = typed(call.get("function"), dict, "tool_calls[].function") or {}
    return ToolDelta(
        index=typed(call.get("index", 0), int, "tool_calls[].index"),
        id=typed(call.get("id"), str, "tool_calls[].id"),
        name=typed(function.get("name"), str, "tool_calls[].function.name"),
        arguments=typed(function.get("arguments"), str, "tool_calls[].function.arguments"),
    )
