"""The off-script figure: tool calls no simulator or rule answered, per run, category and task."""

from __future__ import annotations

from agentbench.metrics.summary import by_category, summarize
from agentbench.records import EpisodeResult, StepRecord, ToolResultRecord


def result(source: str, kind: str = "ok") -> ToolResultRecord:
    return ToolResultRecord(
        name="run_command", output="", ok=True, kind=kind, latency_s=0.0, source=source
    )


def episode(task: str, category: str, sources: list[str]) -> EpisodeResult:
    step = StepRecord(
        model="m",
        requested_model="m",
        index=0,
        t_start_s=0.0,
        tool_results=[result(s) for s in sources],
    )
    return EpisodeResult(
        run_id="r",
        task_id=task,
        category=category,
        difficulty="easy",
        step_kind="execute",
        repeat=0,
        status="ok",
        score=1.0,
        steps=[step],
    )


def test_off_script_share_per_run_category_and_task() -> None:
    episodes = [
        episode("a", "ops", ["sim:kubectl", "fallback", "rule", "sim:cat"]),
        episode("b", "ops", ["sim:journalctl"]),
        episode("c", "data", ["fallback", "sim:sql"]),
    ]
    total = summarize(episodes)
    assert (total.tool_calls, total.off_script_calls) == (7, 2)
    assert total.off_script_share == 2 / 7
    assert total.off_script_by_task == {"a": 0.25, "c": 0.5}
    cats = by_category(episodes)
    assert cats["ops"].off_script_share == 0.2 and cats["data"].off_script_share == 0.5


def test_old_records_count_their_unmatched_calls_and_no_calls_is_none() -> None:
    old = episode("a", "ops", [])
    old.steps[0].tool_results = [result("rule", kind="unmatched"), result("rule")]
    assert summarize([old]).off_script_share == 0.5
    assert summarize([episode("n", "no-tool", [])]).off_script_share is None


def test_reports_render_the_off_script_figure() -> None:
    from rich.console import Console

    from agentbench.records import RunRecord
    from agentbench.report.html import render_html
    from agentbench.report.terminal import print_run

    episodes = [episode("a", "ops", ["sim:kubectl", "fallback"])]
    run = RunRecord(run_id="r1", created_at="2026-01-01T00:00:00+00:00")
    console = Console(record=True, width=200)
    print_run(run, episodes, console)
    text = console.export_text()
    assert "off:" in text and "Off-script: 1 of 2 tool calls" in text and "a 50%" in text
    html = render_html(run, episodes)
    assert "off-script calls" in html and "share per task: a 50%" in html


def test_simulator_errors_are_counted_by_kind_and_reported() -> None:
    from rich.console import Console

    from agentbench.records import RunRecord
    from agentbench.report.terminal import print_run

    first = episode("a", "ops", ["fallback", "fallback"])
    first.simulator_errors = ["not simulated: jq function getpath/1", "not simulated: docker exec"]
    second = episode("b", "ops", ["fallback", "sim:cat"])
    second.simulator_errors = [
        "not simulated: jq function getpath/1",
        "run_command({'cmd': 'cat /a'}): RuntimeError: boom",
    ]
    total = summarize([first, second])
    assert total.simulator_errors == 4
    assert total.simulator_errors_by_kind == {
        "not simulated: jq function getpath/1": 2,
        "not simulated: docker exec": 1,
        "error: RuntimeError": 1,
    }
    assert summarize([episode("c", "ops", ["sim:cat"])]).simulator_errors == 0
    console = Console(record=True, width=300)
    print_run(
        RunRecord(run_id="r1", created_at="2026-01-01T00:00:00+00:00"), [first, second], console
    )
    text = console.export_text()
    assert "Simulator: 4 tool calls it could not answer" in text
    assert "not simulated: jq function getpath/1 ×2" in text
