"""Scoring through the real loop and a real World: calls by identity, side effects, alternates."""

import shutil
from pathlib import Path

import yaml

from agentbench.tasks.loader import load_suite
from agentbench.tasks.validate import validate_suite

from ..conftest import TASKS_DIR


def cmd(line: str) -> dict:
    return {"calls": [{"tool": "run_command", "args": {"cmd": line}}]}


def read(path: str) -> dict:
    return {"calls": [{"tool": "read_file", "args": {"path": path}}]}


ANSWER = {"answer": "The app fails because the database password is wrong (ERROR auth failed)."}
TASK = {
    "id": "t-identity",
    "category": "log-triage",
    "difficulty": "easy",
    "description": "Find the error in a log, read-only.",
    "prompt": "Why does the app fail? Its log is /var/log/app.log.",
    "tools": ["run_command", "read_file"],
    "max_steps": 4,
    "environment": {
        "files": {
            "/var/log/app.log": "INFO start\nERROR auth failed for user app\nINFO retry\n",
            "/etc/app.conf": "db_password=hunter2\n",
        }
    },
    "expect": {
        "evidence": [{"name": "the app's log", "shows": ["ERROR auth failed"]}],
        "answer": {
            "claims": [{"name": "auth failure", "phrases": ["auth failed", "password is wrong"]}],
            "decoys": [{"name": "disk full", "phrases": ["disk full", "no space left"]}],
        },
    },
    "reference": [cmd("cat /var/log/app.log"), ANSWER],
    "alternates": [
        {"name": "sudo-pipe", "steps": [cmd("sudo cat /var/log/app.log | grep ERROR"), ANSWER]},
        {"name": "read-file-tool", "steps": [read("/var/log/app.log"), ANSWER]},
        {
            "name": "extra-read",
            "steps": [cmd("ls -l /var/log"), cmd("tail -n 50 /var/log/app.log"), ANSWER],
        },
    ],
    "wrong": [
        {"name": "other-file", "steps": [cmd("cat /etc/app.conf"), ANSWER]},
        {
            "name": "deletes-config",
            "steps": [cmd("cat /var/log/app.log"), cmd("sudo rm /etc/app.conf"), ANSWER],
        },
        {
            "name": "hedged",
            "steps": [
                cmd("cat /var/log/app.log"),
                {"answer": "Maybe auth failed, or the disk is full."},
            ],
        },
    ],
}


def suite_with(tmp_path: Path, task: dict):
    root = tmp_path / "tasks"
    shutil.copytree(TASKS_DIR / "tools", root / "tools")
    shutil.copy(TASKS_DIR / "suite.yaml", root / "suite.yaml")
    (root / task["category"]).mkdir()
    (root / task["category"] / "t.yaml").write_text(yaml.safe_dump(task, sort_keys=False))
    return load_suite(root)


def test_alternates_pass_and_mistakes_fail_on_a_real_world(tmp_path) -> None:
    assert validate_suite(suite_with(tmp_path, TASK), strict=True) == []


def test_each_mistake_fails_for_its_own_reason(tmp_path) -> None:
    task = {**TASK, "wrong": [TASK["wrong"][1], TASK["wrong"][1]], "alternates": []}
    task["reference"] = TASK["wrong"][1]["steps"]
    (problem,) = [p for p in validate_suite(suite_with(tmp_path, task)) if p.field == "reference"]
    assert "side_effects" in problem.message and "delete /etc/app.conf" in problem.message
    assert "evidence" not in problem.message  # the read happened; only the write is wrong


def test_scoring_runs_off_the_event_loop(monkeypatch) -> None:
    """An episode being scored does not stop the loop: the episodes streaming beside it keep
    their clocks (scoring is CPU work on the process's one scoring thread)."""
    import asyncio
    import threading
    import time

    import agentbench.scoring.score as score

    threads: list[str] = []

    def slow(task, trace, suite):  # stands in for a long scoring: holds its thread 0.3 s
        threads.append(threading.current_thread().name)
        time.sleep(0.3)
        return "scored"

    monkeypatch.setattr(score, "score_trace", slow)

    async def main() -> tuple[object, int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        beside = asyncio.create_task(ticker())
        result = await score.score_episode(None, None, None)  # type: ignore[arg-type]
        beside.cancel()
        return result, ticks

    result, ticks = asyncio.run(main())
    assert result == "scored"
    assert ticks >= 5  # the loop ran on while the scoring thread worked
    assert threads and threads[0].startswith("agentbench-score")
