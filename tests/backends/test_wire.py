"""The lean HTTP/1.1 client (backends.wire) against real loopback servers that frame the same
stream in the awkward ways HTTP allows: chunks split across reads, \\r line ends, trailers,
gzip, a body that ends with the connection, a kept-alive connection the server dropped."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from agentbench.backends.base import ChatRequest, RetryPolicy
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.errors import BackendError

from ..loopback import serving

HELLO = ChatRequest(messages=[{"role": "user", "content": "hi"}], max_tokens=8)
WORDS = ["al", "pha", " be", "ta"]


def sse_body(line_end: str = "\n") -> bytes:
    events = [{"model": "m", "choices": [{"index": 0, "delta": {"content": w}}]} for w in WORDS]
    events.append({"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                   "usage": {"prompt_tokens": 1, "completion_tokens": 4}})  # fmt: skip
    text = "".join(f"data: {json.dumps(e)}{line_end}{line_end}" for e in events)
    return (text + f"data: [DONE]{line_end}{line_end}").encode()


def chunked(body: bytes, size: int) -> bytes:
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x;ext=1\r\n" % len(p) + p + b"\r\n" for p in parts) + b"0\r\nx-t: 1\r\n\r\n"


Answer = Callable[[int], bytes]  # request number on its connection -> the whole response


@contextmanager
def server(answer: Answer, piece: int = 0, close_after: int = 0) -> Iterator[tuple[str, list[int]]]:
    """Writes each response `piece` bytes at a time (0: at once); closes a connection after
    `close_after` answers (0: never). Yields the URL and the count of connections."""
    conns = [0]

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conns[0] += 1
        try:
            for n in range(1, 1000):
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(int(v.split(b":")[1]) for v in head.split(b"\r\n")
                              if v.lower().startswith(b"content-length"))  # fmt: skip
                await reader.readexactly(length)
                data = answer(n)
                for i in range(0, len(data), piece or len(data)):
                    writer.write(data[i : i + (piece or len(data))])
                    await writer.drain()
                    await asyncio.sleep(0)
                if close_after and n >= close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    with serving(handle) as url:
        yield url, conns


HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"


async def calls(url: str, n: int, retries: int = 0) -> list[str]:
    backend = OpenAICompatBackend(url, "m", retry=RetryPolicy(max_retries=retries, backoff_s=0))
    assert backend._wire is not None  # plain http://, no proxy: the lean client
    try:
        return [(await backend.complete(HELLO)).content for _ in range(n)]
    finally:
        await backend.aclose()


@pytest.mark.parametrize(("piece", "size"), [(1, 7), (5, 3), (0, 1000)])
async def test_chunks_split_across_reads_and_kept_alive(piece: int, size: int) -> None:
    body = chunked(sse_body(), size)
    with server(lambda n: HEAD + b"transfer-encoding: chunked\r\n\r\n" + body, piece) as (url, c):
        assert await calls(url, 3) == ["alpha beta"] * 3
    assert c[0] == 1  # trailers read to the end: the one connection served all three


async def test_carriage_return_line_ends_and_a_gzip_body() -> None:
    body = gzip.compress(sse_body("\r"))
    answer = HEAD + b"content-encoding: gzip\r\ncontent-length: %d\r\n\r\n" % len(body) + body
    with server(lambda n: answer, piece=3) as (url, _):
        assert await calls(url, 2) == ["alpha beta"] * 2


async def test_a_body_that_ends_with_the_connection() -> None:
    answer = HEAD + b"connection: close\r\n\r\n" + sse_body("\r\n")
    with server(lambda n: answer, close_after=1) as (url, c):
        assert await calls(url, 2) == ["alpha beta"] * 2
    assert c[0] == 2


async def test_a_kept_alive_connection_the_server_dropped_is_retried() -> None:
    body = chunked(sse_body(), 50)
    ok = HEAD + b"transfer-encoding: chunked\r\n\r\n" + body
    with server(lambda n: ok, close_after=1) as (url, c):  # closes after each answer, silently
        assert await calls(url, 3, retries=2) == ["alpha beta"] * 3
    assert c[0] >= 3


async def test_a_body_cut_mid_chunk_is_a_cut_stream() -> None:
    cut = HEAD + b"transfer-encoding: chunked\r\n\r\n" + chunked(sse_body(), 40)[:90]
    with server(lambda n: cut, close_after=1) as (url, _), pytest.raises(BackendError) as caught:
        await calls(url, 1)
    assert caught.value.kind in ("stream_cut", "bad_stream")
