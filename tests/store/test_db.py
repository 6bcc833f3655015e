import json
import sqlite3

import pytest

from agentbench.errors import ConfigError
from agentbench.records import SCHEMA_VERSION, EpisodeResult, RunRecord
from agentbench.store import ResultStore


def episode(run_id: str, task: str, repeat: int, status: str = "ok") -> EpisodeResult:
    return EpisodeResult(
        run_id=run_id,
        task_id=task,
        category="c",
        difficulty="easy",
        step_kind="execute",
        repeat=repeat,
        status=status,
        score=None if status.startswith("backend") else 1.0,
    )


def test_episodes_commit_one_by_one_and_resume_keys(tmp_path) -> None:
    path = tmp_path / "r.db"
    with ResultStore(path) as store:
        store.save_run(RunRecord(run_id="r1", created_at="2026-11-29T00:00:00"))
        store.add_episode(episode("r1", "a", 0))
        store.add_episode(episode("r1", "b", 0, "backend_error:timeout"))
    with ResultStore(path) as again:  # a new process sees what was committed
        assert [e.task_id for e in again.episodes("r1")] == ["a", "b"]
        assert again.done_keys("r1") == {("a", 0)}
        assert again.resolve("latest") == "r1"


def test_unknown_run_and_bad_database_are_one_line_errors(tmp_path) -> None:
    with ResultStore(tmp_path / "r.db") as store, pytest.raises(ConfigError, match="no run"):
        store.resolve("nope")
    bad = tmp_path / "bad.db"
    bad.write_text("this is not sqlite" * 100)
    with pytest.raises(ConfigError, match="not a usable agentbench database"):
        ResultStore(bad)


def test_database_and_run_records_carry_the_schema_version(tmp_path) -> None:
    path = tmp_path / "r.db"
    with ResultStore(path) as store:
        store.save_run(RunRecord(run_id="r1", created_at="2026-11-29T00:00:00"))
        assert store.schema_version == SCHEMA_VERSION
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert (
        json.loads(conn.execute("SELECT record FROM runs").fetchone()[0])["schema_version"]
        == SCHEMA_VERSION
    )
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(ConfigError, match=f"schema version {SCHEMA_VERSION + 1}"):
        ResultStore(path)
