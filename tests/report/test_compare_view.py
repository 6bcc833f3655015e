"""`agentbench compare`: terminal, JSON and HTML views of real runs."""

from __future__ import annotations

import json

from agentbench.metrics.compare import Comparison

from .runs import cli


def test_compare_cli_on_real_runs(stored_runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    page, data = tmp_path / "c.html", tmp_path / "c.json"
    result = cli("compare", stored_runs.oracle, stored_runs.noisy, "--db", str(stored_runs.db),
                 "--html", str(page), "--json", str(data))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "resolved" in out and "unresolved at this sample size" in out
    assert "thinking tokens per step" in out and "not compared" in out  # unpriced cost
    comp = Comparison.model_validate_json(data.read_text())
    pair = comp.pairs[0]
    assert (pair.run_a, pair.run_b) == (stored_runs.oracle, stored_runs.noisy)
    success = next(m for m in pair.metrics if m.metric == "success_rate")
    assert success.verdict == "resolved" and success.better == "a"
    text = page.read_text(encoding="utf-8")
    for marker in ('id="runs"', 'id="plot-pareto"', 'id="metrics-1"', 'id="pair-tasks-1"',
                   'id="plot-ratios-1"', 'class="resolved"', 'class="unresolved"'):
        assert marker in text, marker
    assert text.count("<svg") == 2
    assert all(t.task_id in text for t in pair.tasks)
    assert json.loads(data.read_text())["pareto_axis"] == "output_tokens_per_episode"


def test_compare_usage_errors(stored_runs) -> None:  # type: ignore[no-untyped-def]
    db = str(stored_runs.db)
    one = cli("compare", stored_runs.oracle, "--db", db)
    assert one.exit_code == 2
    twice = cli("compare", stored_runs.oracle, stored_runs.oracle, "--db", db)
    assert twice.exit_code == 1 and "named twice" in str(twice.exception or twice.output)
    missing = cli("compare", stored_runs.oracle, "nope", "--db", db)
    assert missing.exit_code == 1
