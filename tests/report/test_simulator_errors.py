"""`agentbench report` shows what the simulator could not answer: the terminal summary names
the count and the constructs, `--json` carries them per episode and in the run's summary."""

from __future__ import annotations

import json
from pathlib import Path

from agentbench.metrics.summary import summarize
from agentbench.records import EpisodeResult, RunRecord
from agentbench.store import ResultStore

from .runs import cli


def _episode(errors: list[str]) -> EpisodeResult:
    return EpisodeResult(
        run_id="r-sim",
        task_id="t1",
        category="ops-diagnosis",
        difficulty="easy",
        step_kind="execute",
        repeat=0,
        status="ok",
        score=1.0,
        simulator_errors=errors,
    )


def test_report_shows_simulator_errors_in_terminal_and_json(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    episode = _episode(["not simulated: awk user-defined functions", "not simulated: docker exec"])
    run = RunRecord(run_id="r-sim", created_at="2026-12-01T10:00:00+00:00", status="completed")
    run.summary = summarize([episode]).model_dump()
    with ResultStore(db) as store:
        store.save_run(run)
        store.add_episode(episode)
    out = tmp_path / "report.json"
    result = cli("report", "r-sim", "--db", str(db), "--json", str(out))
    assert result.exit_code == 0, result.output
    assert "Simulator: 2 tool calls it could not answer" in result.output
    assert "not simulated: awk user-defined functions ×1" in result.output
    contract = json.loads(out.read_text())
    assert contract["summary"]["simulator_errors"] == 2
    assert contract["summary"]["simulator_errors_by_kind"]["not simulated: docker exec"] == 1
    assert contract["episodes"][0]["simulator_errors"] == episode.simulator_errors
