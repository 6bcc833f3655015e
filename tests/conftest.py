"""Shared fixtures: the real reference server on loopback, and the repository's task suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule
from agentbench.tasks.loader import TaskSuite, load_suite

ROOT = Path(__file__).resolve().parent.parent
TASKS_DIR = ROOT / "tasks"


@pytest.fixture(scope="session")
def suite() -> TaskSuite:
    return load_suite(TASKS_DIR)


@pytest.fixture
def refserver_factory(suite: TaskSuite) -> Iterator:
    """Start reference servers with given schedules; all are stopped after the test."""
    started: list[RefServer] = []

    def start(schedule: Schedule | None = None, **state_kwargs) -> RefServer:
        server = RefServer(RefServerState(suite.tasks, schedule or Schedule(), **state_kwargs))
        started.append(server.start())
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def refserver(refserver_factory) -> RefServer:
    """A fast reference server (10 ms TTFT, 2000 tok/s) for plumbing tests."""
    return refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=2000.0))
