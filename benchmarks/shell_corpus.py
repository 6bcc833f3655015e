"""Score the shell simulator on its corpus of agent-style lines (tests/sim/corpus/shell_lines.yaml).

    python benchmarks/shell_corpus.py [CORPUS]

Each line is run on the corpus's fixture environment and counted as answered as the corpus
says (exact stdout and exit code, identical to its `same_as` line, or reported not simulated),
answered wrongly while claiming to be simulated (a hang past 5 s counts here), or off-script
where an answer was expected. Run it with an older checkout on PYTHONPATH to compare.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import yaml

from agentbench.sim.core.base import CommandResult
from agentbench.sim.core.spec import SystemSpec
from agentbench.sim.kube.schema.model import Cluster
from agentbench.sim.world import World, WorldSpec

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "sim" / "corpus" / "shell_lines.yaml"


class _Hang(BaseException):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hang


def run(env: dict[str, Any], line: str) -> CommandResult | None:
    """The line's result on a fresh fixture world; None when it hangs or raises."""
    signal.alarm(5)
    try:
        world = World(
            WorldSpec(
                cluster=Cluster.model_validate(env["cluster"]),
                files=env["files"],
                system=SystemSpec.model_validate(env["system"]),
            )
        )
        answer = world.call("run_command", {"cmd": line})
        return answer.result if answer is not None else None
    except (_Hang, Exception):
        return None
    finally:
        signal.alarm(0)


def outcome(env: dict[str, Any], entry: dict[str, Any]) -> str:
    result = run(env, entry["line"])
    if result is None:
        return "wrong"
    if entry.get("not_simulated"):
        return "expected" if not result.simulated else "wrong"
    if not result.simulated:
        return "off-script"
    if "same_as" in entry:
        ref = run(env, entry["same_as"])
        same = ref is not None and (ref.stdout, ref.stderr, ref.exit_code) == (
            result.stdout,
            result.stderr,
            result.exit_code,
        )
        return "expected" if same else "wrong"
    good = result.stdout == entry["stdout"] and result.exit_code == entry.get("exit", 0)
    return "expected" if good else "wrong"


def main(path: Path) -> int:
    signal.signal(signal.SIGALRM, _alarm)
    corpus = yaml.safe_load(path.read_text())
    counts = {"expected": 0, "wrong": 0, "off-script": 0}
    for entry in corpus["lines"]:
        kind = outcome(corpus["environment"], entry)
        counts[kind] += 1
        if kind != "expected":
            print(f"{kind}: {entry['line']!r}")
    total = len(corpus["lines"])
    share = 100 * counts["expected"] / total
    print(
        f"{total} lines: {counts['expected']} as expected ({share:.0f}%), "
        f"{counts['wrong']} answered wrongly, {counts['off-script']} off-script"
    )
    return 0 if counts["expected"] == total else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT))
