"""What agentbench itself costs: client CPU per model call, and the whole suite's wall time.

1. Client-side time per model call not spent waiting: the reference server runs in a child
   process with an instant schedule (TTFT 0, 1e6 tok/s), so this process's CPU time
   (`time.process_time`) is the client's own work: building the request, parsing every SSE
   line, timing, usage. Reported per call and per SSE event, beside the wall time per call.
2. `agentbench run tasks/ --base-url <refserver> --model oracle` end to end against the same
   instant server: wall time of the whole suite, and per episode and per step.

    python benchmarks/overhead.py [--calls N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx

from agentbench.backends.base import ChatRequest
from agentbench.backends.openai_compat import OpenAICompatBackend

ROOT = Path(__file__).resolve().parent.parent
PORT = 18912


def start_server(chunks: str = "1") -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        "agentbench.cli.main",
        "refserver",
        "--port",
        str(PORT),
        "--tasks",
        str(ROOT / "tasks"),
        "--ttft",
        "0",
        "--rate",
        "1000000",
        "--chunks",
        chunks,
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{PORT}/version", timeout=0.5)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.terminate()
    raise RuntimeError("reference server did not start")


async def per_call(calls: int, output_tokens: int) -> dict[str, float]:
    backend = OpenAICompatBackend(f"http://127.0.0.1:{PORT}/v1", "echo")
    words = " ".join(f"word{i}" for i in range(output_tokens))
    request = ChatRequest(messages=[{"role": "user", "content": words}], max_tokens=output_tokens)
    try:
        for _ in range(5):  # warm-up: connection, imports, caches
            await backend.complete(request)
        walls, events = [], 0
        cpu0 = time.process_time()
        for _ in range(calls):
            t0 = time.perf_counter()
            completion = await backend.complete(request)
            walls.append(time.perf_counter() - t0)
            events += completion.token_events
        cpu = time.process_time() - cpu0
    finally:
        await backend.aclose()
    return {
        "calls": calls,
        "output_tokens_per_call": output_tokens,
        "token_events_per_call": events / calls,
        "client_cpu_ms_per_call": 1000 * cpu / calls,
        "client_cpu_us_per_event": 1e6 * cpu / events if events else float("nan"),
        "wall_ms_per_call_median": 1000 * statistics.median(walls),
    }


def suite_wall(concurrency: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        cmd = [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "run",
            str(ROOT / "tasks"),
            "--base-url",
            f"http://127.0.0.1:{PORT}/v1",
            "--model",
            "oracle",
            "--db",
            str(Path(tmp) / "o.db"),
            "--json",
            str(out),
            "--quiet",
            "--concurrency",
            str(concurrency),
        ]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp, timeout=170)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"agentbench run failed: {proc.stderr[-1000:]}")
        data = json.loads(out.read_text())
    episodes = data["episodes"]
    steps = sum(len(e["steps"]) for e in episodes)
    return {
        "concurrency": concurrency,
        "episodes": len(episodes),
        "steps": steps,
        "success_rate": data["summary"]["success_rate"],
        "wall_s": wall,
        "ms_per_episode": 1000 * wall / len(episodes),
        "ms_per_step": 1000 * wall / steps if steps else float("nan"),
        "command": "agentbench run tasks/ --base-url <refserver> --model oracle --quiet "
        f"--concurrency {concurrency}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    started = time.perf_counter()
    proc = start_server()
    try:
        calls = [asyncio.run(per_call(args.calls, n)) for n in (16, 256)]
        for c in calls:
            print(
                f"per call ({c['output_tokens_per_call']} output tokens, "
                f"{c['token_events_per_call']:.0f} SSE token events): client CPU "
                f"{c['client_cpu_ms_per_call']:.2f} ms/call = "
                f"{c['client_cpu_us_per_event']:.0f} µs/event; wall median "
                f"{c['wall_ms_per_call_median']:.2f} ms/call (n={c['calls']})",
                flush=True,
            )
        suites = [suite_wall(c) for c in (1, 8)]
        for s in suites:
            print(
                f"suite: {s['episodes']} episodes, {s['steps']} steps, concurrency "
                f"{s['concurrency']}: wall {s['wall_s']:.1f} s = {s['ms_per_episode']:.0f} "
                f"ms/episode, {s['ms_per_step']:.1f} ms/step (success "
                f"{s['success_rate']:.0%}; process start and imports included)",
                flush=True,
            )
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(
        json.dumps(
            {
                "date": datetime.now(UTC).isoformat(timespec="seconds"),
                "machine": f"{platform.machine()} {os.cpu_count()} CPUs, Python "
                f"{platform.python_version()}",
                "load_average_1m_at_end": round(os.getloadavg()[0], 2),
                "wall_s": round(time.perf_counter() - started, 1),
                "per_call": calls,
                "suite": suites,
            }
        )
    )


if __name__ == "__main__":
    main()
