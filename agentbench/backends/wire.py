"""A lean HTTP/1.1 client for the one request whose cost is measured: the streamed POST.

httpx (with httpcore and h11) spends ~20 µs of CPU per SSE event and ~1 ms per call on a
2-core machine (benchmarks/overhead.py); that is client time inside every TTFT and every gap.
For plain `http://` servers reached without a proxy, `WirePool` writes the request itself and
reads the response straight off asyncio streams: chunked, sized and close-delimited bodies,
gzip/deflate if a server sends them anyway, a kept-alive pool (or none). Everything else
(https, proxies, a client the caller supplied, every GET) stays on httpx.

Failures are raised as the httpx exceptions httpx would raise for them, so the one mapping in
backends.http turns both paths into the same fault kinds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import zlib
from collections.abc import AsyncIterator
from typing import Any

import httpx

from agentbench.jsontext import loads

READ_SIZE = 65536
HEAD_LIMIT = 65536  # status line + headers
MAX_LINE_CHARS = 8 * 1024 * 1024  # a stream line longer than this is not an LLM stream
MAX_ERROR_BODY = 1024 * 1024
MAX_IDLE = 256
PROXY_VARIABLES = ("http_proxy", "all_proxy")

try:
    import orjson

    def dump_json(body: Any) -> bytes:
        """The request body as httpx's `json=` writes it (compact UTF-8), orjson when it can."""
        try:
            return orjson.dumps(body)
        except TypeError:  # what orjson does not take (non-str keys, huge ints): the stdlib
            return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


except ImportError:  # pragma: no cover - orjson is optional

    def dump_json(body: Any) -> bytes:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


load_json = loads  # bounded (agentbench.jsontext), orjson where it is installed


def wire_usable(url: str) -> bool:
    """Plain http:// and no proxy configured in the environment (httpx would honour one)."""
    if not url.startswith("http://"):
        return False
    return not any(os.environ.get(v) or os.environ.get(v.upper()) for v in PROXY_VARIABLES)


class _Conn:
    __slots__ = ("reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    def close(self) -> None:
        self.writer.close()


class WireResponse:
    """The answer's status and headers; the body is read once, as lines or whole."""

    def __init__(self, pool: WirePool, key: tuple[str, int], conn: _Conn, head: bytes) -> None:
        self._pool, self._key, self._conn = pool, key, conn
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
            raise httpx.RemoteProtocolError(f"not an HTTP/1.x response: {lines[0][:80]!r}")
        self.status_code = int(parts[1])
        headers: dict[str, str] = {}  # lower-case names; repeated ones joined as httpx does
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                name, value = name.strip().lower(), value.strip()
                headers[name] = f"{headers[name]}, {value}" if name in headers else value
        self.headers = headers
        framing = headers.get("transfer-encoding", "").lower()
        self._chunked = "chunked" in framing
        length = headers.get("content-length")
        self._left = int(length) if length and length.isdigit() and not self._chunked else None
        self._keep = (
            parts[0] == "HTTP/1.1"
            and "close" not in headers.get("connection", "").lower()
            and (self._chunked or self._left is not None)
        )
        encoding = headers.get("content-encoding", "").lower()
        self._inflate = zlib.decompressobj(wbits=47) if encoding in ("gzip", "deflate") else None
        self._done = False

    async def _body(self) -> AsyncIterator[bytes]:
        """Body bytes as they arrive (all complete chunks of one read at once)."""
        reader = self._conn.reader
        if not self._chunked:
            left = self._left
            while left is None or left > 0:
                data = await reader.read(READ_SIZE if left is None else min(left, READ_SIZE))
                if not data:
                    if left is None:
                        break  # close-delimited: the end of the body
                    raise httpx.RemoteProtocolError("peer closed connection without sending "
                                                    "complete message body")  # fmt: skip
                if left is not None:
                    left -= len(data)
                yield data
            self._done = True
            return
        buf, pos = b"", 0
        while True:
            out: list[bytes] = []
            while True:  # every complete chunk in the buffer
                end = buf.find(b"\r\n", pos)
                if end < 0:
                    break
                size = int(buf[pos:end].split(b";", 1)[0] or b"x", 16)
                if size < 0:
                    raise ValueError(f"chunk size {size}")
                if size == 0:
                    if buf.find(b"\r\n\r\n", end) < 0:
                        break  # the last chunk's trailers and blank line are not all here
                    self._done = True
                    if out:
                        yield b"".join(out)
                    return
                if len(buf) < end + 2 + size + 2:
                    break
                out.append(buf[end + 2 : end + 2 + size])
                pos = end + 2 + size + 2
            if out:
                yield b"".join(out)
            data = await reader.read(READ_SIZE)
            if not data:
                raise httpx.RemoteProtocolError(
                    "peer closed connection without sending complete message body"
                )
            buf = buf[pos:] + data if pos < len(buf) else data
            pos = 0
            if len(buf) > MAX_LINE_CHARS + READ_SIZE:
                raise httpx.RemoteProtocolError("a chunk of the response is too large")

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body as it arrives, content-encoding undone in pieces of at most READ_SIZE (a
        compressed bomb never expands in one go); the caller bounds lines and totals
        (backends.limits), as with httpx's aiter_bytes."""
        try:
            async for data in self._body():
                if self._inflate is None:
                    yield data
                    continue
                piece = self._inflate.decompress(data, READ_SIZE)
                while piece:
                    yield piece
                    tail = self._inflate.unconsumed_tail
                    piece = self._inflate.decompress(tail, READ_SIZE) if tail else b""
        except OSError as exc:
            raise httpx.ReadError(str(exc)) from exc
        except (ValueError, zlib.error) as exc:
            raise httpx.RemoteProtocolError(f"malformed response body: {exc}") from exc

    async def aread(self) -> bytes:
        """The whole body (an error answer), bounded."""
        out, size = [], 0
        async for data in self.aiter_bytes():
            out.append(data)
            size += len(data)
            if size > MAX_ERROR_BODY:
                break
        return b"".join(out)[:MAX_ERROR_BODY]

    async def aclose(self) -> None:
        """Back to the pool when the body was read to its end on a kept-alive connection."""
        conn, self._conn = self._conn, None  # type: ignore[assignment]
        if conn is not None:
            self._pool.release(self._key, conn, self._done and self._keep)


class WirePool:
    """Connections per (host, port): kept alive and reused, or one per call (`keepalive`)."""

    def __init__(self, keepalive: bool, connect_timeout_s: float) -> None:
        self.keepalive = keepalive
        self.connect_timeout_s = connect_timeout_s
        self._idle: dict[tuple[str, int], list[_Conn]] = {}

    async def _connect(self, host: str, port: int) -> _Conn:
        try:
            async with asyncio.timeout(self.connect_timeout_s):
                reader, writer = await asyncio.open_connection(host, port, limit=HEAD_LIMIT)
        except TimeoutError as exc:
            raise httpx.ConnectTimeout(f"no connection to {host}:{port} in time") from exc
        except OSError as exc:
            raise httpx.ConnectError(str(exc)) from exc
        return _Conn(reader, writer)

    async def post(
        self, url: httpx.URL, headers: dict[str, str], body: bytes, trace: Any = None
    ) -> WireResponse:
        """Send the request; return once the response head arrived. `trace` is told
        `connection.connect_tcp.started` for a new connection, then
        `http11.send_request_headers.started` just before the first byte is written."""
        host, port = url.host, url.port or 80
        key = (host, port)
        idle = self._idle.get(key)
        conn = None
        while idle:
            candidate = idle.pop()
            if candidate.reader.at_eof() or candidate.writer.is_closing():
                candidate.close()
                continue
            conn = candidate
            break
        if conn is None:
            if trace is not None:
                await trace("connection.connect_tcp.started", {})
            conn = await self._connect(host, port)
        hostname = f"[{host}]" if ":" in host else host
        lines = [
            f"POST {url.raw_path.decode('ascii')} HTTP/1.1",
            f"host: {hostname}" + (f":{url.port}" if url.port else ""),
            f"content-length: {len(body)}",
            "content-type: application/json",
            "user-agent: agentbench",
            *(f"{k}: {v}" for k, v in headers.items()),
        ]
        if not self.keepalive:
            lines.append("connection: close")
        data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        try:
            if trace is not None:
                await trace("http11.send_request_headers.started", {})
            conn.writer.write(data)
            await conn.writer.drain()
            head = await _read_head(conn.reader)
        except BaseException:
            conn.close()
            raise
        return WireResponse(self, key, conn, head)

    def release(self, key: tuple[str, int], conn: _Conn, reusable: bool) -> None:
        idle = self._idle.setdefault(key, [])
        if reusable and self.keepalive and len(idle) < MAX_IDLE:
            idle.append(conn)
        else:
            conn.close()

    async def aclose(self) -> None:
        for conns in self._idle.values():
            for conn in conns:
                conn.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.writer.wait_closed(), 1.0)
        self._idle.clear()


async def _read_head(reader: asyncio.StreamReader) -> bytes:
    """The response head, skipping 1xx interim answers."""
    while True:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            raise httpx.RemoteProtocolError(
                "Server disconnected without sending a response."
            ) from exc
        except asyncio.LimitOverrunError as exc:
            raise httpx.RemoteProtocolError("response headers over 64 KiB") from exc
        except OSError as exc:
            raise httpx.ReadError(str(exc)) from exc
        if not head.startswith(b"HTTP/1.1 1") or head.startswith(b"HTTP/1.1 101"):
            return head[:-4]
