"""What agentbench itself costs: client CPU per model call, and the whole suite's wall time.

1. Client-side time per model call not spent waiting: the reference server runs in a child
   process with an instant schedule (TTFT 0, 1e6 tok/s), so this process's CPU time
   (`time.process_time`) is the client's own work: building the request, parsing every SSE
   line, timing, usage. Reported per call and per SSE event, beside the wall time per call.
2. `agentbench run tasks/ --base-url <refserver> --model oracle` end to end against the same
   instant server: wall time of the whole suite, and per episode and per step.

3. With `--benchy-home DIR` (benchmarks/benchy_setup.sh): llama-benchy's and `agentbench
   bench`'s client CPU per request against the same instant server, side by side: each one's
   child-process CPU for 200 requests minus for 10, over the 190 extra requests (start-up,
   imports and tokenizer load cancel out), median of three pairs.
4. With `--profile`: where agentbench's client CPU goes, by package (cProfile, so inflated).

    python benchmarks/overhead.py [--calls N] [--benchy-home DIR] [--profile]
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
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import httpx

from agentbench.backends.base import ChatRequest
from agentbench.backends.openai_compat import OpenAICompatBackend

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


PORT = free_port()


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


async def profile_groups(calls: int = 300) -> dict[str, float]:
    """Share of the client's profiled time per package, for 16-token calls."""
    import collections
    import cProfile
    import pstats

    backend = OpenAICompatBackend(f"http://127.0.0.1:{PORT}/v1", "echo")
    words = " ".join(f"word{i}" for i in range(16))
    request = ChatRequest(messages=[{"role": "user", "content": words}], max_tokens=16)
    profiler = cProfile.Profile()
    try:
        for _ in range(5):
            await backend.complete(request)
        profiler.enable()
        for _ in range(calls):
            await backend.complete(request)
        profiler.disable()
    finally:
        await backend.aclose()
    groups: collections.Counter[str] = collections.Counter()
    waits = ("'poll'", "'send'", "'recv'", "'sendall'")
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    for (file, _, name), (_, _, own, _, _) in stats.items():
        if file == "~" and any(w in name for w in waits):
            groups["socket syscalls and waiting"] += own
            continue
        for package in ("httpx", "httpcore", "h11", "anyio", "asyncio", "json", "pydantic"):
            if f"/{package}/" in file:
                groups[package] += own
                break
        else:
            groups["agentbench" if "agentbench" in file else "other"] += own
    total = sum(groups.values()) or 1.0
    return {k: round(v / total, 3) for k, v in groups.most_common()}


def child_cpu_per_request(
    command: Callable[[int, str], list[str]], env: dict[str, str], low: int = 10, high: int = 200
) -> float | None:
    """A client's CPU seconds per request: its child-process CPU at `high` requests minus at
    `low`, over the difference (start-up, imports and tokenizer load cancel out only over many
    requests), median of three such pairs. `command(n, tmp)` makes n requests."""
    import resource

    def cpu_of(n: int) -> float | None:
        with tempfile.TemporaryDirectory() as tmp:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = subprocess.run(
                command(n, tmp), capture_output=True, text=True, timeout=300, env=env, cwd=tmp
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            print(f"{command(n, '.')[0]} failed: {proc.stderr[-400:]}", file=sys.stderr)
            return None
        return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)

    per_request = []
    for _ in range(3):
        few, many = cpu_of(low), cpu_of(high)
        if few is None or many is None:
            return None
        per_request.append((many - few) / (high - low))
    return statistics.median(per_request)


def benchy_command(home: str) -> Callable[[int, str], list[str]]:
    """llama-benchy, 16 prompt + 16 output tokens, n runs (benchmarks/benchy_setup.sh)."""

    def command(n: int, tmp: str) -> list[str]:
        return [
            str(Path(home) / "venv/bin/llama-benchy"), "--base-url",
            f"http://127.0.0.1:{PORT}/v1", "--model", "echo", "--tokenizer",
            str(Path(home) / "tokenizer.json"), "--book-url",
            "http://offline.invalid/agentbench-corpus", "--pp", "16", "--tg", "16", "--runs",
            str(n), "--skip-coherence", "--latency-mode", "none", "--no-cache",
        ]  # fmt: skip

    return command


def bench_command(n: int, tmp: str) -> list[str]:
    """`agentbench bench`, the same shape: n measured repetitions after one warm-up."""
    return [
        sys.executable, "-m", "agentbench.cli.main", "bench", "--base-url",
        f"http://127.0.0.1:{PORT}/v1", "--model", "echo", "--skip-gate", "--pp", "16", "--tg",
        "16", "--runs", str(n), "--quiet", "--db", str(Path(tmp) / "b.db"),
    ]  # fmt: skip


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
    parser.add_argument("--benchy-home", help="Folder made by benchmarks/benchy_setup.sh.")
    parser.add_argument("--profile", action="store_true", help="Client CPU by package.")
    parser.add_argument("--no-suite", action="store_true", help="Skip the whole-suite timing.")
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
        benchy = bench = None
        if args.benchy_home:  # the two CLIs side by side, same server, same shape
            env = {**os.environ, "HOME": args.benchy_home, "HF_HUB_OFFLINE": "1"}
            benchy = child_cpu_per_request(benchy_command(args.benchy_home), env)
            bench = child_cpu_per_request(bench_command, {**os.environ, "PYTHONPATH": str(ROOT)})
        for name, cpu in (("llama-benchy", benchy), ("agentbench bench", bench)):
            if cpu is not None:
                print(
                    f"{name}, same server, 16+16 tokens: client CPU {cpu * 1000:.2f} "
                    "ms/request (200 − 10 requests, median of 3 pairs)",
                    flush=True,
                )
        groups = asyncio.run(profile_groups()) if args.profile else None
        if groups:
            print(
                "client profile by package (share of profiled time): "
                + ", ".join(f"{k} {v:.0%}" for k, v in groups.items()),
                flush=True,
            )
        suites = [] if args.no_suite else [suite_wall(c) for c in (1, 8)]
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
                "benchy_cpu_ms_per_request": None if benchy is None else benchy * 1000,
                "bench_cli_cpu_ms_per_request": None if bench is None else bench * 1000,
                "profile_share_by_package": groups,
                "suite": suites,
            }
        )
    )


if __name__ == "__main__":
    main()
