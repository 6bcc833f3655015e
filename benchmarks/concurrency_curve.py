"""Timing error against concurrency: agentbench bench's own path, one event loop or several.

benchmarks/truth_server.py (a child process, connections kept alive) logs when it read each
request and when each event left; every bench prompt carries a nonce the server logs too, so
each stream pairs with its own truth at any concurrency. Per concurrency C and worker count W
(bench.workers): `--runs` repetitions of C requests at once through measure_run (the bench's
path), then the median and p95 |TTFT error| (client TTFT − server first event − request
read), the median |decode error|, the client's largest event-loop lag, and how late the server
itself sent first tokens against its schedule (its own saturation: past that the server, not
the client, is what this 2-core machine measures).

    python benchmarks/concurrency_curve.py [--levels 1,8,32,128,256] [--workers 1,2]
        [--ttft-ms 300] [--rate 20] [--tokens 16] [--runs 2]

A measurement, not a test; prints a table and a JSON line.
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
from pathlib import Path
from typing import Any

from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.bench.measure import ForceOutput, measure_run
from agentbench.bench.prompts import PromptBuilder
from agentbench.bench.scenarios import custom
from agentbench.bench.workers import WorkerPool

SERVER = Path(__file__).resolve().parent / "truth_server.py"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def level(
    url: str, log: Path, c: int, workers: int, args: argparse.Namespace
) -> dict[str, Any]:
    backend = OpenAICompatBackend(url + "/v1", "echo")
    builder, scenario, force = (
        PromptBuilder(backend.count_tokens),
        custom(16, args.tokens),
        ForceOutput(),
    )
    pool = WorkerPool(backend, workers) if workers > 1 else None
    ttft, decode, lags = [], [], []
    try:
        for index in range(args.runs + 1):  # the first opens the connections: not counted
            prompts = [await builder.build(scenario) for _ in range(c)]
            run = await measure_run(backend, prompts, scenario, force, counters=False, pool=pool)
            if index == 0:
                continue
            lags.append(run.client_loop_lag_max_s or 0.0)
            truth = {r["nonce"]: r for r in map(json.loads, log.read_text().splitlines())}
            for nonce, s in zip(run.nonces, run.streams, strict=True):
                t = truth[nonce]
                ttft.append(abs(s.ttft_s - (t["events"][0] - t["arrived"])) * 1000)
                rate = (t["tokens"] - 1) / (t["events"][-1] - t["events"][0])
                if s.decode_tok_s:
                    decode.append(abs(s.decode_tok_s / rate - 1))
    finally:
        if pool:
            pool.close()
        await backend.aclose()
    rows = [json.loads(line) for line in log.read_text().splitlines()][-c * args.runs :]
    slip = [(r["events"][0] - r["arrived"] - r["schedule_s"]) * 1000 for r in rows]
    return {
        "concurrency": c, "workers": workers, "streams": len(ttft),
        "ttft_err_ms_median": statistics.median(ttft), "ttft_err_ms_p95": pct(ttft, 95),
        "decode_err_median": statistics.median(decode) if decode else None,
        "client_loop_lag_max_ms": max(lags) * 1000,
        "server_slip_ms_median": statistics.median(slip),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1,8,32,128,256")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--ttft-ms", default="300")
    parser.add_argument("--rate", default="20", help="Server tokens/s per stream.")
    parser.add_argument("--tokens", type=int, default=16)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "truth.jsonl"
        cmd = [
            sys.executable,
            str(SERVER),
            "--log",
            str(log),
            "--ttft-ms",
            args.ttft_ms,
            "--rate",
            args.rate,
        ]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        url = f"http://127.0.0.1:{int(proc.stdout.readline())}"
        try:
            for c in (int(v) for v in args.levels.split(",")):
                for w in (int(v) for v in args.workers.split(",")):
                    if w > 1 and c == 1:
                        continue
                    r = asyncio.run(level(url, log, c, w, args))
                    out.append(r)
                    print(f"c={c:<4d} workers={w}: |TTFT err| median "
                          f"{r['ttft_err_ms_median']:7.2f} ms "
                          f"p95 {r['ttft_err_ms_p95']:7.2f} ms, |decode err| median "
                          f"{(r['decode_err_median'] or 0):.2%}, client loop lag max "
                          f"{r['client_loop_lag_max_ms']:6.1f} ms, server first-token slip "
                          f"{r['server_slip_ms_median']:6.2f} ms, load {r['load_average_1m']}",
                          flush=True)  # fmt: skip
        finally:
            proc.terminate()
            proc.wait(10)
    print(
        json.dumps({"ttft_ms": args.ttft_ms, "rate": args.rate, "tokens": args.tokens, "rows": out})
    )


if __name__ == "__main__":
    main()
