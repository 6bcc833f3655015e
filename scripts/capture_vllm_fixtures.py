"""Capture real payloads from a running vLLM OpenAI-compatible server (e.g. the one
started by scripts/serve_vllm_cpu.sh) into test fixtures, and measure a few speeds.

Standard library only, so it runs with any Python 3.11:

    python3 scripts/capture_vllm_fixtures.py --base-url http://127.0.0.1:18000 \
        --model nemotron-3.5-lightning --out tests/fixtures/vllm

Writes (raw bodies exactly as received):
    models.json, version.json, tokenize.json
    metrics_before.txt            /metrics before the streamed chat request
    chat_stream.sse               streamed chat completion with include_usage
    metrics_after.txt             /metrics right after it
    tool_stream.sse               streamed chat completion with tools, tool_choice=required
    tool_call.json                the same request, not streamed
    capture_summary.json          what was sent and measured (timings, tokens, counters)

The measurement request (a 128-token reply with ignore_eos) runs last and is not saved
as a fixture. Run it against a fresh server so metrics_before.txt has no traffic yet.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import urllib.parse
from http.client import HTTPConnection
from pathlib import Path

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "run_command",
            "description": "Run a shell command on the operator's machine and return its output.",
            "parameters": {
                "type": "object",
                "properties": {"cmd": {"type": "string", "description": "the command line"}},
                "required": ["cmd"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a text file and return its contents.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
    },
]
TOOL_MESSAGES = [
    {"role": "system", "content": "You are an SRE agent. Use the tools to inspect the cluster."},
    {"role": "user", "content": "List the pods in the namespace web."},
]
SPEC_COUNTERS = (
    "vllm:spec_decode_num_drafts_total",
    "vllm:spec_decode_num_draft_tokens_total",
    "vllm:spec_decode_num_accepted_tokens_total",
)


class Client:
    def __init__(self, base_url: str, timeout: float) -> None:
        url = urllib.parse.urlsplit(base_url)
        if url.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit(f"refusing a non-loopback host: {url.hostname}")
        self.host, self.port, self.timeout = url.hostname, url.port or 80, timeout

    def _conn(self) -> HTTPConnection:
        return HTTPConnection(self.host, self.port, timeout=self.timeout)

    def get(self, path: str) -> bytes:
        conn = self._conn()
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            body = resp.read()
            if resp.status != 200:
                raise RuntimeError(f"GET {path}: HTTP {resp.status}: {body[:500]!r}")
            return body
        finally:
            conn.close()

    def post(self, path: str, payload: dict) -> bytes:
        conn = self._conn()
        try:
            conn.request("POST", path, json.dumps(payload), {"Content-Type": "application/json"})
            resp = conn.getresponse()
            body = resp.read()
            if resp.status != 200:
                raise RuntimeError(f"POST {path}: HTTP {resp.status}: {body[:500]!r}")
            return body
        finally:
            conn.close()

    def stream(
        self, path: str, payload: dict
    ) -> tuple[bytes, list[tuple[float, dict | str]], float]:
        """POST and read an SSE body line by line; returns raw bytes, (t, event) per data
        line (t in seconds after the request was sent) and the total time."""
        conn = self._conn()
        try:
            t0 = time.perf_counter()
            conn.request("POST", path, json.dumps(payload), {"Content-Type": "application/json"})
            resp = conn.getresponse()
            if resp.status != 200:
                raise RuntimeError(f"POST {path}: HTTP {resp.status}: {resp.read()[:500]!r}")
            raw, events = bytearray(), []
            while True:
                line = resp.readline()
                if not line:
                    break
                raw += line
                if line.startswith(b"data:"):
                    data = line[5:].strip().decode()
                    events.append(
                        (time.perf_counter() - t0, data if data == "[DONE]" else json.loads(data))
                    )
            return bytes(raw), events, time.perf_counter() - t0
        finally:
            conn.close()


def counters(metrics: bytes) -> dict[str, float]:
    out = {}
    for name in SPEC_COUNTERS:
        total = 0.0
        for m in re.finditer(
            rf"^{re.escape(name)}(?:{{[^}}]*}})? ([0-9.eE+-]+)$", metrics.decode(), re.M
        ):
            total += float(m.group(1))
        out[name] = total
    return out


def stream_stats(events: list[tuple[float, dict | str]], total_s: float) -> dict:
    content_times = []
    usage = None
    text = []
    for t, ev in events:
        if ev == "[DONE]":
            continue
        if ev.get("usage"):
            usage = ev["usage"]
        for choice in ev.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content") or delta.get("tool_calls"):
                content_times.append(t)
                text.append(delta.get("content") or "")
    stats: dict = {
        "data_events": len(events),
        "content_chunks": len(content_times),
        "total_s": round(total_s, 3),
    }
    if content_times:
        stats["ttft_s"] = round(content_times[0], 3)
    if usage:
        stats["usage"] = usage
        n = usage.get("completion_tokens") or 0
        if len(content_times) >= 2 and n > 1:
            span = content_times[-1] - content_times[0]
            stats["decode_tok_per_s"] = round((n - 1) / span, 2) if span > 0 else None
        stats["end_to_end_tok_per_s"] = round(n / total_s, 2) if total_s else None
    stats["text"] = "".join(text)
    return stats


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--base-url", default="http://127.0.0.1:18000")
    ap.add_argument("--model", default="nemotron-3.5-lightning")
    ap.add_argument("--out", type=Path, default=Path("tests/fixtures/vllm"))
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--measure-runs", type=int, default=2, help="128-token measurement requests")
    args = ap.parse_args()
    c = Client(args.base_url, args.timeout)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    summary: dict = {
        "base_url": args.base_url,
        "model": args.model,
        "captured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }

    def save(name: str, body: bytes) -> None:
        (out / name).write_bytes(body)
        print(f"wrote {out / name} ({len(body)} bytes)", flush=True)

    before = c.get("/metrics")
    save("metrics_before.txt", before)
    save("models.json", c.get("/v1/models"))
    save("version.json", c.get("/version"))
    save("tokenize.json", c.post("/tokenize", {"model": args.model, "prompt": "hello world"}))

    chat_req = {
        "model": args.model,
        # Asking for a repetition gives the ngram drafter something to accept, so the
        # metrics delta shows accepted draft tokens and some chunks carry several tokens.
        "messages": [
            {
                "role": "user",
                "content": "Repeat this line three times, word for word: "
                "kubectl rollout restart deployment/web -n web",
            }
        ],
        "max_tokens": 128,
        "temperature": 0,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    raw, events, total = c.stream("/v1/chat/completions", chat_req)
    save("chat_stream.sse", raw)
    summary["chat_stream"] = {"request": chat_req, **stream_stats(events, total)}
    after = c.get("/metrics")
    save("metrics_after.txt", after)
    summary["spec_decode_before"] = counters(before)
    summary["spec_decode_after_chat"] = counters(after)

    tool_req = {
        "model": args.model,
        "messages": TOOL_MESSAGES,
        "tools": TOOLS,
        "tool_choice": "required",
        "max_tokens": 128,
        "temperature": 0,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    raw, events, total = c.stream("/v1/chat/completions", tool_req)
    save("tool_stream.sse", raw)
    summary["tool_stream"] = {"request": tool_req, **stream_stats(events, total)}

    plain_tool_req = {k: v for k, v in tool_req.items() if k not in ("stream", "stream_options")}
    body = c.post("/v1/chat/completions", plain_tool_req)
    save("tool_call.json", body)
    summary["tool_call"] = json.loads(body)["choices"][0]

    auto_req = dict(plain_tool_req, tool_choice="auto")
    summary["tool_auto"] = json.loads(c.post("/v1/chat/completions", auto_req))["choices"][0]

    measure_req = dict(
        chat_req,
        max_tokens=128,
        ignore_eos=True,
        messages=[
            {"role": "user", "content": "Write a short story about a robot who learns to garden."}
        ],
    )
    runs = []
    for _ in range(args.measure_runs):
        _, events, total = c.stream("/v1/chat/completions", measure_req)
        stats = stream_stats(events, total)
        stats.pop("text")
        runs.append(stats)
        print("measure:", json.dumps(stats), flush=True)
    summary["measure_128"] = {"request": measure_req, "runs": runs}
    summary["spec_decode_end"] = counters(c.get("/metrics"))

    save("capture_summary.json", (json.dumps(summary, indent=2) + "\n").encode())
    print(
        json.dumps(
            {
                k: summary[k]
                for k in ("spec_decode_before", "spec_decode_after_chat", "spec_decode_end")
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
