"""What one streamed answer may cost: lines read from bytes under a cap, payload fields typed."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from agentbench.backends.base import ChatRequest, RetryPolicy
from agentbench.backends.limits import (
    MAX_STREAMED_TOOL_CALLS,
    STORED_CHARS,
    StreamLimits,
    StreamOverLimit,
    bounded_lines,
    trim_cut,
)
from agentbench.backends.ollama_wire import NdjsonReader
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.backends.stream import StreamAccumulator
from agentbench.errors import BackendError
from agentbench.records import Completion, ToolCallRecord, ToolFragmentRecord

from ..loopback import MODEL, loopback_server

SMALL = StreamLimits(max_tokens=4, response_bytes=100, line_bytes=10, text_chars=50, fragments=8)


async def _chunks(parts: list[bytes], read: list[int] | None = None) -> AsyncIterator[bytes]:
    for part in parts:
        if read is not None:
            read.append(len(part))
        yield part


async def _lines(parts: list[bytes], limits: StreamLimits = SMALL) -> list[str]:
    return [line async for line in bounded_lines(_chunks(parts), limits)]


async def test_lines_split_at_any_newline_across_chunks_and_bad_utf8_is_replaced() -> None:
    parts = [b"ab", b"c\r", b"\nde\nf", b"\rg\xff", b"h"]
    assert [x for x in await _lines(parts) if x] == ["abc", "de", "f", "g\ufffdh"]


async def test_a_line_past_its_cap_is_cut_holding_no_more_than_one_line() -> None:
    read: list[int] = []
    with pytest.raises(StreamOverLimit, match="a line over 10 bytes"):
        async for _ in bounded_lines(_chunks([b"x" * 4] * 1_000, read), SMALL):
            pass
    assert sum(read) <= 12  # three chunks of four: the cap plus one chunk
    with pytest.raises(StreamOverLimit, match="a line over 10 bytes"):
        await _lines([b"ok\n" + b"y" * 11 + b"\n"])


async def test_a_response_past_its_bytes_is_cut_whatever_its_lines() -> None:
    with pytest.raises(StreamOverLimit, match="over 100 bytes in one response") as cut:
        await _lines([b"data: 1\n"] * 20)
    assert "max_tokens=4" in str(cut.value) and "agentbench cut the stream" in str(cut.value)


def test_the_bounds_scale_with_max_tokens_above_a_floor() -> None:
    small, large, unset = (StreamLimits.for_max_tokens(n) for n in (16, 65_536, None))
    assert (small.response_bytes, small.line_bytes) == (4 << 20, 1 << 20)
    assert (large.response_bytes, large.line_bytes) == (64 << 20, 16 << 20)
    assert unset.max_tokens == 32_768 and small.fragments == 32 + MAX_STREAMED_TOOL_CALLS


def test_a_cut_completion_is_trimmed_for_the_store() -> None:
    big = "z" * (STORED_CHARS * 3)
    completion = Completion(
        model="m",
        requested_model="m",
        content=big,
        reasoning="short",
        tool_calls=[ToolCallRecord(id="c", name="f", arguments=big, parsed={"a": big})],
        tool_call_fragments=[
            ToolFragmentRecord(index=0, t_s=0.0, arguments="q" * 10_000) for _ in range(5)
        ],
    )
    trim_cut(completion)
    assert completion.content.startswith("z" * STORED_CHARS)
    assert completion.content.endswith(f"[{STORED_CHARS * 2:,} more characters not stored]")
    assert completion.reasoning == "short"
    (call,) = completion.tool_calls
    assert len(call.arguments) < STORED_CHARS + 100 and call.parsed is None
    assert len(completion.tool_call_fragments) == 1


def _call_line(index: object, name: str = "run_command", args: str = "{}") -> str:
    delta = {"tool_calls": [{"index": index, "id": f"c{index}", "function": {"name": name}}]}
    delta["tool_calls"][0]["function"]["arguments"] = args
    return "data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]})


async def _complete(lines: list[str], max_tokens: int = 1024) -> Completion:
    with loopback_server("payload", lines) as url:
        backend = OpenAICompatBackend(url, MODEL, retry=RetryPolicy(max_retries=0))
        try:
            return await backend.complete(
                ChatRequest(messages=[{"role": "user", "content": "hi"}], max_tokens=max_tokens)
            )
        finally:
            await backend.aclose()


async def test_an_answer_opening_too_many_tool_calls_is_cut_and_truncated() -> None:
    lines = [_call_line(i) for i in range(MAX_STREAMED_TOOL_CALLS + 50)]
    completion = await _complete(lines)
    assert completion.truncated
    assert f"over {MAX_STREAMED_TOOL_CALLS} tool calls" in (completion.truncation_reason or "")
    assert len(completion.tool_calls) == MAX_STREAMED_TOOL_CALLS


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        (_call_line("0"), "tool_calls[].index = '0': expected int"),
        (_call_line(True), "tool_calls[].index = True: expected int"),
        ('data: {"model": 7, "choices": []}', "model = 7: expected str"),
        ('data: {"choices": [{"delta": {"content": 5}}]}', "delta.content = 5: expected str"),
        ('data: {"choices": [{"delta": "x"}]}', "delta = 'x': expected dict"),
        ("data: " + "[" * 5_000 + "]" * 5_000, "nested deeper than 64 levels"),
        ('data: {"choices": [], "usage": {"completion_tokens": 1e999}}', "not a whole number"),
    ],
)
async def test_a_field_of_the_wrong_type_is_a_bad_stream_naming_it(line: str, shown: str) -> None:
    with pytest.raises(BackendError) as caught:
        await _complete([line])
    assert caught.value.kind == "bad_stream" and shown in str(caught.value)


async def test_text_past_its_bound_is_cut_however_few_the_bytes_of_each_event() -> None:
    line = "data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": "w" * 10_000}}]})
    completion = await _complete([line] * 10, max_tokens=16)  # under 32 token events
    assert completion.truncated
    assert "over 65,536 characters of text" in (completion.truncation_reason or "")
    assert len(completion.content) < STORED_CHARS + 100


async def test_tool_call_arguments_nested_too_deep_are_kept_as_text_not_parsed() -> None:
    completion = await _complete(
        [_call_line(0, args="[" * 50_000), 'data: {"choices": [{"finish_reason": "tool_calls"}]}']
    )
    (call,) = completion.tool_calls
    assert call.parsed is None and call.arguments == "[" * 50_000


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ('{"model": ["m"], "message": {}}', "model = ['m']: expected str"),
        ('{"message": {"content": {"a": 1}}}', "message.content = {'a': 1}: expected str"),
        ('{"done": true, "done_reason": 3}', "done_reason = 3: expected str"),
        ('{"done": true, "eval_count": 1e999}', "eval_count that is not a number"),
        ("[" * 5_000, "nested deeper than 64 levels"),
    ],
)
def test_ollama_lines_of_the_wrong_shape_are_bad_streams(line: str, shown: str) -> None:
    reader = NdjsonReader("http://h/api/chat", "m")
    with pytest.raises(BackendError) as caught:
        reader.feed(line, 1, StreamAccumulator(t_send_ns=0))
    assert caught.value.kind == "bad_stream" and shown in str(caught.value)


async def test_a_huge_usage_object_is_stored_as_its_counts_only() -> None:
    usage = {"completion_tokens": 2, "prompt_tokens": 3, "junk": "j" * 500_000}
    completion = await _complete(
        [
            'data: {"choices": [{"index": 0, "delta": {"content": "hi"}}]}',
            "data: " + json.dumps({"choices": [], "usage": usage}),
        ]
    )
    assert completion.usage == {"completion_tokens": 2, "prompt_tokens": 3}
    assert completion.output_tokens == 2
