"""The viewer's pages over a database filled by reference-server runs, fetched over HTTP from
the running app: what each page must show, deep links, filters and one-line 404s."""

from __future__ import annotations

import html
import re
import subprocess
import sys

import httpx
import pytest

from agentbench.errors import ConfigError
from agentbench.store import ResultStore
from agentbench.tasks.loader import load_suite
from agentbench.view import create_app
from agentbench.view.pages import episode_url, side_url

from .conftest import ViewedRuns, ViewerThread


def get(viewer: ViewerThread, path: str) -> httpx.Response:
    return httpx.get(viewer.url + path, timeout=30)


def text(response: httpx.Response) -> str:
    return html.unescape(response.text)


def first_tool_episode(runs: ViewedRuns, run_id: str):  # type: ignore[no-untyped-def]
    with ResultStore(runs.db) as store:
        episodes = store.episodes(run_id, transcripts=True)
    return next(e for e in episodes if any(s.tool_results for s in e.steps))


def test_runs_list_links_every_run_and_filters(viewed_runs, viewer) -> None:  # type: ignore[no-untyped-def]
    page = text(get(viewer, "/"))
    for run_id in (viewed_runs.oracle, viewed_runs.thinker, viewed_runs.noisy):
        assert f'href="/runs/{run_id}"' in page
    noisy_only = text(get(viewer, "/?model=noisy"))
    assert viewed_runs.noisy in noisy_only and viewed_runs.oracle not in noisy_only
    by_note = text(get(viewer, "/?note=4x"))
    assert viewed_runs.thinker in by_note and viewed_runs.oracle not in by_note
    assert viewed_runs.noisy not in text(get(viewer, "/?until=2000-01-01"))
    assert viewed_runs.noisy in text(get(viewer, "/?since=2000-01-01&router=always-local"))


def test_run_page_shows_the_report_figures_and_links_episodes(viewed_runs, viewer) -> None:  # type: ignore[no-untyped-def]
    page = text(get(viewer, f"/runs/{viewed_runs.noisy}"))
    for section in ("success rate (95% CI)", "thinking tokens / step", 'id="by-task"'):
        assert section in page
    with ResultStore(viewed_runs.db) as store:
        episodes = store.episodes(viewed_runs.noisy)
    for e in episodes:
        assert episode_url(e.run_id, e.task_id, e.repeat) in page
    # a unique prefix of the id is a link too, like on the command line
    assert viewed_runs.noisy in text(get(viewer, f"/runs/{viewed_runs.noisy[:-2]}"))


def test_episode_page_shows_the_prompt_a_tool_call_and_its_output(viewed_runs, viewer) -> None:  # type: ignore[no-untyped-def]
    e = first_tool_episode(viewed_runs, viewed_runs.oracle)
    task = next(t for t in load_suite(viewed_runs.tasks_dir).tasks if t.id == e.task_id)
    page = text(get(viewer, episode_url(e.run_id, e.task_id, e.repeat)))
    assert task.prompt.strip() in page  # the user turn as sent
    step = next(s for s in e.steps if s.tool_results)
    call, result = step.tool_calls[0], step.tool_results[0]
    assert f"{call.name}({call.arguments})" in page
    assert result.output in page
    assert "system prompt (" in page  # folded, with its length
    assert 'class="tbar"' in page and "TTFT" in page
    for check in e.checks:
        assert check.name in page
    # the step deep link: its id is on the page
    assert re.search(r'id="ep-[^"]+-step-0"', page)


def test_side_by_side_aligns_two_runs_steps(viewed_runs, viewer) -> None:  # type: ignore[no-untyped-def]
    e = first_tool_episode(viewed_runs, viewed_runs.oracle)
    page = text(get(viewer, side_url(viewed_runs.oracle, viewed_runs.thinker, e.task_id)))
    assert viewed_runs.oracle in page and viewed_runs.thinker in page
    for i in range(len(e.steps)):
        assert f'id="s0-step-{i}"' in page and f'id="s1-step-{i}"' in page
    assert "thinking tokens B / A: 4.00×" in page


def test_compare_page_links_side_by_side_pages(viewed_runs, viewer) -> None:  # type: ignore[no-untyped-def]
    page = get(viewer, f"/compare?run={viewed_runs.oracle}&run={viewed_runs.thinker}")
    assert page.status_code == 200
    assert "/side?a=" in page.text and "thinking tok/step" in page.text


@pytest.mark.parametrize(
    "path",
    [
        "/runs/no-such-run",
        "/compare?run=x",
        "/side?a=x&b=y&task=t&repeat=0",
        "/runs/{oracle}/episodes/no-such-task/0",
        "/runs/{oracle}/episodes/t/not-a-number",
    ],
)
def test_what_is_not_there_is_a_one_line_404(viewed_runs, viewer, path) -> None:  # type: ignore[no-untyped-def]
    response = get(viewer, path.format(oracle=viewed_runs.oracle))
    assert response.status_code == 404
    assert "Traceback" not in response.text and len(response.text) < 600


def test_a_missing_database_is_refused_with_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="no results database"):
        create_app(tmp_path / "none.db")


def test_the_command_announces_its_url_and_refuses_a_missing_database(
    viewed_runs, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    missing = subprocess.run(
        [sys.executable, "-m", "agentbench.cli.main", "view", "--db", str(tmp_path / "no.db")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert missing.returncode == 1
    assert missing.stderr.strip().splitlines() == [
        f"error: no results database at {tmp_path / 'no.db'}; run `agentbench run` or pass --db"
    ]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "view",
            "--db",
            str(viewed_runs.db),
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert url and url.group(1) != "0", line
        assert viewed_runs.oracle in httpx.get(url.group(0), timeout=30).text
    finally:
        proc.terminate()
        proc.wait(timeout=10)
