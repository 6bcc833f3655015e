"""The viewer in headless Chromium: each page type loads from the running app with no console
message, shows what it must in the rendered DOM, and a screenshot of each is saved
(AGENTBENCH_SCREENSHOTS=<dir> keeps them, e.g. docs/ for the README).

Needs /usr/bin/chromium (Debian: `apt-get install -y chromium`); skipped without.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from agentbench.report.episodes import anchor, step_id
from agentbench.store import ResultStore
from agentbench.view.pages import episode_url, side_url

from ..report.runs import cli
from ..report.test_html_browser import CHROMIUM, chromium, console, png_size

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium"),
]


def test_every_page_type_renders_in_chromium(viewed_runs, viewer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with ResultStore(viewed_runs.db) as store:
        episodes = store.episodes(viewed_runs.oracle, transcripts=True)
    e = max(episodes, key=lambda x: len(x.steps))  # several steps: a step link to open
    step = e.steps[0]
    assert len(e.steps) >= 2 and step.tool_calls
    pages = {
        "runs": ("/", ["agentbench runs", viewed_runs.thinker]),
        "run": (f"/runs/{viewed_runs.noisy}", ["Summary", 'id="episodes-list"']),
        "episode": (
            episode_url(e.run_id, e.task_id, e.repeat),
            ["system prompt (", f"{step.tool_calls[0].name}(", 'class="tbar"'],
        ),
        "compare": (
            f"/compare?run={viewed_runs.oracle}&run={viewed_runs.thinker}&run={viewed_runs.noisy}",
            ["agentbench compare", "Same task side by side"],
        ),
        "side": (
            side_url(viewed_runs.oracle, viewed_runs.thinker, e.task_id),
            ['id="s0-step-0"', 'id="s1-step-0"', "thinking tokens B / A"],
        ),
    }
    keep = os.environ.get("AGENTBENCH_SCREENSHOTS")
    for name, (path, expected) in pages.items():
        run = chromium(viewer.url + path, tmp_path / f"p-{name}", "--dump-dom")
        assert run.returncode == 0, run.stderr[-2000:]
        assert console(run.stderr) == [], (name, console(run.stderr))
        for text in expected:
            assert text in run.stdout, (name, text)
        shot = tmp_path / f"view-{name}.png"
        shot_run = chromium(
            viewer.url + path,
            tmp_path / f"s-{name}",
            f"--screenshot={shot}",
            "--window-size=1280,1400",
            "--hide-scrollbars",
        )
        assert console(shot_run.stderr) == [], (name, console(shot_run.stderr))
        assert png_size(shot) == (1280, 1400)
        assert shot.stat().st_size > 30_000, f"{name}: a rendered page, not a blank one"
        if keep:
            shutil.copy(shot, Path(keep) / shot.name)


def test_static_report_renders_the_same_episode_and_opens_a_step_link(  # type: ignore[no-untyped-def]
    viewed_runs, tmp_path
) -> None:
    """`report --html` draws episodes with the viewer's rendering (what each step sent, timing
    bars); a step's link unfolds the step and the episode around it."""
    with ResultStore(viewed_runs.db) as store:
        e = max(store.episodes(viewed_runs.oracle), key=lambda x: len(x.steps))
    page = tmp_path / "report.html"
    result = cli("report", viewed_runs.oracle, "--db", str(viewed_runs.db), "--html", str(page))
    assert result.exit_code == 0, result.output
    ident = step_id(e.task_id, e.repeat, 1)
    run = chromium(page.as_uri() + "#" + ident, tmp_path / "p", "--dump-dom")
    assert console(run.stderr) == []
    assert f'id="{ident}" open=""' in run.stdout
    assert f'id="{anchor(e.task_id, e.repeat)}" open=""' in run.stdout
    assert "system prompt (" in run.stdout and 'class="tbar"' in run.stdout
