"""The client's own share of TTFT, agentbench and llama-benchy side by side.

A minimal HTTP/1.1 server in a child process (raw asyncio streams, no framework) answers each
chat request with its first token exactly D after the request's last byte arrived, and records
when that byte arrived and when the token left (both on CLOCK_MONOTONIC, shared by every
process here). Whatever a client measures beyond (token left − request arrived) is the client's
own share: building and writing the request, loopback, reading and parsing the first event,
event-loop scheduling. Each client makes N sequential requests after its own warm-up.

    python benchmarks/ttft_share.py [--requests N] [--delay-ms D] [--benchy-home DIR]

Prints medians and a JSON line; a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from agentbench.backends.base import ChatRequest
from agentbench.backends.openai_compat import OpenAICompatBackend

SERVER = r"""
import asyncio, json, sys, time
DELAY = float(sys.argv[1]); LOG = open(sys.argv[2], "w", buffering=1)

def sse(obj): return ("data: " + json.dumps(obj) + "\n\n").encode()
def chunk(data): return b"%x\r\n" % len(data) + data + b"\r\n"

async def handle(reader, writer):
    try:
        await serve(reader, writer)
    except (asyncio.IncompleteReadError, ConnectionError):
        pass  # the client closed its connection
    writer.close()

async def serve(reader, writer):
    while True:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        length = next((int(l.split(":", 1)[1]) for l in lines
                       if l.lower().startswith("content-length:")), 0)
        body = await reader.readexactly(length) if length else b"{}"
        arrived = time.perf_counter()
        if lines[0].startswith("POST") and not json.loads(body).get("stream"):
            answer = json.dumps({"id": "x", "object": "chat.completion", "model": "echo",
                                 "choices": [{"index": 0, "finish_reason": "stop", "message":
                                              {"role": "assistant", "content": " one"}}],
                                 "usage": {"prompt_tokens": 16, "completion_tokens": 1,
                                           "total_tokens": 17}}).encode()
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                         b"content-length: %d\r\n\r\n" % len(answer) + answer)
            await writer.drain()
            continue
        if not lines[0].startswith("POST"):
            body = b'{"data": []}'
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                         b"content-length: %d\r\n\r\n" % len(body) + body)
            await writer.drain()
            continue
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                     b"transfer-encoding: chunked\r\n\r\n")
        due = arrived + DELAY
        if due - time.perf_counter() > 0.002:
            await asyncio.sleep(due - time.perf_counter() - 0.0015)
        while time.perf_counter() < due:
            pass
        meta = {"id": "x", "object": "chat.completion.chunk", "model": "echo"}
        writer.write(chunk(sse({**meta, "choices": [{"index": 0, "delta": {"content": " one"},
                                                      "finish_reason": None}]})))
        sent = time.perf_counter()
        await writer.drain()
        rest = b"".join(chunk(sse({**meta, "choices": [{"index": 0, "delta": {"content": w},
                                                          "finish_reason": None}]}))
                        for w in (" two", " three", " four"))
        rest += chunk(sse({**meta, "choices": [{"index": 0, "delta": {},
                                                 "finish_reason": "stop"}]}))
        rest += chunk(sse({**meta, "choices": [], "usage": {"prompt_tokens": 16,
                          "completion_tokens": 4, "total_tokens": 20}}))
        rest += chunk(b"data: [DONE]\n\n") + b"0\r\n\r\n"
        writer.write(rest)
        await writer.drain()
        LOG.write(f"{arrived} {sent}\n")

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()

asyncio.run(main())
"""


def start(delay_s: float, log: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(delay_s), str(log)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def server_times(log: Path, last: int) -> list[float]:
    """(token left − request arrived) of the last `last` requests, seconds."""
    rows = [line.split() for line in log.read_text().splitlines() if line.strip()]
    return [float(sent) - float(arrived) for arrived, sent in rows[-last:]]


async def agentbench_ttfts(port: int, requests: int) -> list[float]:
    backend = OpenAICompatBackend(f"http://127.0.0.1:{port}/v1", "echo")
    request = ChatRequest(messages=[{"role": "user", "content": "word " * 16}], max_tokens=4)
    try:
        for _ in range(3):
            await backend.complete(request)
        out = []
        for _ in range(requests):
            completion = await backend.complete(request)
            assert completion.ttft_s is not None
            out.append(completion.ttft_s)
        return out
    finally:
        await backend.aclose()


def benchy_ttfts(home: str, port: int, requests: int) -> list[float] | None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "b.json"
        cmd = [
            str(Path(home) / "venv/bin/llama-benchy"), "--base-url", f"http://127.0.0.1:{port}/v1",
            "--model", "echo", "--tokenizer", str(Path(home) / "tokenizer.json"), "--book-url",
            "http://offline.invalid/agentbench-corpus", "--pp", "16", "--tg", "4", "--runs",
            str(requests), "--skip-coherence", "--no-warmup", "--latency-mode", "none",
            "--no-cache", "--format", "json", "--save-result", str(out),
        ]  # fmt: skip
        env = {**os.environ, "HOME": home, "HF_HUB_OFFLINE": "1"}
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        if proc.returncode != 0 or not out.exists():
            print(f"llama-benchy failed: {proc.stdout[-300:]}{proc.stderr[-300:]}", file=sys.stderr)
            return None
        bench = json.loads(out.read_text())["benchmarks"][0]
    return [v / 1000 for v in bench["e2e_ttft"]["values"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--delay-ms", type=float, default=20.0)
    parser.add_argument("--benchy-home")
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        proc, port = start(args.delay_ms / 1000, log)
        try:
            tools = {"agentbench": lambda: asyncio.run(agentbench_ttfts(port, args.requests))}
            if args.benchy_home:
                home = args.benchy_home
                tools["llama-benchy"] = lambda: benchy_ttfts(home, port, args.requests)
            for tool, measure in tools.items():
                ttfts = measure()
                if not ttfts:
                    continue
                server = server_times(log, len(ttfts))
                share = statistics.median(ttfts) - statistics.median(server)
                results[tool] = {
                    "requests": len(ttfts),
                    "ttft_ms_median": statistics.median(ttfts) * 1000,
                    "server_arrival_to_token_ms_median": statistics.median(server) * 1000,
                    "client_share_ms_median": share * 1000,
                }
                print(
                    f"{tool}: TTFT median {results[tool]['ttft_ms_median']:.3f} ms, server "
                    f"arrival→token {results[tool]['server_arrival_to_token_ms_median']:.3f} ms: "
                    f"client share {share * 1000:.3f} ms (n={len(ttfts)})",
                    flush=True,
                )
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(
        json.dumps(
            {
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "load_average_1m": round(os.getloadavg()[0], 2),
                "delay_ms": args.delay_ms,
                "results": results,
            }
        )
    )


if __name__ == "__main__":
    main()
