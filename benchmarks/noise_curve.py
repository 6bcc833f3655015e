"""Suite mean score against the reference server's `noisy` policy at rising noise.

The noisy policy replaces a seeded share of reference steps with a planted mistake; a suite that
separates good agents from bad must score lower as noise rises. Prints one row per noise level.

    python benchmarks/noise_curve.py [--tasks tasks] [--levels 0,0.2,0.5,1.0] [--seeds 0,1,2]
        [--suite default|full] [--task-seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.metrics.summary import summarize
from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule
from agentbench.runner import RunConfig, Runner
from agentbench.store import ResultStore
from agentbench.tasks.families import load_tier
from router import LOCAL, build_policy


async def one_run(suite, base_url: str, model: str, store: ResultStore) -> list:
    backend = OpenAICompatBackend(base_url, model)
    config = RunConfig(target=model, model=model, base_url=base_url, concurrency=8)
    runner = Runner(suite, {LOCAL: backend}, build_policy("always-local"), config, store)
    run = runner.start(await backend.server_info())
    await runner.execute(run)
    await backend.aclose()
    return store.episodes(run.run_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="tasks")
    parser.add_argument("--levels", default="0,0.2,0.5,1.0")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--suite", default="default", choices=["default", "full"])
    parser.add_argument("--task-seed", type=int, default=1, help="family seed (--suite full)")
    args = parser.parse_args()
    suite = load_tier(args.tasks, args.suite, args.task_seed)
    levels = [float(x) for x in args.levels.split(",")]
    seeds = [int(x) for x in args.seeds.split(",")]
    print(f"suite: {len(suite.tasks)} tasks ({args.suite} tier, {len(suite.generated)} generated); "
          "reference server, instant schedule; "
          f"seeds {seeds} (noise draws differ per seed)")
    print(f"{'noise':>6} {'mean score':>11} {'success':>8} {'per seed (mean score)':>30}")
    for level in levels:
        per_seed = []
        success = []
        for seed in seeds:
            state = RefServerState(suite.tasks, Schedule(ttft_s=0.0, rate_tok_s=1e6), seed=seed)
            with RefServer(state) as server, ResultStore(":memory:") as store:
                episodes = asyncio.run(one_run(suite, server.base_url, f"noisy-{level}", store))
            s = summarize(episodes)
            per_seed.append(s.mean_score or 0.0)
            success.append(s.success_rate or 0.0)
        print(f"{level:>6.2f} {statistics.mean(per_seed):>11.3f} {statistics.mean(success):>8.1%} "
              f"{', '.join(f'{v:.3f}' for v in per_seed):>30}")


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.1f} s)")
