"""The end of a run says where results went and what to do next; `runs` fits 80 columns."""

from __future__ import annotations

import json
from pathlib import Path

from agentbench.store import ResultStore

from .cli import agentbench, small_suite


def test_end_of_run_runs_table_and_request_options(refserver, tmp_path: Path) -> None:
    tasks, db = small_suite(tmp_path / "tasks"), tmp_path / "r.db"
    done = agentbench(
        "run", str(tasks), "--base-url", refserver.base_url, "--model", "oracle",
        "--task", "ops-crashloop-oomkilled", "--db", str(db), "--note", "first try",
        "--temperature", "0.3", "--top-p", "0.9", "--seed", "7",
        "--extra-body", '{"top_k": 20}', "--header", "X-Team:secret-value",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    with ResultStore(db) as store:
        (run,) = store.runs()
        raw = json.dumps([r.model_dump() for r in store.runs()])
    short = run.run_id[-6:]
    assert f"stored: run {short} ({run.run_id}, complete) in {db}" in done.stdout
    assert f"next: agentbench report {short} --db {db} --html {short}.html" in done.stdout
    assert run.config["request"] == {
        "temperature": 0.3, "top_p": 0.9, "seed": 7, "extra_body": {"top_k": 20},
        "header_names": ["X-Team"],
    }  # fmt: skip
    assert "secret-value" not in raw  # header values are never stored

    listed = agentbench("runs", "--db", str(db))
    assert listed.returncode == 0
    row = next(line for line in listed.stdout.splitlines() if line.strip().startswith(short))
    assert "first try" in row and "oracle" in row
    assert max(len(line) for line in listed.stdout.splitlines()) <= 80

    shown = agentbench("report", short, "--db", str(db))  # the short id works everywhere
    assert shown.returncode == 0 and run.run_id in shown.stdout
