"""How close agentbench's TTFT and decode-rate figures are to a known truth.

Runs the reference server in this process (agentbench.refserver.app.RefServer, loopback) with
schedules TTFT {50, 500} ms × decode {20, 100, 400} tok/s × chunks {1; bursts 1,3,2,4} ×
reasoning {off, on}. By schedule.py's contract the truth is exactly ttft_s and rate_tok_s per
stream. Each configuration is measured through agentbench's own path (bench prompts, the
OpenAI-compatible streaming adapter, forced output length) at concurrency 1 and 64, and the
signed relative error of every stream is summarised.

    python benchmarks/fidelity.py [--quick] [--subprocess-server] [--benchy PATH]

Prints a table and a JSON summary line; it is a measurement, not a test.
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
import time
from datetime import UTC, datetime
from typing import Any

from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.bench.measure import ForceOutput, complete_one
from agentbench.bench.prompts import PromptBuilder
from agentbench.bench.scenarios import custom
from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule

TTFTS = (0.05, 0.5)
RATES = (20.0, 100.0, 400.0)
CHUNKS = ((1,), (1, 3, 2, 4))
REASONING = (False, True)
DECODE_WINDOW_S = 0.6  # output length per rate: about this long a decode per stream


def output_tokens(rate: float) -> int:
    return max(16, int(rate * DECODE_WINDOW_S))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def measure(
    base_url: str, levels: list[int], tg: int, runs: int
) -> dict[int, dict[str, list[float]]]:
    """Per-stream ttft_s and decode_tok_s at each concurrency, `runs` repetitions each, after
    one uncounted warm-up repetition at the same concurrency (connections open, as in bench)."""
    backend = OpenAICompatBackend(base_url, "echo")
    builder = PromptBuilder(backend.count_tokens)
    scenario = custom(tg, tg)  # echo: the answer is the prompt, tg tokens long
    force = ForceOutput()
    results: dict[int, dict[str, list[float]]] = {}
    try:
        for concurrency in levels:
            out: dict[str, list[float]] = {
                "ttft_s": [],
                "decode_tok_s": [],
                "output_tokens": [],
                "ttft_after_byte_s": [],
            }
            for index in range(runs + 1):
                prompts = [await builder.build(scenario) for _ in range(concurrency)]
                done = await asyncio.gather(
                    *(complete_one(backend, p, scenario, force) for p in prompts)
                )
                if index == 0:
                    continue
                for completion, _, _ in done:
                    out["ttft_s"].append(completion.ttft_s)
                    # The server sends its role chunk on arrival: the rest is its own TTFT.
                    out["ttft_after_byte_s"].append(completion.ttft_s - completion.ttft_byte_s)
                    out["decode_tok_s"].append(completion.decode_tok_s)
                    out["output_tokens"].append(completion.output_tokens)
            results[concurrency] = out
    finally:
        await backend.aclose()
    return results


def errors(values: list[float], truth: float) -> dict[str, float]:
    rel = [(v - truth) / truth for v in values]
    return {
        "median": statistics.median(rel),
        "p95_abs": pct([abs(r) for r in rel], 95),
        "max_abs": max(abs(r) for r in rel),
        "n": len(rel),
    }


class SubprocessServer:
    """The reference server in a child process (loopback), to keep its work off our GIL."""

    def __init__(self, port: int = 18911) -> None:
        self.port = port
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, schedule: Schedule) -> str:
        self.stop()
        chunks = ",".join(str(c) for c in schedule.chunks)
        cmd = [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "refserver",
            "--port",
            str(self.port),
            "--tasks",
            "tasks",
            "--ttft",
            str(schedule.ttft_s),
            "--rate",
            str(schedule.rate_tok_s),
            "--chunks",
            chunks,
            "--reasoning",
            str(schedule.reasoning_tokens),
        ]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import httpx

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/version", timeout=0.5)
                return f"http://127.0.0.1:{self.port}/v1"
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("reference server subprocess did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None


def schedules(quick: bool) -> list[Schedule]:
    out = []
    for ttft in TTFTS:
        for rate in RATES:
            for chunks in CHUNKS:
                for reasoning in REASONING:
                    tg = output_tokens(rate)
                    out.append(
                        Schedule(
                            ttft_s=ttft,
                            rate_tok_s=rate,
                            chunks=chunks,
                            reasoning_tokens=tg // 2 if reasoning else 0,
                        )
                    )
    if quick:
        out = [s for s in out if s.ttft_s == TTFTS[0] and s.reasoning_tokens == 0]
    return out


def run_benchy(benchy: str, base_url: str) -> dict[str, Any]:
    """llama-benchy (separate venv) against the same server; see benchmarks/README.md."""
    cmd = [
        benchy,
        "--base-url",
        base_url,
        "--model",
        "echo",
        "--pp",
        "64",
        "--tg",
        "64",
        "--runs",
        "3",
    ]
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return {
        "cmd": " ".join(cmd),
        "rc": proc.returncode,
        "wall_s": time.perf_counter() - started,
        "stdout_tail": proc.stdout[-2000:],
        "stderr_tail": proc.stderr[-2000:],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="TTFT 50 ms, no reasoning only.")
    parser.add_argument("--runs", type=int, default=2, help="Repetitions per concurrency.")
    parser.add_argument("--concurrency", default="1,64")
    parser.add_argument(
        "--subprocess-server",
        action="store_true",
        help="Serve from a child process instead of a thread of this one.",
    )
    parser.add_argument("--benchy", help="Path to a llama-benchy executable (separate venv).")
    args = parser.parse_args()
    levels = [int(c) for c in args.concurrency.split(",")]
    started = time.perf_counter()
    rows = []
    state = RefServerState(tasks=[])
    child = SubprocessServer() if args.subprocess_server else None
    server = None if child else RefServer(state).start()
    try:
        for schedule in schedules(args.quick):
            if child:
                base_url = child.start(schedule)
            else:
                assert server is not None
                state.schedule = schedule
                base_url = server.base_url
            tg = output_tokens(schedule.rate_tok_s)
            measured = asyncio.run(measure(base_url, levels, tg, args.runs))
            for concurrency, got in measured.items():
                rows.append(
                    {
                        "ttft_truth_s": schedule.ttft_s,
                        "rate_truth_tok_s": schedule.rate_tok_s,
                        "chunks": ",".join(map(str, schedule.chunks)),
                        "reasoning": schedule.reasoning_tokens,
                        "concurrency": concurrency,
                        "output_tokens": statistics.median(got["output_tokens"]),
                        "ttft": errors(got["ttft_s"], schedule.ttft_s),
                        "ttft_after_byte": errors(got["ttft_after_byte_s"], schedule.ttft_s),
                        "decode": errors(got["decode_tok_s"], schedule.rate_tok_s),
                    }
                )
                r = rows[-1]
                print(
                    f"ttft {schedule.ttft_s * 1000:4.0f} ms  rate {schedule.rate_tok_s:5.0f}  "
                    f"chunks {r['chunks']:8s} reasoning {r['reasoning']:4d}  c={concurrency:<3d} "
                    f"out {r['output_tokens']:5.0f}  TTFT err median {r['ttft']['median']:+7.2%}"
                    f" p95|.| {r['ttft']['p95_abs']:6.2%} "
                    f"(after 1st byte {r['ttft_after_byte']['median']:+6.2%})"
                    f"   decode err median "
                    f"{r['decode']['median']:+7.2%} p95|.| {r['decode']['p95_abs']:6.2%}",
                    flush=True,
                )
        benchy = run_benchy(args.benchy, base_url) if args.benchy else None
    finally:
        if child:
            child.stop()
        if server:
            server.stop()
    by_c = {}
    for c in levels:
        sel = [r for r in rows if r["concurrency"] == c]
        by_c[c] = {
            "ttft_median_abs_err": statistics.median(abs(r["ttft"]["median"]) for r in sel),
            "ttft_worst_p95_abs_err": max(r["ttft"]["p95_abs"] for r in sel),
            "ttft_after_byte_median_abs_err": statistics.median(
                abs(r["ttft_after_byte"]["median"]) for r in sel
            ),
            "decode_median_abs_err": statistics.median(abs(r["decode"]["median"]) for r in sel),
            "decode_worst_p95_abs_err": max(r["decode"]["p95_abs"] for r in sel),
        }
        print(
            f"concurrency {c}: over {len(sel)} schedules, TTFT |median err| median "
            f"{by_c[c]['ttft_median_abs_err']:.2%} (worst stream p95 "
            f"{by_c[c]['ttft_worst_p95_abs_err']:.2%}; after the first byte "
            f"{by_c[c]['ttft_after_byte_median_abs_err']:.2%}); decode |median err| median "
            f"{by_c[c]['decode_median_abs_err']:.2%} (worst stream p95 "
            f"{by_c[c]['decode_worst_p95_abs_err']:.2%})"
        )
    summary = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()} {os.cpu_count()} CPUs, {platform.python_version()}",
        "server": "subprocess" if child else "in-process thread",
        "wall_s": round(time.perf_counter() - started, 1),
        "summary": by_c,
    }
    if benchy:
        summary["llama_benchy"] = benchy
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
