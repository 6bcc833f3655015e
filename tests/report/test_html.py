"""The HTML run report: self-contained, escaped, well-formed, with every section present."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from agentbench.records import (
    CheckRecord,
    EpisodeResult,
    RouterDecisionRecord,
    RunRecord,
    ServerInfo,
    StepRecord,
    ToolCallRecord,
    ToolResultRecord,
)
from agentbench.report import plots
from agentbench.report.html import render_html, write_html

from .runs import cli, load

VOID = {"meta", "br", "hr", "img", "input", "link", "path", "use", "rect", "circle", "line",
        "polyline", "polygon", "stop", "ellipse"}


class Structure(HTMLParser):
    """Counts elements and checks that every opened element is closed in order."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.count: dict[str, int] = {}
        self.ids: list[str] = []
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.count[tag] = self.count.get(tag, 0) + 1
        for name, value in attrs:
            if name == "id" and value:
                self.ids.append(value)
            if name in ("src", "href", "xlink:href") and value and not value.startswith("#"):
                self.urls.append(value)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.count[tag] = self.count.get(tag, 0) + 1
        for name, value in attrs:
            if name == "id" and value:
                self.ids.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            return
        self.stack.pop()


def parse(text: str) -> Structure:
    s = Structure()
    s.feed(text)
    s.close()
    return s


def test_report_of_a_real_run(stored_runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "report.html"
    result = cli("report", stored_runs.noisy, "--db", str(stored_runs.db), "--html", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    doc = parse(text)
    assert not doc.errors and not doc.stack, (doc.errors[:5], doc.stack)
    assert doc.urls == [], "a self-contained report references nothing outside itself"
    # URLs may appear as text (tool calls); nothing may be loaded from anywhere.
    assert "<link" not in text and "@import" not in text and "<img" not in text
    assert not re.search(r"url\((?!#)", text)
    assert len(doc.ids) == len(set(doc.ids)), "ids (also inside the SVGs) are unique"
    run, episodes = load(stored_runs.db, stored_runs.noisy)
    for section in ("summary", "serving", "plots", "by-category", "by-task", "episodes",
                    "categories", "tasks", "plot-score", "plot-thinking", "plot-time",
                    "plot-decode"):
        assert f'id="{section}"' in text, section
    assert doc.count["svg"] == 4
    assert text.count('class="episode"') == len(episodes)
    assert text.count('class="step"') == sum(len(e.steps) for e in episodes)
    assert text.count("<tr>") >= len({e.task_id for e in episodes})
    assert "unpriced" in text and "refserver" in text and run.run_id in text
    assert "thinking tokens / step" in text and "24.0" in text  # the schedule's thinking
    # Every step's tool output is on the page, escaped (tool outputs hold < and >).
    outputs = [r.output for e in episodes for s in e.steps for r in s.tool_results]
    assert outputs and all(html.escape(o) in text for o in outputs)


def hostile_episode() -> tuple[RunRecord, list[EpisodeResult]]:
    evil = "<script>alert('x')</script> & <b>bold</b>"
    step = StepRecord(
        model="m<1>", requested_model="m", index=0, t_start_s=0.0, content=evil, reasoning=evil,
        tool_calls=[ToolCallRecord(name="run_command", arguments='{"cmd": "cat <f> | grep x"}')],
        tool_results=[ToolResultRecord(name="run_command", output=evil, ok=False, kind="error",
                                       latency_s=0.01)],
        router=RouterDecisionRecord(target="local", policy="p<", reason=evil),
    )
    ep = EpisodeResult(run_id="r<1>", task_id="t<1>", category="c&d", difficulty="easy",
                       step_kind="execute", repeat=0, status="wrong", score=0.0,
                       checks=[CheckRecord(name="n<", passed=False, detail=evil)],
                       explanation=evil, final_answer=evil, steps=[step])
    run = RunRecord(run_id="r<1>", created_at="2026-01-01T00:00:00+00:00",
                    server=ServerInfo(kind="k", base_url="http://127.0.0.1:1/v1", model=evil))
    return run, [ep]


def test_record_text_is_escaped_everywhere() -> None:
    run, episodes = hostile_episode()
    text = render_html(run, episodes)
    assert "<script>alert" not in text and "<b>bold</b>" not in text
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &lt;b&gt;" in text
    assert text.count("<script>") == 1  # only the page's own sorter
    doc = parse(text)
    assert not doc.errors and not doc.stack


def test_missing_figures_are_na_not_zero() -> None:
    run = RunRecord(run_id="empty", created_at="2026-01-01T00:00:00+00:00")
    ep = EpisodeResult(run_id="empty", task_id="t", category="c", difficulty="easy",
                       step_kind="execute", repeat=0, status="backend_error:connect", score=None)
    text = render_html(run, [ep])
    assert "n/a" in text and "unpriced" in text and "No serving record" in text
    assert "0.0 tok/s" not in text


def test_without_matplotlib_the_report_says_so(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(plots, "available", lambda: False)
    run, episodes = hostile_episode()
    write_html(tmp_path / "r.html", run, episodes)
    assert "Plots need matplotlib" in (tmp_path / "r.html").read_text()


@pytest.mark.skipif(not plots.available(), reason="matplotlib not installed")
def test_cost_accuracy_plot_with_several_runs(stored_runs) -> None:  # type: ignore[no-untyped-def]
    runs = [load(stored_runs.db, stored_runs.oracle), load(stored_runs.db, stored_runs.noisy)]
    text = render_html(*runs[0], others=runs)
    assert 'id="plot-pareto"' in text and "Pareto" in text
    assert "output tokens per episode" in text  # unpriced runs: the stand-in axis, labelled


def test_priced_run_shows_dollars() -> None:
    run, episodes = hostile_episode()
    episodes[0].cost_usd = 0.0125
    episodes[0].steps[0].cost_usd = 0.0125
    text = render_html(run, episodes)
    assert "0.0125 USD" in text and "USD / solved task" in text
