"""agentbench, llama-benchy, AIPerf and GuideLLM against one truth server, side by side.

For each schedule and tool a fresh benchmarks/truth_server.py (a child process that logs when
it read each request and when each event left, on the machine's monotonic clock) serves the
tool's warm-up and measured requests (benchmarks/peers.py). Per measured request:
TTFT error = the tool's TTFT − the server's (first event − request read), and decode error =
the tool's per-request decode rate / the server's ((tokens − 1) / (last − first event)) − 1.
Each pass runs every tool on every schedule (the order of tools rotates by pass); the table
gives, per tool and schedule, the median over passes of the median |TTFT error| over requests,
with the 1-minute load average of each pass.

    python benchmarks/fidelity.py --peers [--tools agentbench,llama-benchy,aiperf,guidellm]
        [--schedule NAME=TTFT_MS:RATE:CHUNKS ...] [--passes 3] [--keep-alive] [--cache DIR]

Schedules default to A=50:100:1, B=120:40:1,3,2,4, C=20:250:1 (TTFT ms : tok/s : tokens per
event, cycled); the server closes every connection unless --keep-alive. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from peers import RUNNERS, PeerUnavailable, Shape  # type: ignore[import-not-found]

SERVER = Path(__file__).resolve().parent / "truth_server.py"
SCHEDULES = {"A": "50:100:1", "B": "120:40:1,3,2,4", "C": "20:250:1"}


def serve(spec: str, log: Path, close: bool) -> tuple[subprocess.Popen[str], str]:
    ttft_ms, rate, chunks = spec.split(":")
    cmd = [sys.executable, str(SERVER), "--log", str(log), "--ttft-ms", ttft_ms, "--rate", rate,
           "--chunks", chunks, *(["--close"] if close else [])]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, f"http://127.0.0.1:{int(proc.stdout.readline())}"


def truths(log: Path, n: int) -> list[tuple[float, float]]:
    """(ttft_s, decode_tok_s) of the last n streamed requests, as the server timed them."""
    rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()][-n:]
    return [
        (r["events"][0] - r["arrived"],
         (r["tokens"] - 1) / (r["events"][-1] - r["events"][0]))
        for r in rows
    ]  # fmt: skip


def one(tool: str, spec: str, shape: Shape, cache: Path, close: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "truth.jsonl"
        proc, url = serve(spec, log, close)
        try:
            measured = RUNNERS[tool](url, shape, cache)[-shape.requests :]
        finally:
            proc.terminate()
            proc.wait(10)
        truth = truths(log, len(measured))
    ttft = [abs(m[0] - t[0]) * 1000 for m, t in zip(measured, truth, strict=True)]
    decode = [abs(m[1] / t[1] - 1) for m, t in zip(measured, truth, strict=True) if m[1]]
    return {
        "ttft_err_ms": statistics.median(ttft),
        "decode_err": statistics.median(decode) if decode else None,
        "requests": len(measured),
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peers", action="store_true")
    parser.add_argument("--tools", default=",".join(RUNNERS))
    parser.add_argument("--schedule", action="append", help="NAME=TTFT_MS:RATE:CHUNKS")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--keep-alive", action="store_true", help="The server keeps connections.")
    parser.add_argument("--cache", default="/tmp/agentbench-peers", help="Peer venvs live here.")
    parser.add_argument("--requests", type=int, default=5)
    args = parser.parse_args(argv)
    schedules = dict(s.split("=", 1) for s in args.schedule) if args.schedule else SCHEDULES
    tools = args.tools.split(",")
    shape, cache = Shape(requests=args.requests), Path(args.cache)
    results: dict[str, dict[str, list[dict[str, Any]]]] = {
        t: {s: [] for s in schedules} for t in tools
    }
    missing: dict[str, str] = {}
    loads = []
    for p in range(args.passes):
        order = tools[p % len(tools) :] + tools[: p % len(tools)]
        for name, spec in schedules.items():
            for tool in order:
                if tool in missing:
                    continue
                try:
                    results[tool][name].append(one(tool, spec, shape, cache, not args.keep_alive))
                except PeerUnavailable as exc:
                    missing[tool] = str(exc)
                    print(f"{tool}: not run: {exc}", file=sys.stderr, flush=True)
        loads.append(round(os.getloadavg()[0], 2))
        print(f"pass {p + 1}/{args.passes} done, load average (1 min) {loads[-1]}", flush=True)
    table: dict[str, dict[str, Any]] = {}
    for tool in tools:
        if tool in missing:
            continue
        table[tool] = {}
        for name in schedules:
            runs = results[tool][name]
            decode = [r["decode_err"] for r in runs if r["decode_err"] is not None]
            table[tool][name] = {
                "ttft_err_ms": statistics.median(r["ttft_err_ms"] for r in runs),
                "ttft_err_ms_passes": [round(r["ttft_err_ms"], 3) for r in runs],
                "decode_err": statistics.median(decode) if decode else None,
            }
    connection = "kept alive" if args.keep_alive else "closed after every request"
    print(f"\nmedian |TTFT error| (ms), {shape.warmup} warm-up + {shape.requests} measured "
          "requests, "
          f"{shape.prompt_tokens} prompt / {shape.output_tokens} output tokens, concurrency 1, "
          f"server connections {connection}, median of {args.passes} passes "
          f"(load {loads}):")  # fmt: skip
    print("| tool | " + " | ".join(f"{n} ({s})" for n, s in schedules.items()) + " | decode err |")
    print("|---|" + "---:|" * (len(schedules) + 1))
    ranked = sorted(
        table, key=lambda t: statistics.median(v["ttft_err_ms"] for v in table[t].values())
    )
    for tool in ranked:
        cells = [f"{table[tool][n]['ttft_err_ms']:.2f}" for n in schedules]
        worst = max((v["decode_err"] or 0.0) for v in table[tool].values())
        print(f"| {tool} | " + " | ".join(cells) + f" | ≤ {worst:.3%} |")
    for tool, why in missing.items():
        print(f"| {tool} | not run: {why[:150]} |")
    print(json.dumps({"schedules": schedules, "connection": connection, "load_average_1m": loads,
                      "table": table, "not_run": missing}))  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
