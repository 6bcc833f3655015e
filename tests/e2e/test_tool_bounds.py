"""`agentbench run` against a model that sends hostile tool calls: each ends within its deadline
with a stored status and no traceback, and SIGTERM stops a run whose tool call is stuck.

The "model" is the reference server playing a task whose reference solution is the attack
(the oracle plays it), so the calls reach the harness exactly as a model's would.
"""

from __future__ import annotations

import re
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from agentbench.records import EpisodeResult
from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore
from agentbench.tasks.loader import load_suite

from ..conftest import TASKS_DIR
from .cli import agentbench, start

SOURCE = TASKS_DIR / "data-lookup" / "inventory-low-stock.yaml"
CLUSTER = TASKS_DIR / "log-triage" / "go-panic-previous.yaml"
STUCK = "SELECT sum(i) FROM range(1000000000000) t(i)"  # hours in DuckDB, in C
BOMB = "echo " + "a" * 5000 + " | grep -E '(a+)+b'"


def hostile_suite(dest: Path, calls: list[dict], source: Path = SOURCE) -> Path:
    """The suite's tools and one task (`source`'s environment: SQL, else a cluster) whose
    reference makes `calls`, then answers."""
    dest.mkdir(parents=True)
    shutil.copy(TASKS_DIR / "suite.yaml", dest / "suite.yaml")
    shutil.copytree(TASKS_DIR / "tools", dest / "tools")
    task = yaml.safe_load(source.read_text())
    task.update(
        id="data-hostile-call",
        prompt="Which SKUs are below their reorder point? (hostile-call test)",
        category="data-lookup",
        tools=["sql_query", "run_command"],
        reference=[{"calls": calls}, {"answer": "done"}],
    )
    task.pop("alternates", None)
    (dest / "data-lookup").mkdir()
    (dest / "data-lookup" / "hostile.yaml").write_text(yaml.safe_dump(task, sort_keys=False))
    return dest


@pytest.fixture
def serve() -> Iterator:
    started: list[RefServer] = []

    def serve_(tasks: Path) -> str:
        state = RefServerState(load_suite(tasks).tasks, Schedule(ttft_s=0.01, rate_tok_s=2000.0))
        started.append(RefServer(state).start())
        return started[-1].base_url

    yield serve_
    for server in started:
        server.stop()


def run_args(tasks: Path, url: str, db: Path, *extra: str) -> list[str]:
    return [
        "run",
        str(tasks),
        "--base-url",
        url,
        "--model",
        "oracle",
        "--retries",
        "0",
        "--quiet",
        "--db",
        str(db),
        *extra,
    ]


def stored_episode(db: Path) -> tuple[str, EpisodeResult]:
    with ResultStore(db) as store:
        (run,) = store.runs()
        (episode,) = store.episodes(run.run_id, transcripts=True)
    return run.status, episode


def test_a_catastrophic_regex_is_answered_with_greps_error_and_the_run_goes_on(
    serve, tmp_path: Path
) -> None:
    tasks = hostile_suite(tmp_path / "tasks", [{"tool": "run_command", "args": {"cmd": BOMB}}])
    db = tmp_path / "r.db"
    started = time.monotonic()
    result = agentbench(*run_args(tasks, serve(tasks), db), timeout=120)
    assert time.monotonic() - started < 60
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    status, episode = stored_episode(db)
    assert status == "complete", status
    assert episode.status in ("ok", "wrong") and episode.final_answer == "done"
    (tool_result,) = episode.steps[0].tool_results
    assert tool_result.limit == "regex"
    assert "grep: regular expression too expensive" in tool_result.output


ATTACKS = {  # command -> the limit its tool result records
    BOMB: "regex",
    "echo x | awk '{$100000000=1}'": "fields",
    "echo x | awk '{printf \"%900000000d\", 1}'": "value_bytes",
    "echo '[0,1,2,3,4,5,6,7,8,9]' | jq '\"" + "\\(.[])" * 9 + "\"'": "total_bytes",
    "echo 1 | jq '" + "|".join(["[.,.]"] * 40) + "'": "value_bytes",
    "echo '{apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: default}, data: {"
    + "a: &a [x,x,x,x,x,x,x,x,x], "
    + ", ".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefg", "bcdefgh", strict=True)
    )
    + "}}' | kubectl apply -f -": "yaml",
    "printf '%900000s' x": None,  # no limit: sent truncated
}


def test_every_attack_in_one_run_ends_capped_in_bounded_memory(serve, tmp_path: Path) -> None:
    calls = [{"tool": "run_command", "args": {"cmd": cmd}} for cmd in ATTACKS]
    tasks = hostile_suite(tmp_path / "tasks", calls, CLUSTER)
    db = tmp_path / "r.db"
    started = time.monotonic()
    proc = start(*run_args(tasks, serve(tasks), db))
    peak_kib = 0  # the run's own high-water RSS (reset at exec, unlike the fork's rusage)
    while proc.poll() is None:
        found = re.search(r"VmHWM:\s+(\d+) kB", Path(f"/proc/{proc.pid}/status").read_text())
        peak_kib = max(peak_kib, int(found.group(1)) if found else 0)
        time.sleep(0.05)
    _, err = proc.communicate()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert time.monotonic() - started < 90
    assert 0 < peak_kib < 400 * 1024, peak_kib
    _, episode = stored_episode(db)
    results = episode.steps[0].tool_results
    assert [r.limit for r in results] == list(ATTACKS.values())
    assert results[-1].truncated_from == 900_000 and len(results[-1].output) < 70_000


def test_a_stuck_call_ends_the_episode_timeout_at_its_deadline_naming_the_call(
    serve, tmp_path: Path
) -> None:
    tasks = hostile_suite(tmp_path / "tasks", [{"tool": "sql_query", "args": {"query": STUCK}}])
    db = tmp_path / "r.db"
    started = time.monotonic()
    result = agentbench(*run_args(tasks, serve(tasks), db, "--episode-timeout", "2"), timeout=120)
    assert time.monotonic() - started < 60
    assert "Traceback" not in result.stderr, result.stderr
    status, episode = stored_episode(db)
    assert status == "complete", (status, result.stderr)
    assert episode.status == "timeout"
    error = "episode exceeded its time limit of 2 s during tool call sql_query"
    assert f'{error} {{"query": "{STUCK}"}}' in episode.explanation, episode.explanation
    (abandoned,) = episode.steps[0].tool_results
    assert abandoned.limit == "abandoned"


def test_sigterm_stops_a_run_whose_tool_call_is_stuck(serve, tmp_path: Path) -> None:
    tasks = hostile_suite(tmp_path / "tasks", [{"tool": "sql_query", "args": {"query": STUCK}}])
    db = tmp_path / "r.db"
    proc = start(*run_args(tasks, serve(tasks), db, "--episode-timeout", "600"))
    time.sleep(6)  # start-up, the server check, the first step: the call is running by now
    assert proc.poll() is None, proc.communicate()
    signalled = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - signalled < 10
    assert proc.returncode == 143, err
    assert "Traceback" not in err and "--resume" in err
    with ResultStore(db) as store:
        (run,) = store.runs()
    assert run.status == "interrupted"
