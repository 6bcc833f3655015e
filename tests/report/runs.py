"""Real runs on the reference server for report and compare tests (CLI end to end)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.records import EpisodeResult, RunRecord
from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore
from agentbench.tasks.loader import load_suite

from ..conftest import TASKS_DIR


def schedule(reasoning_tokens: int = 24) -> Schedule:
    """Fast but not instant: 5 ms to the first token, 100 tok/s, bursts like a drafter (faster
    than this, a busy host's reference server releases tokens in bunches: no decode figure)."""
    return Schedule(ttft_s=0.005, rate_tok_s=100.0, chunks=(1, 3, 2),
                    reasoning_tokens=reasoning_tokens)


def cli(*args: str) -> Any:
    # A wide terminal, so rich does not wrap the words the tests look for.
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


# Two categories of the real suite keep each run to a few seconds (the full suite's YAML alone
# takes ~10 s to parse); the whole suite is the e2e tests' business.
CATEGORIES = ("ops-diagnosis", "data-lookup")


def small_suite(dest: Path) -> Path:
    """A copy of the repository's suite holding only CATEGORIES (and the shared tools)."""
    for name in ("suite.yaml", "tools", *CATEGORIES):
        src = TASKS_DIR / name
        if src.is_dir():
            shutil.copytree(src, dest / name)
        elif src.exists():
            shutil.copy(src, dest / name)
    return dest


def make_run(server: Any, tasks_dir: Path, db: Path, model: str, *, repeats: int = 1,
             extra: tuple[str, ...] = ()) -> str:
    """Run `tasks_dir` against `server` with `model`; the new run's id."""
    result = cli("run", str(tasks_dir), "--base-url", server.base_url, "--model", model,
                 "--repeats", str(repeats), "--concurrency", "8", "--db", str(db), "--quiet",
                 *extra)
    assert result.exit_code == 0, result.output
    with ResultStore(db) as store:
        return store.resolve("latest")


@contextmanager
def refserver(tasks_dir: Path, reasoning_tokens: int = 24) -> Iterator[RefServer]:
    """A reference server playing `tasks_dir`, for a whole test module."""
    suite = load_suite(tasks_dir)
    server = RefServer(RefServerState(suite.tasks, schedule(reasoning_tokens))).start()
    try:
        yield server
    finally:
        server.stop()


def load(db: Path, run_id: str) -> tuple[RunRecord, list[EpisodeResult]]:
    with ResultStore(db) as store:
        return store.run(run_id), store.episodes(run_id)
