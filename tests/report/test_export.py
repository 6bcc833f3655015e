"""CSV exports at run, episode and step level, through `agentbench report --csv-level`."""

from __future__ import annotations

import csv

import pytest

from agentbench.metrics.summary import summarize
from agentbench.report.export import EPISODE_COLUMNS, RUN_COLUMNS, STEP_COLUMNS, write_csv

from .runs import cli, load


def rows(path):  # type: ignore[no-untyped-def]
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize("level", ["run", "episode", "step"])
def test_report_csv_levels(stored_runs, tmp_path, level) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / f"{level}.csv"
    result = cli("report", stored_runs.noisy, "--db", str(stored_runs.db), "--csv", str(out),
                 "--csv-level", level)
    assert result.exit_code == 0, result.output
    run, episodes = load(stored_runs.db, stored_runs.noisy)
    got = rows(out)
    columns = {"run": RUN_COLUMNS, "episode": EPISODE_COLUMNS, "step": STEP_COLUMNS}[level]
    assert list(got[0]) == columns
    assert {r["run_id"] for r in got} == {run.run_id}
    if level == "run":
        summary = summarize(episodes)
        assert len(got) == 1
        assert float(got[0]["success_rate"]) == pytest.approx(summary.success_rate)
        assert float(got[0]["success_rate_ci_low"]) == pytest.approx(summary.success_rate_ci[0])
        assert got[0]["server_kind"] == "refserver" and got[0]["cost_usd"] == ""  # unpriced
    elif level == "episode":
        assert len(got) == len(episodes)
        assert [int(r["steps"]) for r in got] == [len(e.steps) for e in episodes]
        assert {r["status"] for r in got} == {e.status for e in episodes}
    else:
        steps = [s for e in episodes for s in e.steps]
        assert len(got) == len(steps)
        assert [int(r["reasoning_tokens"]) for r in got] == [s.reasoning_tokens for s in steps]
        assert all(r["router_policy"] for r in got)
        called = [r for r in got if int(r["tool_calls"])]
        assert called and all(r["tool_call_names"] for r in called)


def test_default_level_is_episode_and_bad_level_is_a_usage_error(stored_runs, tmp_path
                                                                 ) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "e.csv"
    assert cli("report", "latest", "--db", str(stored_runs.db), "--csv", str(out)).exit_code == 0
    assert list(rows(out)[0]) == EPISODE_COLUMNS
    bad = cli("report", "latest", "--db", str(stored_runs.db), "--csv", str(tmp_path / "x.csv"),
              "--csv-level", "task")
    assert bad.exit_code == 2 and not (tmp_path / "x.csv").exists()
    run, episodes = load(stored_runs.db, stored_runs.noisy)
    with pytest.raises(ValueError, match="run, episode, step"):
        write_csv(tmp_path / "y.csv", run, episodes, level="task")
