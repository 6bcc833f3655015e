import pytest

from agentbench.errors import ConfigError
from agentbench.records import EpisodeResult, RunRecord
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
