"""The shared HTTP layer: call deadline, idle timeout, runaway streams, bad payloads, errors."""

from __future__ import annotations

import time

import httpx
import pytest

from agentbench.backends.base import ChatRequest, RetryPolicy
from agentbench.backends.http import http_error
from agentbench.backends.ollama import OllamaBackend
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.backends.providers import OLLAMA, api_root
from agentbench.errors import BackendError, ConfigError, NotAnLLMServer, RetryableBackendError

from ..loopback import MODEL, loopback_server

HELLO = ChatRequest(messages=[{"role": "user", "content": "hi"}], max_tokens=16)


def backend(url: str, call_s: float = 1.5, idle_s: float = 60.0) -> OpenAICompatBackend:
    retry = RetryPolicy(max_retries=0, request_timeout_s=call_s, idle_timeout_s=idle_s)
    return OpenAICompatBackend(url, MODEL, retry=retry)


async def failure(b: OpenAICompatBackend) -> tuple[BackendError, float]:
    t0 = time.monotonic()
    try:
        with pytest.raises(BackendError) as caught:
            await b.complete(HELLO)
    finally:
        await b.aclose()
    return caught.value, time.monotonic() - t0


@pytest.mark.parametrize("mode", ["keepalive", "drip"])
async def test_the_call_deadline_bounds_the_whole_call(mode: str) -> None:
    """Keep-alive comments forever, or one token every 0.3 s forever: over at 1.5 s."""
    with loopback_server(mode) as url:
        error, took = await failure(backend(url, call_s=1.5))
    assert error.kind == "timeout" and "call deadline of 1.5 s" in str(error)
    assert 1.4 <= took < 3.0


async def test_the_idle_timeout_ends_a_stalled_stream_before_the_deadline() -> None:
    with loopback_server("stall") as url:
        error, took = await failure(backend(url, call_s=30.0, idle_s=0.5))
    assert error.kind == "timeout" and "no stream event for 0.5 s" in str(error)
    assert took < 3.0


async def test_a_stream_far_past_max_tokens_is_cut_and_recorded_truncated() -> None:
    with loopback_server("runaway") as url:
        b = backend(url, call_s=30.0)
        try:
            completion = await b.complete(HELLO)
        finally:
            await b.aclose()
    assert completion.truncated and completion.finish_reason == "length"
    assert "max_tokens=16" in (completion.truncation_reason or "")
    assert completion.token_events == 33  # 2 x 16, then the next one cut it


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("data: []", "not a JSON object"),
        ("data: 42", "not a JSON object"),
        ("data: {not json", "not JSON"),
        (
            'data: {"choices": [], "usage": {"completion_tokens": "lots", "prompt_tokens": 3}}',
            "not a whole number",
        ),
        ('data: {"choices": [7]}', "wrong shape"),
    ],
)
async def test_malformed_payloads_are_bad_stream_with_the_line_kept(line: str, why: str) -> None:
    with loopback_server("payload", [line]) as url:
        error, _ = await failure(backend(url))
    assert error.kind == "bad_stream" and isinstance(error, RetryableBackendError)
    assert why in str(error) and line[:40] in str(error)


async def test_the_model_is_checked_with_a_did_you_mean(refserver) -> None:
    b = OpenAICompatBackend(refserver.base_url, "oracel")
    try:
        with pytest.raises(ConfigError, match="did you mean 'oracle'"):
            await b.check_reachable()
        b.model = "noisy-0.3"  # a variant of a listed policy
        await b.check_reachable()
    finally:
        await b.aclose()


async def test_a_base_url_without_v1_is_refused(refserver) -> None:
    b = OpenAICompatBackend(refserver.base_url.removesuffix("/v1"), "oracle")
    try:
        with pytest.raises(NotAnLLMServer, match="/v1"):
            await b.check_reachable()
    finally:
        await b.aclose()


async def test_ollama_model_check_names_ollama_pull(refserver) -> None:
    b = OllamaBackend(f"http://127.0.0.1:{refserver.port}", "orcale")
    try:
        with pytest.raises(ConfigError, match="ollama pull orcale"):
            await b.check_reachable()
    finally:
        await b.aclose()


async def test_headers_and_sampling_reach_the_server(refserver) -> None:
    b = OpenAICompatBackend(
        refserver.base_url,
        "oracle",
        headers={"X-Team": "ops"},
        api_key="k",
        extra_body={"seed": 7, "top_p": 0.5},
    )
    assert b.auth_headers() == {"X-Team": "ops", "authorization": "Bearer k"}
    assert b.build_body(HELLO)["seed"] == 7 and b.build_body(HELLO)["top_p"] == 0.5
    await b.aclose()


def test_one_error_mapping_for_both_protocols() -> None:
    h = httpx.Headers({"retry-after": "2"})
    limited = http_error(429, "{}", "u", h)
    assert isinstance(limited, RetryableBackendError) and limited.retry_after_s == 2.0
    assert http_error(401, "", "u", httpx.Headers()).kind == "auth"
    missing = http_error(
        404,
        '{"error": "model \\"x\\" not found"}',
        "u",
        httpx.Headers(),
        model="x",
        protocol=OLLAMA,
    )
    assert missing.kind == "model_not_found" and "ollama pull x" in str(missing)
    assert http_error(412, "{}", "u", httpx.Headers(), protocol=OLLAMA).kind == "ollama_too_old"
    assert isinstance(http_error(404, "nope", "u", httpx.Headers()), NotAnLLMServer)


def test_api_root_strips_one_api_suffix() -> None:
    assert api_root("http://h:8000/v1/") == "http://h:8000"
    assert api_root("http://h:11434/api") == "http://h:11434"
    assert api_root("http://h:8080") == "http://h:8080"
