"""How close agentbench's TTFT and decode-rate figures are to a known truth.

Runs the reference server in this process (agentbench.refserver.app.RefServer, loopback) with
schedules TTFT {50, 500} ms × decode {20, 100, 400} tok/s × chunks {1; bursts 1,3,2,4} ×
reasoning {off, on}. By schedule.py's contract the truth is exactly ttft_s and rate_tok_s per
stream. Each configuration is measured through agentbench's own path (bench prompts, the
OpenAI-compatible streaming adapter, forced output length) at concurrency 1 and 64, and the
signed relative error of every stream is summarised.

    python benchmarks/fidelity.py [--quick] [--subprocess-server] [--benchy-home DIR]
    python benchmarks/fidelity.py --peers [...]    (benchmarks/side_by_side.py: agentbench,
        llama-benchy, AIPerf and GuideLLM on one truth server, installed on demand)

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
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.bench.arrivals import RateMode
from agentbench.bench.measure import ForceOutput, LoopLag, complete_one, measure_run
from agentbench.bench.prompts import PromptBuilder
from agentbench.bench.scenarios import custom
from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule

TTFTS = (0.05, 0.5)
RATES = (20.0, 100.0, 400.0)
CHUNKS = ((1,), (1, 3, 2, 4))
REASONING = (False, True)
DECODE_WINDOW_S = 0.3  # output length per rate: about this long a decode per stream


def output_tokens(rate: float) -> int:
    return max(12, int(rate * DECODE_WINDOW_S))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def measure(
    base_url: str, levels: list[int], tg: int, runs: int
) -> dict[int, dict[str, list[float]]]:
    """Per-stream ttft_s and decode_tok_s at each concurrency, after one short uncounted warm-up
    repetition at the same concurrency (connections open, as in bench): `runs` repetitions at
    concurrency 1, half as many (at least one) above."""
    backend = OpenAICompatBackend(base_url, "echo")
    builder = PromptBuilder(backend.count_tokens)
    scenario = custom(tg, tg)  # echo: the answer is the prompt, tg tokens long
    warmup = custom(16, 4)  # opens the connections, not counted
    force = ForceOutput()
    results: dict[int, dict[str, list[float]]] = {}
    try:
        for concurrency in levels:
            out: dict[str, list[float]] = {
                "ttft_s": [],
                "decode_tok_s": [],
                "output_tokens": [],
                "ttft_after_byte_s": [],
                "client_lag_max_s": [],
                "tpot_s": [],
                "vllm_tpot_s": [],
                "itl_p50_s": [],
                "itl_p90_s": [],
                "vllm_itl_p50_s": [],
                "vllm_itl_p90_s": [],
                "decode_none": [],
            }
            # Concurrency 64 gives 64 streams per repetition: fewer repetitions are needed.
            repetitions = runs if concurrency == 1 else max(1, runs // 2)
            for index in range(repetitions + 1):
                shape = warmup if index == 0 else scenario
                prompts = [await builder.build(shape) for _ in range(concurrency)]
                async with LoopLag() as lag:
                    done = await asyncio.gather(
                        *(complete_one(backend, p, shape, force) for p in prompts)
                    )
                if index == 0:
                    continue
                out["client_lag_max_s"].append(lag.max_s or 0.0)
                for completion, _, _ in done:
                    out["ttft_s"].append(completion.ttft_s)
                    # The server sends its role chunk on arrival: the rest is its own TTFT.
                    out["ttft_after_byte_s"].append(completion.ttft_s - completion.ttft_byte_s)
                    out["output_tokens"].append(completion.output_tokens)
                    out["decode_none"].append(float(completion.decode_tok_s is None))
                    if completion.decode_tok_s is None:  # a burst: no figure, reason recorded
                        continue
                    out["decode_tok_s"].append(completion.decode_tok_s)
                    out["tpot_s"].append(completion.tpot_s)
                    # vLLM bench serve's method on the same stream: TPOT = (latency − ttft) /
                    # (output_len − 1); ITL = the gap between chunks, whatever they carry.
                    n = completion.output_tokens or 0
                    out["vllm_tpot_s"].append(
                        (completion.duration_s - completion.ttft_s) / (n - 1) if n > 1 else 0.0
                    )
                    itl, chunk = completion.itl_s or [], completion.chunk_gaps_s or []
                    out["itl_p50_s"].append(pct(itl, 50))
                    out["itl_p90_s"].append(pct(itl, 90))
                    out["vllm_itl_p50_s"].append(pct(chunk, 50))
                    out["vllm_itl_p90_s"].append(pct(chunk, 90))
            results[concurrency] = out
    finally:
        await backend.aclose()
    return results


async def measure_arrivals(base_url: str, rate: float, requests: int, seed: int) -> list[float]:
    """|actual − scheduled| send offset (s) of every request of one Poisson repetition."""
    backend = OpenAICompatBackend(base_url, "echo")
    builder = PromptBuilder(backend.count_tokens)
    shape, force = custom(16, 4), ForceOutput()
    try:
        warm = [await builder.build(shape) for _ in range(2)]
        await measure_run(backend, warm, shape, force)
        prompts = [await builder.build(shape) for _ in range(requests)]
        mode = RateMode(rate_req_s=rate, requests=requests, seed=seed)
        run = await measure_run(backend, prompts, shape, force, mode.offsets_s(1))
    finally:
        await backend.aclose()
    return [
        abs(s.send_s - s.scheduled_send_s)
        for s in run.streams
        if s.send_s is not None and s.scheduled_send_s is not None
    ]


def arrival_fidelity(rate: float = 20.0, requests: int = 60) -> dict[str, float]:
    """Request-rate mode against its own schedule: how late each request left."""
    state = RefServerState(tasks=[], schedule=Schedule(ttft_s=0.05, rate_tok_s=100.0))
    server = RefServer(state).start()
    try:
        misses = asyncio.run(measure_arrivals(server.base_url, rate, requests, seed=1))
    finally:
        server.stop()
    out = {
        "rate_req_s": rate,
        "requests": len(misses),
        "send_error_median_ms": statistics.median(misses) * 1000,
        "send_error_p99_ms": pct(misses, 99) * 1000,
        "send_error_max_ms": max(misses) * 1000,
    }
    print(
        f"request-rate mode (Poisson {rate:g} req/s, {len(misses)} requests): |actual − "
        f"scheduled send| median {out['send_error_median_ms']:.2f} ms, p99 "
        f"{out['send_error_p99_ms']:.2f} ms, max {out['send_error_max_ms']:.2f} ms"
    )
    return out


def errors(values: list[float], truth: float) -> dict[str, float]:
    if not values:
        return {"median": float("nan"), "p95_abs": float("nan"), "max_abs": float("nan"), "n": 0}
    rel = [(v - truth) / truth for v in values]
    return {
        "median": statistics.median(rel),
        "p95_abs": pct([abs(r) for r in rel], 95),
        "max_abs": max(abs(r) for r in rel),
        "n": len(rel),
    }


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class SubprocessServer:
    """The reference server in a child process (loopback), to keep its work off our GIL."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, schedule: Schedule) -> str:
        import httpx

        self.stop()
        port = free_port()
        chunks = ",".join(str(c) for c in schedule.chunks)
        cmd = [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "refserver",
            "--port",
            str(port),
            "--tasks",
            str(Path(__file__).resolve().parent.parent / "tasks"),
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
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                httpx.get(f"http://127.0.0.1:{port}/version", timeout=0.5)
                return f"http://127.0.0.1:{port}/v1"
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
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


BENCHY_BOOK = "http://offline.invalid/agentbench-corpus"  # served from the seeded cache


def run_benchy(home: str, base_url: str, tg: int, runs: int) -> dict[str, list[float]] | None:
    """llama-benchy from its own venv (see benchmarks/benchy_setup.sh) on the same server.

    Offline: its book comes from the cache file benchy_setup.sh seeded under HOME, its tokenizer
    is a local tokenizer.json that splits like the reference server. Returns per-run
    tg_throughput (tok/s), e2e_ttft (s) and ttfr (s, first response byte), or None on failure.
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "benchy.json"
        cmd = [
            str(Path(home) / "venv/bin/llama-benchy"),
            "--base-url",
            base_url,
            "--model",
            "echo",
            "--tokenizer",
            str(Path(home) / "tokenizer.json"),
            "--book-url",
            BENCHY_BOOK,
            "--pp",
            str(tg),
            "--tg",
            str(tg),
            "--runs",
            str(runs),
            "--exact-tg",
            "--skip-coherence",
            "--latency-mode",
            "none",
            "--no-cache",
            "--format",
            "json",
            "--save-result",
            str(out),
        ]
        env = {**os.environ, "HOME": home, "HF_HUB_OFFLINE": "1"}
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
        if proc.returncode != 0 or not out.exists():
            print(
                f"llama-benchy failed (rc {proc.returncode}): {proc.stdout[-500:]}"
                f"{proc.stderr[-500:]}",
                file=sys.stderr,
            )
            return None
        bench = json.loads(out.read_text())["benchmarks"][0]
    return {
        "decode_tok_s": bench["tg_throughput"]["values"],
        "ttft_s": [v / 1000 for v in bench["e2e_ttft"]["values"]],
        "ttfr_s": list(bench["ttfr"]["values"]),
    }


def row_line(r: dict[str, Any]) -> str:
    lag = r.get("client_lag_max_s")
    return (
        f"ttft {r['ttft_truth_s'] * 1000:4.0f} ms  rate {r['rate_truth_tok_s']:5.0f}  "
        f"chunks {r['chunks']:8s} reasoning {r['reasoning']:3d}  {r['tool']:11s} "
        f"c={r['concurrency']:<3d} TTFT err median {r['ttft']['median']:+7.2%} "
        f"p95|.| {r['ttft']['p95_abs']:6.2%}   decode err median "
        f"{r['decode']['median']:+7.2%} p95|.| {r['decode']['p95_abs']:6.2%}"
        + (f"   client loop lag max {lag * 1000:4.0f} ms" if lag is not None else "")
        + (
            f"\n      TPOT err median {r['tpot']['median']:+7.2%} (vLLM method "
            f"{r['vllm_tpot']['median']:+7.2%})   ITL p50 err {r['itl_p50']['median']:+7.2%} "
            f"p90 {r['itl_p90']['median']:+7.2%} (vLLM chunk ITL p50 "
            f"{r['vllm_itl_p50']['median']:+7.2%} p90 {r['vllm_itl_p90']['median']:+7.2%})"
            f"   no-decode share {r['decode_none_share']:.0%}"
            if "tpot" in r
            else ""
        )
    )


def summarize(rows: list[dict[str, Any]], tool: str, concurrency: int) -> dict[str, Any] | None:
    sel = [r for r in rows if r["concurrency"] == concurrency and r["tool"] == tool]
    if not sel:
        return None
    out = {
        "schedules": len(sel),
        "ttft_median_abs_err": statistics.median(abs(r["ttft"]["median"]) for r in sel),
        "ttft_worst_p95_abs_err": max(r["ttft"]["p95_abs"] for r in sel),
        "decode_median_abs_err": statistics.median(abs(r["decode"]["median"]) for r in sel),
        "decode_worst_p95_abs_err": max(r["decode"]["p95_abs"] for r in sel),
        "ttft_median_abs_err_ms": statistics.median(
            abs(r["ttft"]["median"]) * r["ttft_truth_s"] * 1000 for r in sel
        ),
    }
    for key in ("tpot", "vllm_tpot", "itl_p50", "vllm_itl_p50", "itl_p90", "vllm_itl_p90"):
        for label, chunked in (("1", False), ("bursts", True)):
            part = [r for r in sel if key in r and (r["chunks"] != "1") == chunked]
            if part:
                out[f"{key}_median_abs_err_chunks_{label}"] = statistics.median(
                    abs(r[key]["median"]) for r in part
                )
    if any("decode_none_share" in r for r in sel):
        out["decode_none_share_max"] = max(r.get("decode_none_share", 0.0) for r in sel)
    after = [abs(r["ttft_after_byte"]["median"]) for r in sel if "ttft_after_byte" in r]
    if after:
        out["ttft_after_first_byte_median_abs_err"] = statistics.median(after)
    return out


def main() -> None:
    if "--peers" in sys.argv:  # agentbench, llama-benchy, AIPerf, GuideLLM on one truth server
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from side_by_side import main as side_by_side

        side_by_side(sys.argv[1:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="TTFT 50 ms, no reasoning only.")
    parser.add_argument("--runs", type=int, default=3, help="Repetitions at concurrency 1.")
    parser.add_argument("--concurrency", default="1,64")
    parser.add_argument(
        "--subprocess-server",
        action="store_true",
        help="Serve from a child process instead of a thread of this one.",
    )
    parser.add_argument(
        "--benchy-home",
        help="Folder made by benchmarks/benchy_setup.sh: "
        "adds llama-benchy side by side (concurrency 1, reasoning off).",
    )
    parser.add_argument("--no-arrivals", action="store_true", help="Skip request-rate timing.")
    args = parser.parse_args()
    levels = [int(c) for c in args.concurrency.split(",")]
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
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
            base = {
                "ttft_truth_s": schedule.ttft_s,
                "rate_truth_tok_s": schedule.rate_tok_s,
                "chunks": ",".join(map(str, schedule.chunks)),
                "reasoning": schedule.reasoning_tokens,
            }
            measured = asyncio.run(measure(base_url, levels, tg, args.runs))
            for concurrency, got in measured.items():
                rows.append(
                    {
                        **base,
                        "tool": "agentbench",
                        "concurrency": concurrency,
                        "output_tokens": statistics.median(got["output_tokens"]),
                        "ttft": errors(got["ttft_s"], schedule.ttft_s),
                        "ttft_after_byte": errors(got["ttft_after_byte_s"], schedule.ttft_s),
                        "decode": errors(got["decode_tok_s"], schedule.rate_tok_s),
                        "decode_none_share": statistics.mean(got["decode_none"]),
                        "tpot": errors(got["tpot_s"], 1 / schedule.rate_tok_s),
                        "vllm_tpot": errors(got["vllm_tpot_s"], 1 / schedule.rate_tok_s),
                        "itl_p50": errors(got["itl_p50_s"], 1 / schedule.rate_tok_s),
                        "itl_p90": errors(got["itl_p90_s"], 1 / schedule.rate_tok_s),
                        "vllm_itl_p50": errors(got["vllm_itl_p50_s"], 1 / schedule.rate_tok_s),
                        "vllm_itl_p90": errors(got["vllm_itl_p90_s"], 1 / schedule.rate_tok_s),
                        "client_lag_max_s": max(got["client_lag_max_s"]),
                    }
                )
                print(row_line(rows[-1]), flush=True)
            if args.benchy_home and schedule.reasoning_tokens == 0:
                got = run_benchy(args.benchy_home, base_url, tg, max(args.runs, 2))
                if got:
                    rows.append(
                        {
                            **base,
                            "tool": "llama-benchy",
                            "concurrency": 1,
                            "ttft": errors(got["ttft_s"], schedule.ttft_s),
                            "decode": errors(got["decode_tok_s"], schedule.rate_tok_s),
                            "ttfr_s_median": statistics.median(got["ttfr_s"]),
                        }
                    )
                    print(row_line(rows[-1]), flush=True)
    finally:
        if child:
            child.stop()
        if server:
            server.stop()
    arrivals = None if args.no_arrivals else arrival_fidelity()
    summary: dict[str, Any] = {"arrivals": arrivals} if arrivals else {}
    for tool in ("agentbench", "llama-benchy"):
        for c in levels:
            figures = summarize(rows, tool, c)
            if figures:
                summary[f"{tool} c={c}"] = figures
                print(
                    f"{tool} concurrency {c}: over {figures['schedules']} schedules, TTFT "
                    f"|median err| median {figures['ttft_median_abs_err']:.2%} (worst "
                    f"stream p95 {figures['ttft_worst_p95_abs_err']:.2%}); decode |median "
                    f"err| median {figures['decode_median_abs_err']:.2%} (worst stream p95 "
                    f"{figures['decode_worst_p95_abs_err']:.2%})"
                    + (
                        f"; TTFT after the first byte "
                        f"{figures['ttft_after_first_byte_median_abs_err']:.2%}"
                        if "ttft_after_first_byte_median_abs_err" in figures
                        else ""
                    )
                )
    print(
        json.dumps(
            {
                "date": datetime.now(UTC).isoformat(timespec="seconds"),
                "machine": f"{platform.machine()} {os.cpu_count()} CPUs, Python "
                f"{platform.python_version()}",
                "server": "subprocess" if child else "in-process thread",
                "load_average_1m_at_end": round(os.getloadavg()[0], 2),
                "wall_s": round(time.perf_counter() - started, 1),
                "summary": summary,
                "rows": rows,
            }
        )
    )


if __name__ == "__main__":
    main()
