"""Drive the real entry point: `python -m agentbench.cli.main` as a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from agentbench.store import ResultStore

from ..conftest import TASKS_DIR

CATEGORIES = ("ops-diagnosis", "data-lookup")
# The OpenAI tool schema real-server tests offer a model on its own, outside a task.
RUN_COMMAND = {
    "type": "function",
    "function": {
        "name": "run_command",
        "description": "Run a shell command on the cluster and return its output.",
        "parameters": {
            "type": "object",
            "properties": {"cmd": {"type": "string"}},
            "required": ["cmd"],
        },
    },
}


def agentbench(
    *args: str,
    timeout: float = 120,
    env_extra: dict[str, str] | None = None,
    **kwargs: object,
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "agentbench.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "COLUMNS": "80", **(env_extra or {})},
        **kwargs,  # type: ignore[arg-type]
    )


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "agentbench.cli.main", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def one_error_line(result: subprocess.CompletedProcess) -> str:
    """The single `error:` line of a refused input; fails on a traceback or on more lines."""
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def small_suite(dest: Path) -> Path:
    """A copy of the repository's suite with only CATEGORIES (fast to load)."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(TASKS_DIR / "suite.yaml", dest / "suite.yaml")
    for name in ("tools", *CATEGORIES):
        shutil.copytree(TASKS_DIR / name, dest / name)
    return dest


def wait_for_episodes(db: Path, n: int, timeout: float = 90.0) -> None:
    """Until the newest run in `db` has stored `n` episodes (a run in another process)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists():
            with ResultStore(db) as store:
                runs = store.runs()
                if runs and len(store.episodes(runs[-1].run_id)) >= n:
                    return
        time.sleep(0.1)
    raise AssertionError(f"fewer than {n} episodes after {timeout} s")
