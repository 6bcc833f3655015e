"""Real runs on the reference server, made once per session for the report tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from .runs import make_run, refserver, small_suite


@dataclass
class StoredRuns:
    db: Path
    tasks_dir: Path
    oracle: str
    noisy: str


@pytest.fixture(scope="session")
def stored_runs(tmp_path_factory: pytest.TempPathFactory) -> StoredRuns:
    """oracle and noisy-0.3, 2 repeats each, thinking 24 tokens a step, in one database."""
    tasks_dir = small_suite(tmp_path_factory.mktemp("tasks"))
    db = tmp_path_factory.mktemp("db") / "runs.db"
    with refserver(tasks_dir, 24) as server:
        oracle = make_run(server, tasks_dir, db, "oracle", repeats=2)
        noisy = make_run(server, tasks_dir, db, "noisy-0.3", repeats=2)
    return StoredRuns(db, tasks_dir, oracle, noisy)
