"""`--resume` continues the stored run and nothing else; SIGTERM stores it as interrupted."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from agentbench.records import RunRecord
from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore

from .cli import agentbench, one_error_line, small_suite, start, wait_for_episodes

SLOW = Schedule(ttft_s=0.15, rate_tok_s=400.0)


@pytest.fixture
def interrupted(refserver_factory, tmp_path: Path) -> tuple[str, Path, Path, str]:
    """An oracle run on ops-diagnosis stopped by SIGTERM after two episodes."""
    server = refserver_factory(SLOW)
    tasks, db = small_suite(tmp_path / "tasks"), tmp_path / "r.db"
    proc = start(
        "run",
        str(tasks),
        "--base-url",
        server.base_url,
        "--model",
        "oracle",
        "--category",
        "ops-diagnosis",
        "--db",
        str(db),
        "--quiet",
    )
    wait_for_episodes(db, 2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    assert "Traceback" not in err and "--resume" in err
    with ResultStore(db) as store:
        (run,) = store.runs()
    assert run.status == "interrupted"
    return server.base_url, tasks, db, run.run_id


def test_conflicting_flags_are_refused_naming_the_stored_value(interrupted) -> None:
    url, tasks, db, run_id = interrupted
    common = ("run", str(tasks), "--db", str(db), "--resume", "latest", "--base-url", url)
    wrong_model = agentbench(*common, "--model", "noisy-0.3")
    assert wrong_model.returncode == 1
    line = one_error_line(wrong_model)
    assert "--model noisy-0.3 conflicts with run" in line and "--model oracle" in line
    wrong_category = agentbench(*common, "--model", "oracle", "--category", "data-lookup")
    assert "--category data-lookup conflicts" in one_error_line(wrong_category)
    assert "--category ops-diagnosis" in wrong_category.stderr
    with ResultStore(db) as store:
        assert store.run(run_id).status == "interrupted"  # nothing was touched


def test_latest_resumes_the_unfinished_run_not_a_newer_complete_one(interrupted) -> None:
    url, tasks, db, run_id = interrupted
    newer = agentbench(
        "run",
        str(tasks),
        "--base-url",
        url,
        "--model",
        "wrong",
        "--task",
        "ops-crashloop-oomkilled",
        "--db",
        str(db),
        "--quiet",
    )
    assert newer.returncode == 0, newer.stderr
    # no flag at all but the address: every setting comes from the stored run
    done = agentbench(
        "run", str(tasks), "--db", str(db), "--resume", "latest", "--quiet", timeout=300
    )
    assert done.returncode == 0, done.stderr
    with ResultStore(db) as store:
        resumed = store.run(run_id)
        episodes = store.episodes(run_id)
        others = [r for r in store.runs() if r.run_id != run_id]
    assert resumed.status == "complete"
    assert {e.category for e in episodes} == {"ops-diagnosis"} and len(episodes) == 10
    assert all(e.score == 1.0 for e in episodes)  # oracle, as stored: never `wrong`
    assert [r.status for r in others] == ["complete"]
    assert run_id in done.stdout


def test_changed_task_files_are_refused(interrupted) -> None:
    url, tasks, db, _ = interrupted
    task_file = tasks / "ops-diagnosis" / "crashloop-oomkilled.yaml"
    task_file.write_text(task_file.read_text() + "\n# edited\n")
    result = agentbench("run", str(tasks), "--db", str(db), "--resume", "latest", "--base-url", url)
    assert result.returncode == 1
    assert "task files changed since run" in one_error_line(result)


def test_a_bench_run_id_is_refused(interrupted) -> None:
    _, tasks, db, _ = interrupted
    with ResultStore(db) as store:
        store.save_run(
            RunRecord(
                run_id="20260101-000000-bench1",
                created_at="2026-01-01",
                kind="bench",
                status="interrupted",
            )
        )
    result = agentbench("run", str(tasks), "--db", str(db), "--resume", "bench1")
    assert result.returncode == 1
    assert "is a bench result, not an agent run" in one_error_line(result)


def test_nothing_to_resume_is_one_line(tmp_path: Path) -> None:
    tasks = small_suite(tmp_path / "tasks")
    result = agentbench("run", str(tasks), "--db", str(tmp_path / "e.db"), "--resume", "latest")
    assert result.returncode == 1
    assert "no unfinished agent run to resume" in one_error_line(result)
