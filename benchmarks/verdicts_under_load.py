"""Verdicts under load: every task's reference, played through the real loop and scorers while
busy Python threads compete for the processor, must score what it scores on an idle machine.

    python benchmarks/verdicts_under_load.py [--threads 8] [TASK_ID ...]

Prints each reference that does not score 1.0 (with the scorer's reason), then how many of how
many did, the number of busy threads and the wall time. A scorer whose time limits are wall time
fails references here that pass on an idle machine ("not scored: the task's pattern …: regular
expression too expensive"); round 19 measured 5 of the 69 at 8 threads before the regex slice
became CPU time, 0 of those 5 after. Slow by design: the busy threads take most of the
interpreter's time (several minutes for the suite at 8 threads on 2 cores).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agentbench.tasks import load_suite  # noqa: E402
from agentbench.tasks.validate import play  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("tasks", nargs="*", help="task ids (default: every hand-written task)")
    parser.add_argument("--threads", type=int, default=8, help="busy threads beside the scorer")
    args = parser.parse_args()
    suite = load_suite(ROOT / "tasks")
    tasks = [t for t in suite.tasks if not args.tasks or t.id in args.tasks]
    stop = threading.Event()

    def busy() -> None:
        while not stop.is_set():
            sum(range(1000))

    threads = [threading.Thread(target=busy, daemon=True) for _ in range(args.threads)]
    for thread in threads:
        thread.start()
    started = time.monotonic()
    failed = 0
    try:
        for task in tasks:
            played = asyncio.run(play(suite, task, task.reference))
            if isinstance(played, str) or played.score != 1.0:
                failed += 1
                why = played if isinstance(played, str) else played.why
                print(f"{task.id}: {why[:300]}")
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    print(
        f"{failed} of {len(tasks)} references below 1.0 with {args.threads} busy threads "
        f"({time.monotonic() - started:.0f} s)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
