"""The agent-style shell corpus (tests/sim/corpus/shell_lines.yaml): every line is answered
exactly as the corpus says on its fixture environment, or reported not simulated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from agentbench.sim.core.base import CommandResult
from agentbench.sim.core.spec import SystemSpec
from agentbench.sim.kube.schema.model import Cluster
from agentbench.sim.world import World, WorldSpec

CORPUS = yaml.safe_load((Path(__file__).parent.parent / "corpus" / "shell_lines.yaml").read_text())
LINES: list[dict[str, Any]] = CORPUS["lines"]


def _world() -> World:
    env = CORPUS["environment"]
    return World(
        WorldSpec(
            cluster=Cluster.model_validate(env["cluster"]),
            files=env["files"],
            system=SystemSpec.model_validate(env["system"]),
        )
    )


def _run(line: str) -> CommandResult:
    answer = _world().call("run_command", {"cmd": line})
    assert answer is not None
    return answer.result


def test_the_corpus_is_large_enough_and_every_entry_says_what_it_expects() -> None:
    assert len(LINES) >= 50
    for entry in LINES:
        assert sum(key in entry for key in ("stdout", "same_as", "not_simulated")) == 1, entry


@pytest.mark.parametrize("entry", LINES, ids=[e["line"][:60] for e in LINES])
def test_corpus_line(entry: dict[str, Any]) -> None:
    result = _run(entry["line"])
    if entry.get("not_simulated"):
        assert not result.simulated, result
        return
    assert result.simulated, result
    if "same_as" in entry:
        reference = _run(entry["same_as"])
        assert reference.simulated and reference.stdout, reference
        assert (result.stdout, result.stderr, result.exit_code) == (
            reference.stdout,
            reference.stderr,
            reference.exit_code,
        )
        return
    assert result.stdout == entry["stdout"]
    assert result.exit_code == entry.get("exit", 0), result
    if "stderr" in entry:
        assert result.stderr == entry["stderr"]
