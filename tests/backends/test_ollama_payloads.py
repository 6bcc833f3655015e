"""The Ollama adapter on payloads shaped after Ollama's API documentation (tests/fixtures/ollama).

Ollama cannot be installed on the build machines; these recorded payloads and the reference
server's Ollama protocol (test_ollama_refserver.py) are what the adapter is tested on.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from agentbench.backends.base import ChatRequest, RetryPolicy
from agentbench.backends.ollama import OllamaBackend, ollama_root, to_ollama_messages
from agentbench.errors import BackendError, NotAnLLMServer

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ollama"
MESSAGES = [{"role": "user", "content": "Why is the sky blue?"}]


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def backend_for(routes: dict[str, tuple[int, bytes]], seen: list[httpx.Request] | None = None,
                **kwargs) -> OllamaBackend:
    def handler(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        status, body = routes.get(request.url.path, (404, b"404 page not found"))
        ctype = "application/x-ndjson" if request.url.path == "/api/chat" else "application/json"
        return httpx.Response(status, content=body, headers={"content-type": ctype})

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return OllamaBackend("http://127.0.0.1:11434", kwargs.pop("model", "llama3.2"),
                         client=client, retry=RetryPolicy(max_retries=0), **kwargs)


async def test_stream_counters_become_the_server_view() -> None:
    backend = backend_for({"/api/chat": (200, fixture("chat_stream.ndjson"))})
    c = await backend.complete(ChatRequest(messages=MESSAGES))
    assert c.content == "The sky is blue."
    assert c.output_tokens == 282 and c.tokens_method == "server_counter"
    assert c.prompt_tokens == 26 and c.prompt_tokens_method == "server_counter"
    assert c.server_decode_tok_s == pytest.approx(282 / 4.535599)
    assert c.server_prefill_tok_s == pytest.approx(26 / 0.342546)
    assert c.server_counters["load_duration"] == 1334875
    assert c.server_counters["eval_duration"] == 4535599000
    assert c.finish_reason == "stop" and not c.truncated
    assert c.ttft_s is not None and c.duration_s is not None


async def test_native_tool_call_arguments_object_becomes_json_text() -> None:
    backend = backend_for({"/api/chat": (200, fixture("chat_tools.ndjson"))})
    c = await backend.complete(ChatRequest(messages=MESSAGES, tools=[{"type": "function",
        "function": {"name": "get_current_weather", "parameters": {"type": "object"}}}]))
    assert len(c.tool_calls) == 1
    call = c.tool_calls[0]
    assert call.name == "get_current_weather"
    assert json.loads(call.arguments) == {"format": "celsius", "location": "Paris, FR"}
    assert call.parsed == {"format": "celsius", "location": "Paris, FR"}
    assert call.id  # a stable id, so the agent can answer with a `tool` message
    assert c.finish_reason == "tool_calls"
    assert c.output_tokens == 33


async def test_thinking_is_reasoning_counted_by_estimate() -> None:
    backend = backend_for({"/api/chat": (200, fixture("chat_thinking.ndjson"))}, think=True)
    c = await backend.complete(ChatRequest(messages=MESSAGES))
    assert c.reasoning.startswith("Okay,")
    assert c.content == "There are three r's."
    assert c.reasoning_tokens and c.reasoning_method == "estimated"
    assert c.output_tokens == 21 and c.tokens_method == "server_counter"
    assert c.ttft_s is not None and c.ttfa_s is not None and c.ttfa_s >= c.ttft_s
    assert c.server_counters["think"] is True


async def test_request_body_carries_think_num_ctx_and_translated_messages() -> None:
    seen: list[httpx.Request] = []
    backend = backend_for({"/api/chat": (200, fixture("chat_stream.ndjson"))}, seen,
                          think=True, num_ctx=8192)
    messages = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "run_command", "arguments": "{\"cmd\": \"ls\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "a b"},
    ]
    c = await backend.complete(ChatRequest(messages=messages, max_tokens=64, temperature=0.0))
    body = json.loads(seen[0].content)
    assert body["stream"] is True and body["think"] is True
    assert body["options"] == {"num_ctx": 8192, "temperature": 0.0, "num_predict": 64}
    assert body["messages"][2]["tool_calls"][0]["function"]["arguments"] == {"cmd": "ls"}
    assert body["messages"][2]["content"] == ""
    assert body["messages"][3] == {"role": "tool", "content": "a b", "tool_name": "run_command"}
    assert c.server_counters["num_ctx"] == 8192


def test_invalid_arguments_text_is_sent_as_an_empty_object() -> None:
    out = to_ollama_messages([{"role": "assistant", "content": "", "tool_calls": [
        {"id": "x", "function": {"name": "f", "arguments": "{not json"}}]}])
    assert out[0]["tool_calls"][0]["function"]["arguments"] == {}


async def test_silent_truncation_against_the_prompt_sent() -> None:
    """Seed 002: an '8,194 token' prompt that was really a much longer one, cut by Ollama."""
    backend = backend_for({"/api/chat": (200, fixture("chat_truncated.ndjson"))},
                          model="nemotron-3.5-lightning:30b-a3b", num_ctx=8192)
    long_log = "\n".join(f"2026-08-11T10:{i % 60:02d}:00Z pod web-{i} restarted after probe "
                         f"failure code {i}" for i in range(1500))
    c = await backend.complete(ChatRequest(messages=[{"role": "user", "content": long_log}]))
    assert c.truncated
    assert "prompt_eval_count 8194" in (c.truncation_reason or "")
    assert "num_ctx=8192" in (c.truncation_reason or "")
    assert c.server_counters["prompt_tokens_estimate"] > 8194 / 0.6
    assert c.server_counters["load_duration"] == 27300000000  # the cold load, recorded


async def test_short_prompt_is_not_called_truncated() -> None:
    backend = backend_for({"/api/chat": (200, fixture("chat_stream.ndjson"))})
    c = await backend.complete(ChatRequest(messages=MESSAGES))
    assert not c.truncated and c.truncation_reason is None


async def test_412_becomes_an_upgrade_message() -> None:
    backend = backend_for({"/api/chat": (412, fixture("error_412.json"))},
                          model="nemotron-3.5-lightning:30b-a3b")
    with pytest.raises(BackendError) as info:
        await backend.complete(ChatRequest(messages=MESSAGES))
    assert info.value.kind == "ollama_too_old"
    assert "upgrade Ollama" in str(info.value) and "ollama pull" in str(info.value)


async def test_unknown_model_says_pull_it() -> None:
    backend = backend_for({"/api/chat": (404, fixture("error_model_not_found.json"))})
    with pytest.raises(BackendError) as info:
        await backend.complete(ChatRequest(messages=MESSAGES))
    assert info.value.kind == "model_not_found"
    assert "ollama pull llama3.2" in str(info.value)


async def test_a_server_without_api_chat_is_not_ollama() -> None:
    backend = backend_for({})
    with pytest.raises(NotAnLLMServer):
        await backend.complete(ChatRequest(messages=MESSAGES))


async def test_server_info_from_version_show_and_ps() -> None:
    backend = backend_for({
        "/api/version": (200, fixture("version.json")),
        "/api/show": (200, fixture("show.json")),
        "/api/ps": (200, fixture("ps.json")),
    }, model="nemotron-3.5-lightning:30b-a3b", think=True)
    info = await backend.server_info()
    assert info.kind == "ollama" and info.provider == "ollama"
    assert info.version == "0.32.9"
    assert info.max_context == 262144
    assert info.extra["model_context_length"] == 262144
    assert info.extra["capabilities"] == ["completion", "tools", "thinking"]
    assert info.spec_decode_seen is True  # draft_num_predict in the model's parameters
    assert info.base_url == "http://127.0.0.1:11434"


async def test_num_ctx_option_is_the_context_recorded() -> None:
    backend = backend_for({"/api/show": (200, fixture("show.json"))}, num_ctx=4096)
    info = await backend.server_info()
    assert info.max_context == 4096 and info.extra["options"] == {"num_ctx": 4096}


def test_root_is_found_from_v1_or_api_urls() -> None:
    assert ollama_root("http://h:11434/v1") == "http://h:11434"
    assert ollama_root("http://h:11434/api/") == "http://h:11434"
