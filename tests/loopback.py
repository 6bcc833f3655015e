"""Tiny misbehaving OpenAI-compatible servers on loopback, for deadline and payload tests.

Each serves GET /v1/models (listing one model) and answers POST /v1/chat/completions in one
of these ways:
    keepalive   SSE comments (`: ping`) every 0.1 s, forever: no event ever arrives
    drip        one token every 0.3 s, forever
    stall       one token, then silence
    runaway     tokens as fast as it can, ignoring max_tokens, then [DONE] after 20,000
    payload     the SSE lines in `lines`, then [DONE]
The HTTP/1.1 responses have no length and close the connection at the end of the body.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress

MODEL = "m"


def _chunk(text: str) -> bytes:
    body = {"model": MODEL, "choices": [{"index": 0, "delta": {"content": text}}]}
    return f"data: {json.dumps(body)}\n\n".encode()


async def _handle(
    mode: str, lines: list[str], reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.decode("latin-1").split("\r\n"):
            if line.lower().startswith("content-length:"):
                length = int(line.split(":", 1)[1])
        if length:
            await reader.readexactly(length)
        if head.startswith(b"GET /v1/models"):
            body = json.dumps({"object": "list", "data": [{"id": MODEL, "object": "model"}]})
            writer.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n"
                + f"content-length: {len(body)}\r\n\r\n{body}".encode()
            )
            return
        if not head.startswith(b"POST /v1/chat/completions"):
            writer.write(
                b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            )
            return
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n"
        )
        if mode == "keepalive":
            while True:
                writer.write(b": ping\n\n")
                await writer.drain()
                await asyncio.sleep(0.1)
        elif mode == "drip":
            while True:
                writer.write(_chunk("tok "))
                await writer.drain()
                await asyncio.sleep(0.3)
        elif mode == "stall":
            writer.write(_chunk("tok "))
            await writer.drain()
            await asyncio.sleep(3600)
        elif mode == "runaway":
            for _ in range(20_000):
                writer.write(_chunk("tok "))
                await writer.drain()
            writer.write(b"data: [DONE]\n\n")
        else:
            for line in lines:
                writer.write(f"{line}\n\n".encode())
            writer.write(b"data: [DONE]\n\n")
        await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@contextmanager
def serving(handle: Handler, lifetime_s: float | None = None) -> Iterator[str]:
    """Serve `handle` on a loopback port from a background thread's event loop until the block
    ends (or `lifetime_s`, so a server a test forgot stops by itself); yields the base URL
    (…/v1). Connections still open at the end are cancelled."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    port: list[int] = []
    stop = asyncio.Event()
    handlers: set[asyncio.Task[None]] = set()

    async def tracked(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        handlers.add(task)
        await handle(r, w)

    async def main() -> None:
        server = await asyncio.start_server(tracked, "127.0.0.1", 0)
        port.append(server.sockets[0].getsockname()[1])
        ready.set()
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), lifetime_s)
        server.close()
        for task in handlers:
            task.cancel()
        await asyncio.gather(*handlers, return_exceptions=True)
        await server.wait_closed()

    def serve() -> None:
        loop.run_until_complete(main())
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield f"http://127.0.0.1:{port[0]}/v1"
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)


@contextmanager
def loopback_server(mode: str, lines: list[str] | None = None) -> Iterator[str]:
    """Serve in a background thread; yields the base URL (…/v1)."""

    async def handle(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await _handle(mode, lines or [], r, w)

    with serving(handle) as url:
        yield url


@contextmanager
def replay_server(routes: dict[str, tuple[str, list[str]]], gap_s: float = 0.0) -> Iterator[str]:
    """Play recorded streams: each request to a route in `routes` (`"POST /v1/chat/completions"`
    -> (content type, lines)) is answered with its lines, one write each, `gap_s` apart (a
    spread stream, so that decode figures exist); GET /v1/models lists MODEL; anything else is
    404. Yields the base URL (…/v1)."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            request = head.decode("latin-1").split("\r\n")
            for line in request:
                if line.lower().startswith("content-length:"):
                    await reader.readexactly(int(line.split(":", 1)[1]))
            method, path = request[0].split(" ")[:2]
            route = routes.get(f"{method} {path}")
            if route is None:
                writer.write(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
                return
            ctype, lines = route
            writer.write(
                f"HTTP/1.1 200 OK\r\ncontent-type: {ctype}\r\nconnection: close\r\n\r\n".encode()
            )
            for line in lines:
                writer.write(line.encode() + b"\n")
                await writer.drain()
                if gap_s:
                    await asyncio.sleep(gap_s)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    with serving(handle, lifetime_s=120.0) as url:
        yield url
