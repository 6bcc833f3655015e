"""How long the scorer takes on hostile final answers: payloads built to sit just under the
answer check's bounds (characters, clauses, figures: agentbench/scoring/answer.py) and just
over them, each scored through the real loop on one suite task.

    python benchmarks/hostile_answers.py [--task ID] [--runs N]

Prints, per payload, its size, the median wall seconds of N scorings and the answer check's
verdict. A payload over a bound must be refused unread (a few milliseconds); one under every
bound is read in full, and its time is what a model can make the scorer spend per episode.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agentbench.scoring.answer import (  # noqa: E402
    MAX_ANSWER_CHARS,
    MAX_ANSWER_CLAUSES,
    MAX_ANSWER_FIGURES,
)
from agentbench.tasks.families.tier import load_tier  # noqa: E402
from agentbench.tasks.model import Step  # noqa: E402
from agentbench.tasks.validate import play  # noqa: E402


def _fill(unit: str, chars: int) -> str:
    return (unit * (chars // len(unit) + 1))[:chars]


def payloads() -> dict[str, str]:
    """Name -> answer text. `*-under` stays inside every bound; `*-over` passes one."""
    words = ["pod", "the", "OOMKilled", "is", "not", "restarted", "64Mi", "at", "12:00", "web"]
    rnd = random.Random(1)
    under = MAX_ANSWER_CHARS - 10
    prose = " ".join(rnd.choice(words[:6]) for _ in range(under // 5))[:under]
    # one figure every so often, the rest words: as many figures as the bound allows
    figures = " ".join(
        f"{i}Mi" if i % 7 == 0 else rnd.choice(words[:6])
        for i in range(7 * (MAX_ANSWER_FIGURES - 5))
    )[:under]
    clauses = "; ".join(
        f"nginx-7c5ddbdf54-x8k2p {rnd.choice(words[:6])}" for _ in range(MAX_ANSWER_CLAUSES - 5)
    )
    return {
        "letters-under": _fill("a", under),
        "prose-under": prose,
        "figures-under": figures,
        "clauses-under": clauses[:under],
        "colons-under": _fill("a: ", min(under, 3 * (MAX_ANSWER_CLAUSES - 5))),
        "brackets-under": _fill("[", under),
        "dotted-under": _fill("1.", under),
        "chars-over": _fill("a", MAX_ANSWER_CHARS + 1),
        "clauses-over": _fill("a: ", 3 * (MAX_ANSWER_CLAUSES + 5)),
        "figures-over": _fill("1 ", 2 * (MAX_ANSWER_FIGURES + 5)),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", default="ops-crashloop-oomkilled")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    suite = load_tier(ROOT / "tasks", "default")
    task = next(t for t in suite.tasks if t.id == args.task)
    print(f"task {task.id}; bounds: {MAX_ANSWER_CHARS:,} characters, {MAX_ANSWER_CLAUSES} "
          f"clauses, {MAX_ANSWER_FIGURES} figures; median of {args.runs} scorings (wall s)")
    for name, text in payloads().items():
        times, verdict = [], ""
        for _ in range(args.runs):
            started = time.perf_counter()
            played = asyncio.run(play(suite, task, [Step(answer=text)]))
            times.append(time.perf_counter() - started)
            why = played if isinstance(played, str) else played.why
            verdict = next((p for p in why.split(" | ") if "answer:" in p), "answer accepted")
        median = statistics.median(times)
        print(f"{name:<16} {len(text):>7,} chars  {median:7.2f} s  {verdict[:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
