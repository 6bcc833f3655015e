"""Soak: hundreds of episodes against the reference server with ~10% injected faults of every
kind. Checks that nothing crashes, every fault is retried or classified, and every episode that
met no model-side fault scores exactly what it scores in a fault-free run.

    python benchmarks/soak.py [--runs 8] [--rate 0.1] [--concurrency 16]

Each run is one pass over the suite on a fresh server with its own fault seed, so every injected
fault maps to exactly one episode (task id within the run).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter

from agentbench.backends.base import RetryPolicy
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.faults import MODEL_SIDE, TRANSPORT, FaultPlan
from agentbench.refserver.schedule import Schedule
from agentbench.runner import RunConfig, Runner
from agentbench.store import ResultStore
from agentbench.tasks.loader import load_suite
from router import LOCAL, build_policy

FAST = Schedule(ttft_s=0.002, rate_tok_s=20000.0, chunks=(1, 3, 2))
RETRY = RetryPolicy(max_retries=3, backoff_s=0.01, request_timeout_s=0.5)


async def run_suite(suite, state: RefServerState, concurrency: int):
    with RefServer(state) as server, ResultStore(":memory:") as store:
        backend = OpenAICompatBackend(server.base_url, "oracle", retry=RETRY)
        config = RunConfig(target="soak", model="oracle", base_url=server.base_url,
                           concurrency=concurrency, max_tokens=2048)
        runner = Runner(suite, {LOCAL: backend}, build_policy("always-local"), config, store)
        run = runner.start(await backend.server_info())
        await runner.execute(run)
        await backend.aclose()
        return store.episodes(run.run_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="tasks")
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    suite = load_suite(args.tasks)
    started = time.perf_counter()
    baseline = asyncio.run(run_suite(suite, RefServerState(suite.tasks, FAST), args.concurrency))
    truth = {e.task_id: e.score for e in baseline}
    injected: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    retried = exhausted = clean = clean_same = episodes = 0
    mismatches = []
    for seed in range(args.runs):
        plan = FaultPlan(rate=args.rate, seed=1000 + seed, stall_s=1.0)
        state = RefServerState(suite.tasks, FAST, faults=plan)
        result = asyncio.run(run_suite(suite, state, args.concurrency))
        episodes += len(result)
        injected.update(kind for _, _, kind in plan.log)
        model_faulted = {task for _, task, kind in plan.log if kind in MODEL_SIDE}
        for e in result:
            statuses[e.status] += 1
            retried += sum(len(s.retry_errors) for s in e.steps)
            exhausted += e.status.startswith("backend_error")
            if e.task_id not in model_faulted and not e.status.startswith("backend_error"):
                clean += 1
                if e.score == truth[e.task_id]:
                    clean_same += 1
                else:
                    mismatches.append((seed, e.task_id, e.score, truth[e.task_id]))
    transport = sum(n for k, n in injected.items() if k in TRANSPORT)
    print(f"episodes: {episodes} in {args.runs} runs of {len(suite.tasks)} tasks "
          f"(+{len(baseline)} fault-free), {time.perf_counter() - started:.0f} s")
    print(f"faults injected: {sum(injected.values())} "
          f"({sum(injected.values()) / max(1, sum(1 for _ in range(episodes))):.2f} per episode)")
    for kind in (*TRANSPORT, *MODEL_SIDE):
        print(f"  {kind:<14} {injected.get(kind, 0)}")
    print(f"transport faults: {transport}; retries recorded on steps: {retried}; episodes "
          f"ending in backend_error:* (retries ran out, or a non-retryable error): {exhausted}")
    print(f"statuses: {dict(statuses)}")
    print(f"crashes: 0 (every episode has a status; the script would have raised otherwise)")
    print(f"clean episodes (no model-side fault, not a backend error): {clean}; "
          f"same score as the fault-free run: {clean_same}")
    for m in mismatches[:10]:
        print(f"  MISMATCH run {m[0]} task {m[1]}: {m[2]} vs {m[3]}")


if __name__ == "__main__":
    main()
