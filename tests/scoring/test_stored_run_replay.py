"""benchmarks/real/replay.py over a stored real-model run (benchmarks/real/runs/), as a user runs
it: the report's lines, an edited tool output and an edited score listed as changes with why,
one screen by default and everything with --list, a bad file as one line."""

from __future__ import annotations

import copy
import gzip
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "real" / "replay.py"
STORED = ROOT / "benchmarks" / "real" / "runs" / "qwen0.5b.json.gz"
SOLVED = ROOT / "benchmarks" / "real" / "runs" / "qwen1.5b-partial.json.gz"  # has successes

_spec = importlib.util.spec_from_file_location("stored_run_replay", SCRIPT)
assert _spec is not None and _spec.loader is not None
_script = sys.modules["stored_run_replay"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_script)
SHOWN: int = _script.SHOWN  # changes of each kind the default report prints


def sim_results(episode: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(step, result) of every call a simulator answered with some output."""
    return [
        (step, result)
        for step in episode["steps"]
        for result in step["tool_results"]
        if result["source"].startswith("sim:") and result["output"].strip()
    ]


@pytest.fixture(scope="module")
def small_run() -> dict[str, Any]:
    """The stored run cut to the first episodes with simulated calls, more than one screen's."""
    run = json.loads(gzip.decompress(STORED.read_bytes()))
    picked: list[dict[str, Any]] = []
    for episode in run["episodes"]:
        if sim_results(episode):
            picked.append(episode)
        if len(picked) >= 3 and sum(len(sim_results(e)) for e in picked) > SHOWN:
            break
    assert len(picked) >= 3 and sum(len(sim_results(e)) for e in picked) > SHOWN
    run["episodes"] = picked
    return as_of_today(run)


def as_of_today(run: dict[str, Any]) -> dict[str, Any]:
    """The run as if made today: its task files hashed as they stand, so that only what a test
    edits shows as a change (task files edited since a stored run are counted apart)."""
    from agentbench.cli.resume import task_hashes
    from agentbench.tasks.loader import load_suite

    run["config"]["task_hashes"] = task_hashes(load_suite(ROOT / "tasks"))
    return run


def write(path: Path, run: dict[str, Any]) -> Path:
    data = json.dumps(run).encode()
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return path


def replay(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)],
        capture_output=True, text=True, timeout=600, cwd=ROOT, env=env,
    )  # fmt: skip


def calls_of(run: dict[str, Any]) -> int:
    return sum(len(s["tool_results"]) for e in run["episodes"] for s in e["steps"])


def test_an_unchanged_run_reports_its_counts_and_no_changes(
    small_run: dict[str, Any], tmp_path: Path
) -> None:
    path = write(tmp_path / "run.json", small_run)
    done = replay(path)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    model = small_run["config"]["model"]
    eps = len(small_run["episodes"])
    assert lines[0] == f"{path}: run {small_run['run_id']}, model {model}, {eps} episodes"
    assert lines[1].startswith(f"  tool calls: {calls_of(small_run)} rerun (0 never run")
    assert lines[1].endswith("outputs changed: 0 calls in 0 episodes")
    solved = sum(e["status"] == "ok" for e in small_run["episodes"])
    assert lines[2] == (
        f"  scores: success {solved}/{eps} then, {solved}/{eps} today; "
        "score or success changed: 0 episodes"
    )
    assert lines[3] == "  since the run: 0 task files edited"
    assert lines[4:] == ["  no changes"]


def test_an_edited_tool_output_is_listed_with_its_first_differing_line(
    small_run: dict[str, Any], tmp_path: Path
) -> None:
    edited = copy.deepcopy(small_run)
    episode = edited["episodes"][1]
    step, result = sim_results(episode)[0]
    stored_lines = len(result["output"].splitlines())
    result["output"] = result["output"].rstrip("\n") + "\nrow added after the run"
    path = write(tmp_path / "edited.json.gz", edited)
    done = replay(write(tmp_path / "same.json", small_run), path)
    assert done.returncode == 0, done.stderr
    same, changed = done.stdout.split(f"{path}: ")
    assert "  no changes" in same.splitlines()
    lines = changed.splitlines()
    assert lines[1].endswith("outputs changed: 1 calls in 1 episodes")
    listed = [line for line in lines if line.startswith("  output  ")]
    assert len(listed) == 1
    assert listed[0].startswith(f"  output  {episode['task_id']} step {step['index']} `")
    source = result["source"]
    assert f"was {source}, now {source}; line {stored_lines + 1}: " in listed[0]
    assert listed[0].endswith("was «row added after the run», now «(none)»")
    # the episode is scored on today's output, not on the edited one: its score did not move
    assert "score or success changed: 0 episodes" in lines[2]


def test_an_edited_score_is_listed_with_old_and_new_score_and_the_checks(
    small_run: dict[str, Any], tmp_path: Path
) -> None:
    edited = copy.deepcopy(small_run)
    episode = edited["episodes"][0]
    stored_score = episode["score"]
    check = episode["checks"][0]
    check["passed"] = not check["passed"]
    episode["score"] = 0.123
    done = replay(write(tmp_path / "rescored.json", edited))
    assert done.returncode == 0, done.stderr
    listed = [line for line in done.stdout.splitlines() if line.startswith("  score   ")]
    status = episode["status"]
    head = f"  score   {episode['task_id']}: 0.123 -> {stored_score:.3f} ({status} -> {status}): "
    assert listed == [listed[0]] and listed[0].startswith(head)
    why = "no longer failing" if not check["passed"] else "now failing"
    assert f"{why}: {check['name']} (" in listed[0]
    assert "score or success changed: 1 episodes" in done.stdout


def test_a_success_the_stored_run_missed_is_counted_and_listed(tmp_path: Path) -> None:
    run = as_of_today(json.loads(gzip.decompress(SOLVED.read_bytes())))
    solved = [e for e in run["episodes"] if e["status"] == "ok"]
    assert solved, "the stored 1.5B run solved no task"
    episode = solved[0]
    run["episodes"] = [episode]
    check = episode["checks"][-1]
    check["passed"] = False
    episode.update(status="wrong", score=0.5)
    done = replay(write(tmp_path / "missed.json.gz", run))
    assert done.returncode == 0, done.stderr
    assert "  scores: success 0/1 then, 1/1 today; score or success changed: 1 episodes" in (
        done.stdout.splitlines()
    )
    listed = [line for line in done.stdout.splitlines() if line.startswith("  score   ")]
    assert listed == [
        f"  score   {episode['task_id']}: 0.500 -> 1.000 (wrong -> ok): no longer failing: "
        f"{check['name']} (was: {check['detail'][:90]}{'…' if len(check['detail']) > 90 else ''})"
    ]


def test_one_screen_by_default_and_every_change_with_list(
    small_run: dict[str, Any], tmp_path: Path
) -> None:
    edited = copy.deepcopy(small_run)
    results = [r for e in edited["episodes"] for _, r in sim_results(e)]
    for result in results:
        result["output"] = "edited\n" + result["output"]
    path = write(tmp_path / "all-edited.json", edited)
    short, full = replay(path), replay(path, "--list")
    assert short.returncode == full.returncode == 0
    shown = [line for line in short.stdout.splitlines() if line.startswith("  output  ")]
    assert len(shown) == SHOWN
    assert f"  … {len(results) - SHOWN} more output changes (--list prints them)" in short.stdout
    listed = [line for line in full.stdout.splitlines() if line.startswith("  output  ")]
    assert len(listed) == len(results) and "more output changes" not in full.stdout
    assert all(": was «edited», now «" in line for line in listed)


def corrupt_gzip() -> bytes:
    data = bytearray(gzip.compress(b'{"schema_version": 1, "episodes": []}' * 50))
    data[15:25] = b"\xff" * 10
    return bytes(data)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("bad.json", b"{not json"),
        ("bad.json", b'{"schema_version": 1}'),
        ("bad.json", b'{"schema_version": 1, "episodes": [{}]}'),
        ("bad.json", b'{"schema_version": 99, "episodes": []}'),
        ("cut.json.gz", gzip.compress(b'{"schema_version": 1, "episodes": []}')[:20]),
        ("corrupt.json.gz", corrupt_gzip()),
        ("missing.json", None),
    ],
)
def test_a_file_that_is_not_a_results_json_is_one_line(
    name: str, content: bytes | None, tmp_path: Path
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    done = replay(path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"replay: {path}: ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
