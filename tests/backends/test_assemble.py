"""The one completion assembly (backends.stream.assemble), fed by each protocol's adapter with
recorded streams played by a loopback server: OpenAI SSE captured from vLLM
(tests/fixtures/vllm), Ollama NDJSON after its API documentation (tests/fixtures/ollama), and
LangChain's chunks of the same vLLM capture read by the openai SDK. What each recording says is
read here from the recording itself, apart from the code under test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentbench.backends.base import ChatRequest, RetryPolicy
from agentbench.backends.ollama import OllamaBackend
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.records import Completion
from agentbench.tokens import estimate_tokens

from ..loopback import replay_server

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
VLLM_MODEL = "nemotron-3.5-lightning"
ASK = ChatRequest(messages=[{"role": "user", "content": "List the pods."}], max_tokens=256)
GAP_S = 0.01  # between recorded lines: a spread stream, as a server decoding would send it
SSE = "text/event-stream"


def sse_lines(name: str) -> list[str]:
    return (FIXTURES / "vllm" / name).read_text().splitlines()


def sse_chunks(lines: list[str]) -> list[dict[str, Any]]:
    return [
        json.loads(line[5:])
        for line in lines
        if line.startswith("data:") and line[5:].strip() != "[DONE]"
    ]


def tool_deltas(chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        call
        for c in chunks
        for choice in c["choices"]
        for call in choice["delta"].get("tool_calls") or []
    ]


async def openai_complete(routes: dict[str, tuple[str, list[str]]]) -> Completion:
    with replay_server(routes, gap_s=GAP_S) as url:
        backend = OpenAICompatBackend(url, VLLM_MODEL, retry=RetryPolicy(max_retries=0))
        try:
            return await backend.complete(ASK)
        finally:
            await backend.aclose()


def assert_timed(c: Completion) -> None:
    assert c.ttft_byte_s is not None and c.ttft_s is not None and c.duration_s is not None
    assert 0 < c.ttft_byte_s <= c.ttft_s <= (c.t_last_s or 0) <= c.duration_s
    # The recorded lines arrived GAP_S apart: the decode is timed, not a burst.
    assert c.decode_tok_s is not None and c.decode_unmeasured_reason is None, c
    assert c.tpot_s is not None and c.itl_s and len(c.itl_s) == (c.output_tokens or 0) - 1


async def test_openai_sse_capture_assembles_into_its_tool_call_usage_and_timing() -> None:
    lines = sse_lines("tool_stream.sse")
    chunks = sse_chunks(lines)
    deltas = tool_deltas(chunks)
    arguments = "".join(d["function"]["arguments"] or "" for d in deltas)
    usage = chunks[-1]["usage"]
    c = await openai_complete({"POST /v1/chat/completions": (SSE, lines)})
    (call,) = c.tool_calls
    assert call.name == deltas[0]["function"]["name"] == "run_command"
    assert call.id == deltas[0]["id"]
    assert call.arguments == arguments and call.parsed == json.loads(arguments)
    assert len(c.tool_call_fragments) == len(deltas)
    assert [f.arguments for f in c.tool_call_fragments] == [
        d["function"]["arguments"] for d in deltas
    ]
    # one token event per chunk that carried a name or argument text; the role chunk is none
    assert c.token_events == sum(1 for d in deltas if d["function"]["arguments"])
    assert (c.output_tokens, c.tokens_method) == (usage["completion_tokens"], "usage")
    assert (c.prompt_tokens, c.prompt_tokens_method) == (usage["prompt_tokens"], "usage")
    assert c.usage == usage and c.model == VLLM_MODEL
    assert c.finish_reason == "tool_calls" and not c.truncated and c.content == ""
    assert_timed(c)


@pytest.mark.parametrize("tokenizer", [True, False])
async def test_without_usage_the_count_falls_back_to_the_tokenizer_then_an_estimate(
    tokenizer: bool,
) -> None:
    """The chain after the server's counter: its /tokenize (the capture's answer), else the
    estimate, each marked in tokens_method."""
    lines = [line for line in sse_lines("chat_stream.sse") if '"usage"' not in line]
    content = "".join(
        choice["delta"].get("content") or "" for c in sse_chunks(lines) for choice in c["choices"]
    )
    routes = {"POST /v1/chat/completions": (SSE, lines)}
    counted = json.loads((FIXTURES / "vllm" / "tokenize.json").read_text())
    if tokenizer:
        routes["POST /tokenize"] = ("application/json", [json.dumps(counted)])
    c = await openai_complete(routes)
    assert c.content == content and content.startswith("kubectl")
    if tokenizer:
        assert (c.output_tokens, c.tokens_method) == (counted["count"], "server_tokenizer")
    else:
        assert (c.output_tokens, c.tokens_method) == (estimate_tokens(content), "estimated")
    assert c.prompt_tokens is None and c.prompt_tokens_method == "none" and c.usage is None
    assert (c.reasoning_tokens, c.reasoning_method) == (0, "none")


def ndjson(name: str) -> list[str]:
    return (FIXTURES / "ollama" / name).read_text().splitlines()


async def ollama_complete(lines: list[str], **kwargs: Any) -> Completion:
    with replay_server({"POST /api/chat": ("application/x-ndjson", lines)}, gap_s=GAP_S) as url:
        backend = OllamaBackend(url, "llama3.2", retry=RetryPolicy(max_retries=0), **kwargs)
        try:
            return await backend.complete(ASK)
        finally:
            await backend.aclose()


async def test_ollama_ndjson_assembles_with_its_counters_and_whole_tool_calls() -> None:
    lines = ndjson("chat_tools.ndjson")
    first, final = json.loads(lines[0]), json.loads(lines[-1])
    (sent,) = first["message"]["tool_calls"]
    c = await ollama_complete(lines)
    (call,) = c.tool_calls
    assert call.name == sent["function"]["name"] and call.parsed == sent["function"]["arguments"]
    assert call.id == "call_ollama_0"  # Ollama gives none; the agent needs one to answer
    assert len(c.tool_call_fragments) == 1  # a whole call, not fragments
    assert (c.output_tokens, c.tokens_method) == (final["eval_count"], "server_counter")
    assert (c.prompt_tokens, c.prompt_tokens_method) == (
        final["prompt_eval_count"],
        "server_counter",
    )
    assert c.server_decode_tok_s == pytest.approx(
        final["eval_count"] / (final["eval_duration"] / 1e9)
    )
    assert c.finish_reason == "tool_calls" and c.usage is None
    assert c.server_counters["eval_count"] == final["eval_count"]


async def test_ollama_thinking_is_reasoning_counted_by_the_estimate() -> None:
    lines = ndjson("chat_thinking.ndjson")
    said = [json.loads(line)["message"] for line in lines]
    thinking = "".join(m.get("thinking") or "" for m in said)
    answer = "".join(m.get("content") or "" for m in said)
    final = json.loads(lines[-1])
    c = await ollama_complete(lines, think=True)
    assert (c.reasoning, c.content) == (thinking, answer)
    assert (c.reasoning_tokens, c.reasoning_method) == (estimate_tokens(thinking), "estimated")
    assert (c.output_tokens, c.tokens_method) == (final["eval_count"], "server_counter")
    assert c.ttft_s is not None and c.ttfa_s is not None and c.ttft_s < c.ttfa_s
    # 21 tokens in 4 events: one event brought most of them, so no decode rate, and why
    assert c.token_events == 4 and c.decode_tok_s is None and c.decode_unmeasured_reason


async def test_langchain_chunks_of_the_capture_assemble_as_the_native_backend_does() -> None:
    """The same vLLM capture read by the openai SDK under LangChain: the step its chunks make is
    the Completion the native SSE adapter makes, field for field, and it is timed."""
    pytest.importorskip("langchain_openai")
    from langchain_core.messages import HumanMessage
    from langchain_openai import ChatOpenAI
    from pydantic import SecretStr

    from agentbench.agent.langchain_stream import StreamTimer, step_record

    lines = sse_lines("tool_stream.sse")
    routes = {"POST /v1/chat/completions": (SSE, lines)}
    native = await openai_complete(routes)
    timer = StreamTimer()
    with replay_server(routes, gap_s=GAP_S) as url:
        model = ChatOpenAI(
            model=VLLM_MODEL,
            base_url=url,
            api_key=SecretStr("not-needed"),
            streaming=True,
            stream_usage=True,
            max_retries=0,
            callbacks=[timer],
        )
        message = await model.ainvoke([HumanMessage("List the pods.")])
        backend = OpenAICompatBackend(url, VLLM_MODEL)
        (timing,) = timer.calls
        step = await step_record(timing, message, backend, "local", timing.acc.t_send_ns, 0)
        await backend.aclose()
    same = (
        "model",
        "content",
        "reasoning",
        "output_tokens",
        "tokens_method",
        "prompt_tokens",
        "prompt_tokens_method",
        "reasoning_tokens",
        "reasoning_method",
        "finish_reason",
        "truncated",
        "token_events",
    )
    assert {k: getattr(step, k) for k in same} == {k: getattr(native, k) for k in same}
    assert [(t.id, t.name, t.arguments, t.parsed) for t in step.tool_calls] == [
        (t.id, t.name, t.arguments, t.parsed) for t in native.tool_calls
    ]
    assert step.server_counters["agent"] == "langchain" and step.t_start_s == 0.0
    assert_timed(step)
