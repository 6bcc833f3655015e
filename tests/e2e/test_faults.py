"""Faulty servers, a full disk and killed parents: each ends as its own stored, stated outcome."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore

from ..loopback import MODEL, loopback_server
from .cli import agentbench, small_suite

TASK = "ops-crashloop-oomkilled"


@pytest.mark.parametrize("mode", ["keepalive", "drip"])
def test_a_run_against_a_never_ending_stream_ends_at_the_call_deadline(
    mode: str, tmp_path: Path
) -> None:
    tasks = small_suite(tmp_path / "tasks")
    with loopback_server(mode) as url:
        t0 = time.monotonic()
        result = agentbench(
            "run",
            str(tasks),
            "--base-url",
            url,
            "--model",
            MODEL,
            "--task",
            TASK,
            "--request-timeout",
            "2",
            "--retries",
            "0",
            "--quiet",
            "--db",
            str(tmp_path / "r.db"),
        )
        took = time.monotonic() - t0
    assert took < 30, took  # one 2-second call, plus start-up of the CLI on a shared machine
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "backend errors: 1 of 1 episodes were not scored (timeout: 1)" in result.stderr
    assert "first timeout:" in result.stderr and "call deadline of 2 s" in result.stderr
    assert "no episode could be scored" in result.stderr


@pytest.mark.parametrize(
    "line",
    [
        "data: []",
        "data: 42",
        'data: {"choices": [], "usage": {"completion_tokens": "lots", "prompt_tokens": 1}}',
    ],
)
def test_a_malformed_stream_is_stored_as_bad_stream_with_its_line(line: str, tmp_path) -> None:
    tasks, db = small_suite(tmp_path / "tasks"), tmp_path / "r.db"
    with loopback_server("payload", [line]) as url:
        result = agentbench(
            "run",
            str(tasks),
            "--base-url",
            url,
            "--model",
            MODEL,
            "--task",
            TASK,
            "--retries",
            "0",
            "--quiet",
            "--db",
            str(db),
        )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "first bad_stream:" in result.stderr
    with ResultStore(db) as store:
        (episode,) = store.episodes(store.resolve("latest"))
    assert episode.status == "backend_error:bad_stream"
    assert line[:30] in episode.explanation


def test_a_full_disk_stops_the_run_keeps_what_was_stored_and_says_resume(
    refserver_factory, tmp_path: Path
) -> None:
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=4000.0))
    tasks, db = small_suite(tmp_path / "tasks"), tmp_path / "r.db"
    limit = 160_000  # bytes any one file may grow to: the database fills up after a few episodes

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "run",
            str(tasks),
            "--base-url",
            server.base_url,
            "--model",
            "oracle",
            "--repeats",
            "5",
            "--quiet",
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=small_disk,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "cannot store results" in lines[0] and "--resume" in lines[0]
    with ResultStore(db) as store:
        (run,) = store.runs()
        kept = store.episodes(run.run_id)
    assert run.run_id in lines[0]
    assert 0 < len(kept) < 5 * 18


CHILD_SCRIPT = """
import signal, sys, time
from agentbench.local.children import spawn
signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
argv = sys.argv[1:]
child = spawn(argv, "test-child")
time.sleep(1.5)  # the child is up (and has set its own signal handling)
print(child.pid, flush=True)
try:
    time.sleep(120)
finally:
    child.stop()
"""
IGNORES_SIGTERM = [
    sys.executable,
    "-c",
    textwrap.dedent("""
    import signal, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(120)
"""),
]
SERVER = [sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1"]


def _parent(argv: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD_SCRIPT, *argv], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def _gone(pid: int, within_s: float = 10.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def child_env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)}


def test_sigterm_to_the_parent_stops_its_server(child_env) -> None:
    proc, pid = _parent(SERVER, child_env)
    proc.terminate()
    assert proc.wait(timeout=20) == 143
    assert _gone(pid)


def test_a_killed_parent_takes_its_server_down(child_env) -> None:
    proc, pid = _parent(SERVER, child_env)
    proc.kill()  # SIGKILL: no handler runs; the kernel's parent-death signal does the work
    proc.wait(timeout=10)
    assert _gone(pid)


def test_a_server_that_outlives_its_parent_is_reported_at_the_next_start(child_env) -> None:
    proc, pid = _parent(IGNORES_SIGTERM, child_env)
    proc.kill()
    proc.wait(timeout=10)
    try:
        assert not _gone(pid, within_s=1.0)
        check = subprocess.run(
            [
                sys.executable,
                "-c",
                "from agentbench.local.children import stale_warning; print(stale_warning())",
            ],
            capture_output=True,
            text=True,
            env=child_env,
            timeout=30,
        )
        assert f"test-child pid {pid}" in check.stdout and f"kill {pid}" in check.stdout
    finally:
        os.kill(pid, 9)
