"""A scripted OpenAI-compatible stream that writes down its own true timings.

Raw asyncio HTTP/1.1 (no framework, nothing from agentbench): POST /v1/chat/completions
answers max_completion_tokens (or max_tokens) tokens, the first `--ttft-ms` after the request
was read, the rest at `--rate` tokens/s in events of `--chunks` tokens (cycled); GET /v1/models
lists `echo`; GET /health and /version answer 200; anything else is 404. Per streamed request
one JSON line goes to `--log`: when the request had been read (`arrived`), when each event was
written (`events`) and the `nonce` of agentbench's prompts (it pairs requests at any
concurrency), on time.perf_counter — CLOCK_MONOTONIC, shared by every process of the machine —
so a client's TTFT can be compared with the server's own (first event − arrived). `--close`
closes every connection after its answer (each request then opens a new one), as many servers
behind a proxy do; by default connections are kept alive.

    python benchmarks/truth_server.py --log FILE [--ttft-ms 50] [--rate 100] [--chunks 1]
        [--close]              (prints the port it listens on, then serves until killed)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from typing import Any

WORD = " the"  # one token for every tokenizer the peers load here
PIECES = re.compile(r"\s*\w+|\s*[^\w\s]|\s+")
NONCE = re.compile(r"\[request [0-9a-f]+\]")  # agentbench bench's per-request nonce


def sse(obj: dict[str, Any]) -> bytes:
    data = ("data: " + json.dumps(obj, separators=(",", ":")) + "\n\n").encode()
    return b"%x\r\n" % len(data) + data + b"\r\n"


def plain(status: str, body: dict[str, Any], close: bool) -> bytes:
    data = json.dumps(body).encode()
    extra = b"connection: close\r\n" if close else b""
    return (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n".encode()
        + extra
        + b"content-length: %d\r\n\r\n" % len(data)
        + data
    )


class Truth:
    def __init__(self, args: argparse.Namespace) -> None:
        self.ttft_s = args.ttft_ms / 1000
        self.rate = args.rate
        self.chunks = [int(c) for c in args.chunks.split(",")]
        self.close = args.close
        self.log = open(args.log, "a", buffering=1)  # noqa: SIM115 - lives as long as the process

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while await self.answer(reader, writer) and not self.close:
                pass
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        length = next(
            (int(v.split(":", 1)[1]) for v in lines if v.lower().startswith("content-length:")), 0
        )
        raw = await reader.readexactly(length) if length else b""
        arrived = time.perf_counter()
        method, path = [*lines[0].split(" "), "", ""][:2]
        if method == "GET" and path.rstrip("/").endswith("/models"):
            models = {"object": "list", "data": [{"id": "echo", "object": "model"}]}
            writer.write(plain("200 OK", models, self.close))
        elif method == "GET" and path.rstrip("/") in ("/health", "/version"):
            writer.write(plain("200 OK", {"status": "ok"}, self.close))
        elif method == "POST" and path.endswith("/chat/completions"):
            await self.chat(json.loads(raw or b"{}"), arrived, writer)
        else:
            writer.write(plain("404 Not Found", {"error": "no such route"}, self.close))
        await writer.drain()
        return True

    async def chat(
        self, body: dict[str, Any], arrived: float, writer: asyncio.StreamWriter
    ) -> None:
        n = int(body.get("max_completion_tokens") or body.get("max_tokens") or 16)
        prompt = " ".join(str(m.get("content", "")) for m in body.get("messages", []))
        usage = {"prompt_tokens": len(PIECES.findall(prompt)), "completion_tokens": n}
        usage["total_tokens"] = usage["prompt_tokens"] + n
        meta = {"id": "truth", "object": "chat.completion.chunk", "created": 0, "model": "echo"}
        if not body.get("stream"):
            message = {"role": "assistant", "content": WORD * n}
            choice = {"index": 0, "message": message, "finish_reason": "length"}
            answer = {**meta, "object": "chat.completion", "choices": [choice], "usage": usage}
            writer.write(plain("200 OK", answer, self.close))
            return
        close = b"connection: close\r\n" if self.close else b""
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n"
            b"transfer-encoding: chunked\r\n" + close + b"\r\n"
        )
        events: list[float] = []
        sent, index, first = 0, 0, arrived + self.ttft_s
        while sent < n:
            k = min(self.chunks[index % len(self.chunks)], n - sent)
            due = first + sent / self.rate if sent else first
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            delta: dict[str, Any] = {"content": WORD * k}
            if not sent:
                delta["role"] = "assistant"
            choice = {"index": 0, "delta": delta, "finish_reason": None}
            data = sse({**meta, "choices": [choice]})
            events.append(time.perf_counter())
            writer.write(data)
            await writer.drain()
            sent, index = sent + k, index + 1
        end = {**meta, "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}
        tail = sse(end) + sse({**meta, "choices": [], "usage": usage})
        writer.write(tail + b"%x\r\ndata: [DONE]\n\n\r\n" % 14 + b"0\r\n\r\n")
        nonce = NONCE.search(prompt)
        record = {"arrived": arrived, "events": events, "tokens": n, "schedule_s": self.ttft_s}
        record["nonce"] = nonce.group(0) if nonce else None
        self.log.write(json.dumps(record) + "\n")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", required=True)
    parser.add_argument("--ttft-ms", type=float, default=50.0)
    parser.add_argument("--rate", type=float, default=100.0, help="Tokens/s after the first.")
    parser.add_argument("--chunks", default="1", help="Tokens per event, cycled: 1 or 1,3,2,4.")
    parser.add_argument("--close", action="store_true", help="Close every connection.")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    truth = Truth(args)
    server = await asyncio.start_server(truth.handle, "127.0.0.1", args.port)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
