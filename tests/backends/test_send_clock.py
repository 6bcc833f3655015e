"""The call's clock against a real loopback server: t_send is the first request byte written
(after pool wait and connect), connect_s is recorded apart, and the connection policy holds."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx
import pytest

from agentbench.backends.base import ChatRequest, RetryPolicy
from agentbench.backends.openai_compat import OpenAICompatBackend

from ..loopback import serving

HELLO = ChatRequest(messages=[{"role": "user", "content": "hi"}], max_tokens=4)


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n" % len(data) + data + b"\r\n"


def _event(delta: dict[str, object], finish: str | None = None) -> bytes:
    body: dict[str, object] = {
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if finish:
        body["usage"] = {"prompt_tokens": 1, "completion_tokens": 1}
    return _chunk(f"data: {json.dumps(body)}\n\n".encode())


@dataclass
class Truth:
    """What the server saw: per request its connection, when its head arrived and when the
    first token was written (just before; perf_counter ns: the client's clock, one process)."""

    delay_s: float
    close: bool
    connections: int = 0
    requests: list[tuple[int, int, int]] = field(default_factory=list)


async def _serve(truth: Truth, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    truth.connections += 1
    conn = truth.connections
    try:
        while True:
            first = await reader.readline()
            if not first:
                return
            arrived = time.perf_counter_ns()
            head = first + await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.decode("latin-1").split("\r\n"):
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            await reader.readexactly(length)
            close = b"connection: close\r\n" if truth.close else b""
            writer.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                b"transfer-encoding: chunked\r\n" + close + b"\r\n"
            )
            await asyncio.sleep(truth.delay_s)
            truth.requests.append((conn, arrived, time.perf_counter_ns()))
            writer.write(_event({"content": " one"}))
            writer.write(_event({}, "stop") + _chunk(b"data: [DONE]\n\n") + b"0\r\n\r\n")
            await writer.drain()
            if truth.close:
                return
    except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


@contextmanager
def truth_server(delay_s: float = 0.05, close: bool = False) -> Iterator[tuple[str, Truth]]:
    truth = Truth(delay_s, close)

    async def handle(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await _serve(truth, r, w)

    with serving(handle) as url:
        yield url, truth


async def test_pool_wait_is_connect_s_not_ttft() -> None:
    """One connection for two calls at once: the second waits for the first in the pool.
    Its wait is connect_s; its TTFT is the server's delay, not the wait plus the delay."""
    with truth_server(delay_s=0.2) as (url, truth):
        client = httpx.AsyncClient(limits=httpx.Limits(max_connections=1))
        backend = OpenAICompatBackend(url, "m", client=client, retry=RetryPolicy(max_retries=0))
        try:
            first, second = await asyncio.gather(backend.complete(HELLO), backend.complete(HELLO))
        finally:
            await client.aclose()
    waited = max(first, second, key=lambda c: c.connect_s or 0.0)
    assert waited.connect_s is not None and waited.connect_s >= 0.15
    assert waited.connection_reused is True
    for c in (first, second):
        assert c.ttft_s is not None and 0.19 <= c.ttft_s < 0.3, c.ttft_s
    assert len(truth.requests) == 2


async def test_ttft_starts_at_the_first_byte_not_before_the_connect() -> None:
    """Client TTFT minus the server's own (head arrived → token left) is the client's share
    only: never negative (the clock starts before the server reads), and small."""
    with truth_server(delay_s=0.03, close=True) as (url, truth):
        backend = OpenAICompatBackend(url, "m", retry=RetryPolicy(max_retries=0))
        try:
            done = [await backend.complete(HELLO) for _ in range(4)]
        finally:
            await backend.aclose()
    for c, (_, arrived, sent) in zip(done, truth.requests, strict=True):
        assert c.ttft_s is not None and c.connect_s is not None and c.connect_s > 0
        share = c.ttft_s - (sent - arrived) / 1e9
        assert 0 <= share < 0.02, share
        assert c.connection_reused is False  # the server closed every connection


@pytest.mark.parametrize(
    ("new", "reused", "connections"),
    [(False, [False, True, True], 1), (True, [False, False, False], 3)],
)
async def test_connection_policy(new: bool, reused: list[bool], connections: int) -> None:
    """Kept-alive by default: one connection carries three calls; --new-connection-per-request
    opens one per call, and each call says which it had."""
    with truth_server(delay_s=0.0) as (url, truth):
        retry = RetryPolicy(max_retries=0, new_connection_per_request=new)
        backend = OpenAICompatBackend(url, "m", retry=retry)
        assert backend.connection_policy == ("new" if new else "reused")
        try:
            done = [await backend.complete(HELLO) for _ in range(3)]
        finally:
            await backend.aclose()
    assert [c.connection_reused for c in done] == reused
    assert truth.connections == connections
    assert all(c.connect_s is not None and c.connect_s >= 0 for c in done)


async def test_a_transport_without_trace_keeps_the_handover_clock() -> None:
    """A custom transport sends no trace: t_send falls back to the hand-over, connect_s None."""

    def answer(request: httpx.Request) -> httpx.Response:
        body = b'data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\ndata: [DONE]\n\n'
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    client = httpx.AsyncClient(transport=httpx.MockTransport(answer))
    backend = OpenAICompatBackend("http://x/v1", "m", client=client)
    completion = await backend.complete(HELLO)
    await client.aclose()
    assert completion.ttft_s is not None and completion.ttft_s >= 0
    assert completion.connect_s is None and completion.connection_reused is None


def test_a_header_with_a_line_break_is_refused_in_one_line() -> None:
    from agentbench.errors import ConfigError

    with pytest.raises(ConfigError, match="line break"):
        OpenAICompatBackend("http://127.0.0.1:9/v1", "m", headers={"x-a": "1\r\nhost: evil"})
