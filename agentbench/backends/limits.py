"""What one streamed answer may cost, whatever the server sends.

See docs/robustness.md#streams-and-payloads.

A server can ignore `max_tokens`, send one line that never ends, or open thousands of tool
calls. Every bound here is relative to `max_tokens` and generous: no real server comes within
several times of it, and a stream that passes one is cut and its step recorded as truncated
with the reason, its stored text trimmed to STORED_CHARS per field.

    bytes per response   RESPONSE_BYTES_PER_TOKEN x max_tokens, at least MIN_RESPONSE_BYTES
                         (a token event is 100-400 bytes of JSON on vLLM, llama.cpp, Ollama)
    bytes per line       LINE_BYTES_PER_TOKEN x max_tokens, at least MIN_LINE_BYTES: one line
                         may carry a whole answer, never more than that
    characters of text   TEXT_CHARS_PER_TOKEN x max_tokens, at least MIN_TEXT_CHARS, of answer,
                         reasoning and tool arguments together (the longest tokens of real
                         vocabularies are runs of spaces of a few dozen): what the text-call
                         reader and the scorer read stays small
    tool-call fragments  FRAGMENTS_PER_TOKEN x max_tokens + MAX_STREAMED_TOOL_CALLS
    tool calls           MAX_STREAMED_TOOL_CALLS are read; later ones are dropped, and the
                         step says so (agent.episode runs at most 32 and answers the rest)

Bytes and lines are bounded as they are read (`bounded_lines`); text, fragments and tool calls
by the StreamAccumulator every adapter feeds (backends.stream), whatever the protocol.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from agentbench.records import Completion, ToolFragmentRecord

RESPONSE_BYTES_PER_TOKEN = 1024
MIN_RESPONSE_BYTES = 4 << 20
LINE_BYTES_PER_TOKEN = 256
MIN_LINE_BYTES = 1 << 20
TEXT_CHARS_PER_TOKEN = 64
MIN_TEXT_CHARS = 64 << 10
FRAGMENTS_PER_TOKEN = 2
MAX_STREAMED_TOOL_CALLS = 256
UNBOUNDED_MAX_TOKENS = 32_768  # what the bounds assume when a request sets no max_tokens
STORED_CHARS = 16_384


class StreamOverLimit(Exception):  # a cut, not an error: the step is truncated
    """A stream passed one of its bounds; `str()` is the truncation reason."""


@dataclass(frozen=True)
class StreamLimits:
    max_tokens: int
    response_bytes: int
    line_bytes: int
    text_chars: int
    fragments: int

    @classmethod
    def for_max_tokens(cls, max_tokens: int | None) -> StreamLimits:
        tokens = max_tokens if max_tokens and max_tokens > 0 else UNBOUNDED_MAX_TOKENS
        return cls(
            max_tokens=tokens,
            response_bytes=max(MIN_RESPONSE_BYTES, RESPONSE_BYTES_PER_TOKEN * tokens),
            line_bytes=max(MIN_LINE_BYTES, LINE_BYTES_PER_TOKEN * tokens),
            text_chars=max(MIN_TEXT_CHARS, TEXT_CHARS_PER_TOKEN * tokens),
            fragments=FRAGMENTS_PER_TOKEN * tokens + MAX_STREAMED_TOOL_CALLS,
        )

    def cut(self, what: str) -> StreamOverLimit:
        return StreamOverLimit(
            f"the server sent {what} (the bound for max_tokens={self.max_tokens}); "
            "agentbench cut the stream"
        )


async def bounded_lines(chunks: AsyncIterator[bytes], limits: StreamLimits) -> AsyncIterator[str]:
    """The lines of a byte stream (split at \\n, \\r\\n or \\r, decoded as UTF-8 with
    replacement), holding at most one line of `limits.line_bytes` in memory. Raises
    StreamOverLimit past the line or the response bound."""
    pending = bytearray()
    total = 0
    async for chunk in chunks:
        total += len(chunk)
        if total > limits.response_bytes:
            raise limits.cut(f"over {limits.response_bytes:,} bytes in one response")
        end = max(chunk.rfind(b"\n"), chunk.rfind(b"\r"))
        if end < 0:
            pending += chunk
            if len(pending) > limits.line_bytes:
                raise limits.cut(f"a line over {limits.line_bytes:,} bytes")
            continue
        pending += chunk[: end + 1]
        lines = pending.splitlines()
        pending = bytearray(chunk[end + 1 :])
        for line in lines:
            if len(line) > limits.line_bytes:
                raise limits.cut(f"a line over {limits.line_bytes:,} bytes")
            yield line.decode("utf-8", "replace")
    if pending:
        yield pending.decode("utf-8", "replace")


def _trim(text: str) -> str:
    if len(text) <= STORED_CHARS:
        return text
    return f"{text[:STORED_CHARS]}… [{len(text) - STORED_CHARS:,} more characters not stored]"


def trim_cut(completion: Completion) -> None:
    """Trim what a cut stream left to STORED_CHARS per text (the step ends the episode, so no
    request replays it)."""
    completion.content = _trim(completion.content)
    completion.reasoning = _trim(completion.reasoning)
    for call in completion.tool_calls:
        if len(call.arguments) > STORED_CHARS:
            call.arguments, call.parsed = _trim(call.arguments), None
        call.name = _trim(call.name)
    kept: list[ToolFragmentRecord] = []
    budget = STORED_CHARS
    for fragment in completion.tool_call_fragments:
        size = len(fragment.arguments or "") + len(fragment.name or "")
        if size > budget:
            break
        kept.append(fragment)
        budget -= size
    completion.tool_call_fragments = kept
