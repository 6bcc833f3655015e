"""The OpenAI-compatible adapter against payloads in the shapes real servers send."""

import json

import httpx
import pytest

from agentbench.backends.base import ChatRequest, RetryPolicy
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.errors import BackendError, NotAnLLMServer, RetryableBackendError


def sse(*chunks: dict | str) -> bytes:
    lines = [f"data: {c if isinstance(c, str) else json.dumps(c)}\n\n" for c in chunks]
    return "".join(lines).encode()


def delta(**fields) -> dict:
    return {"model": "m", "choices": [{"index": 0, "delta": fields, "finish_reason": None}]}


def finish(reason: str) -> dict:
    return {"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}


def backend(handler, **kw) -> OpenAICompatBackend:
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return OpenAICompatBackend(
        "http://server/v1",
        "m",
        client=client,
        retry=RetryPolicy(max_retries=2, backoff_s=0.0),
        **kw,
    )


REQUEST = ChatRequest(messages=[{"role": "user", "content": "hi"}])


async def test_vllm_shape_usage_in_final_chunk_and_reasoning_field() -> None:
    seen = {}

    def handler(request: httpx.Request) -> httpx.Response:
        seen.update(json.loads(request.content))
        body = sse(
            delta(role="assistant", content=""),
            delta(reasoning="Let me"),
            delta(reasoning=" think"),
            delta(content="OOMKilled"),
            finish("stop"),
            {
                "model": "m",
                "choices": [],
                "usage": {
                    "prompt_tokens": 20,
                    "completion_tokens": 5,
                    "completion_tokens_details": {"reasoning_tokens": 3},
                },
            },
            "[DONE]",
        )
        return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    c = await backend(handler).complete(REQUEST)
    assert seen["stream"] is True and seen["stream_options"] == {"include_usage": True}
    assert (c.output_tokens, c.tokens_method, c.reasoning_tokens) == (5, "usage", 3)
    assert c.reasoning == "Let me think" and c.content == "OOMKilled"
    assert c.ttft_byte_s <= c.ttft_s <= c.ttfa_s <= c.duration_s
    assert c.prompt_tokens == 20 and c.finish_reason == "stop" and not c.truncated


async def test_reasoning_content_and_inline_think_are_both_read() -> None:
    def handler(request):
        return httpx.Response(
            200,
            content=sse(
                delta(reasoning_content="old field"),
                delta(content="<think>inline</think>"),
                delta(content="done"),
                finish("length"),
                "[DONE]",
            ),
        )

    c = await backend(handler).complete(REQUEST)
    assert c.reasoning == "old fieldinline" and c.content == "done"
    assert c.truncated and c.truncation_reason == "finish_reason=length"


async def test_no_usage_falls_back_to_server_tokenizer_then_estimate() -> None:
    def with_tokenizer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/extras/tokenize":
            return httpx.Response(200, json={"tokens": [1, 2, 3, 4]})
        if request.url.path == "/v1/chat/completions":
            return httpx.Response(
                200, content=sse(delta(content="a b c d"), finish("stop"), "[DONE]")
            )
        return httpx.Response(404, json={"detail": "Not Found"})

    c = await backend(with_tokenizer).complete(REQUEST)
    assert (c.output_tokens, c.tokens_method) == (4, "server_tokenizer")

    def without(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/chat/completions":
            return httpx.Response(
                200, content=sse(delta(content="hello world"), finish("stop"), "[DONE]")
            )
        return httpx.Response(404)

    c = await backend(without).complete(REQUEST)
    assert c.tokens_method == "estimated" and c.output_tokens == 2


async def test_chunks_are_never_counted_as_tokens() -> None:
    # speculative decoding: 3 tokens per chunk; usage says 9 over 3 chunks
    def handler(request):
        return httpx.Response(
            200,
            content=sse(
                delta(content="a b c"),
                delta(content=" d e f"),
                delta(content=" g h i"),
                finish("stop"),
                {"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 9}},
                "[DONE]",
            ),
        )

    c = await backend(handler).complete(REQUEST)
    assert c.output_tokens == 9 and c.token_events == 3


async def test_tool_call_fragments_assemble() -> None:
    def handler(request):
        return httpx.Response(
            200,
            content=sse(
                delta(
                    tool_calls=[
                        {
                            "index": 0,
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "run_command", "arguments": ""},
                        }
                    ]
                ),
                delta(tool_calls=[{"index": 0, "function": {"arguments": '{"cmd": "kubectl'}}]),
                delta(tool_calls=[{"index": 0, "function": {"arguments": ' get pods -n web"}'}}]),
                finish("tool_calls"),
                "[DONE]",
            ),
        )

    c = await backend(handler).complete(REQUEST)
    (call,) = c.tool_calls
    assert call.name == "run_command" and call.parsed == {"cmd": "kubectl get pods -n web"}
    assert c.ttfa_s == c.ttft_s


async def test_429_is_retried_honouring_retry_after() -> None:
    calls = []

    def handler(request):
        calls.append(1)
        if len(calls) == 1:
            return httpx.Response(429, json={"error": "slow down"}, headers={"retry-after": "0"})
        return httpx.Response(200, content=sse(delta(content="ok"), finish("stop"), "[DONE]"))

    c = await backend(handler).complete(REQUEST)
    assert c.retries == 1 and c.retry_errors[0].startswith("rate_limited")


async def test_cut_stream_is_retryable_and_gives_up_after_retries() -> None:
    def handler(request):
        return httpx.Response(200, content=sse(delta(content="partial")))

    with pytest.raises(RetryableBackendError) as info:
        await backend(handler).complete(REQUEST)
    assert info.value.kind == "stream_cut"


async def test_html_page_is_named_not_an_llm_server() -> None:
    def handler(request):
        return httpx.Response(404, text="<html>nginx</html>", headers={"content-type": "text/html"})

    with pytest.raises(NotAnLLMServer, match="HTML page"):
        await backend(handler).complete(REQUEST)


async def test_auth_error_never_echoes_the_key() -> None:
    def handler(request):
        assert request.headers["authorization"] == "Bearer sk-secret-123"
        return httpx.Response(401, json={"error": "bad key"})

    with pytest.raises(BackendError) as info:
        await backend(handler, api_key="sk-secret-123").complete(REQUEST)
    assert info.value.kind == "auth" and "sk-secret" not in str(info.value)


async def test_llama_server_timings_are_the_server_view() -> None:
    # llama.cpp's llama-server puts per-request `timings` on its last chunk
    timings = {"prompt_n": 40, "prompt_ms": 80.0, "prompt_per_second": 500.0,
               "predicted_n": 3, "predicted_ms": 60.0, "predicted_per_second": 50.0,
               "draft_n": 6, "draft_n_accepted": 4}

    def handler(request):
        last = {**finish("stop"), "timings": timings,
                "usage": {"prompt_tokens": 40, "completion_tokens": 3}}
        return httpx.Response(200, content=sse(delta(content="a"), delta(content=" b c"), last,
                                               "[DONE]"))

    c = await backend(handler).complete(REQUEST)
    assert c.server_decode_tok_s == 50.0 and c.server_prefill_tok_s == 500.0
    assert c.server_counters["timings"]["draft_n_accepted"] == 4
    assert c.output_tokens == 3 and c.tokens_method == "usage"
