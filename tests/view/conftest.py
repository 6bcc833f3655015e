"""Real runs on the reference server, and the viewer serving them from a background thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from agentbench.view import create_app

from ..report.runs import make_run, refserver, small_suite


@dataclass
class ViewedRuns:
    db: Path
    tasks_dir: Path
    oracle: str  # 24 thinking tokens a step
    thinker: str  # the same answers, 96 thinking tokens a step
    noisy: str


@pytest.fixture(scope="session")
def viewed_runs(tmp_path_factory: pytest.TempPathFactory) -> ViewedRuns:
    tasks_dir = small_suite(tmp_path_factory.mktemp("view-tasks"))
    db = tmp_path_factory.mktemp("view-db") / "runs.db"
    with refserver(tasks_dir, 24) as server:
        oracle = make_run(server, tasks_dir, db, "oracle", extra=("--note", "baseline"))
        noisy = make_run(server, tasks_dir, db, "noisy-0.3", extra=("--note", "noisy"))
    with refserver(tasks_dir, 96) as server:
        thinker = make_run(server, tasks_dir, db, "oracle", extra=("--note", "4x thinking"))
    return ViewedRuns(db, tasks_dir, oracle, thinker, noisy)


class ViewerThread:
    """`agentbench view`'s app under uvicorn on 127.0.0.1, any free port, in a thread."""

    def __init__(self, db: Path) -> None:
        import uvicorn

        config = uvicorn.Config(create_app(db), host="127.0.0.1", port=0, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ViewerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the viewer did not start")
            time.sleep(0.02)
        return self

    @property
    def url(self) -> str:
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def viewer(viewed_runs: ViewedRuns) -> Iterator[ViewerThread]:
    with ViewerThread(viewed_runs.db) as running:
        yield running
