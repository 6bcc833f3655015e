"""Every bad input is one line on stderr, no traceback, exit 1 — through the real entry point.

README's Troubleshooting lists each case with its message; keep the two in step.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from agentbench.records import RunRecord
from agentbench.store import ResultStore

from .cli import agentbench, one_error_line, small_suite

DEAD = "http://127.0.0.1:9/v1"  # nothing listens on the discard port


def _tasks(tmp: Path) -> Path:
    return small_suite(tmp / "tasks")


def _non_utf8_task(tmp: Path) -> list[str]:
    tasks = _tasks(tmp)
    (tasks / "ops-diagnosis" / "latin1.yaml").write_bytes("id: caf\xe9\n".encode("latin-1"))
    return ["run", str(tasks), "--base-url", DEAD, "--model", "m"]


def _yml_task_named(tmp: Path) -> list[str]:
    tasks = _tasks(tmp)
    (tasks / "ops-diagnosis" / "broken.yml").write_text("id: [unclosed\n")
    return ["tasks", "validate", str(tasks)]


def _suite_list(tmp: Path) -> list[str]:
    tasks = _tasks(tmp)
    (tasks / "suite.yaml").write_text("- a\n- b\n")
    return ["run", str(tasks), "--base-url", DEAD, "--model", "m"]


def _flags_list(tmp: Path) -> list[str]:
    tasks = _tasks(tmp)
    (tasks / "tools" / "flags.yaml").write_text("- kubectl\n")
    return ["run", str(tasks), "--base-url", DEAD, "--model", "m"]


def _non_utf8_prices(tmp: Path) -> list[str]:
    prices = tmp / "prices.yaml"
    prices.write_bytes(b"models:\n  m: {input: 1, output: 2, note: \xff}\n")
    return ["run", str(_tasks(tmp)), "--base-url", DEAD, "--model", "m", "--prices", str(prices)]


def _run_json_missing_folder(tmp: Path) -> list[str]:
    return [
        "run",
        str(_tasks(tmp)),
        "--base-url",
        DEAD,
        "--model",
        "m",
        "--json",
        str(tmp / "nope" / "r.json"),
    ]


def _run_json_directory(tmp: Path) -> list[str]:
    return ["run", str(_tasks(tmp)), "--base-url", DEAD, "--model", "m", "--json", str(tmp)]


def _db_directory(tmp: Path) -> list[str]:
    return ["run", str(_tasks(tmp)), "--base-url", DEAD, "--model", "m", "--db", str(tmp)]


def _db_not_sqlite(tmp: Path) -> list[str]:
    bad = tmp / "notes.txt"
    bad.write_text("not a database\n" * 20)
    return ["runs", "--db", str(bad)]


def _stored_db(tmp: Path) -> Path:
    db = tmp / "r.db"
    with ResultStore(db) as store:
        store.save_run(RunRecord(run_id="20260101-000000-abc123", created_at="2026-01-01"))
    return db


def _report_html_missing_folder(tmp: Path) -> list[str]:
    return ["report", "--db", str(_stored_db(tmp)), "--html", str(tmp / "nope" / "r.html")]


def _report_csv_directory(tmp: Path) -> list[str]:
    return ["report", "--db", str(_stored_db(tmp)), "--csv", str(tmp)]


def _compare_json_directory(tmp: Path) -> list[str]:
    return ["compare", "abc123", "abc123", "--db", str(_stored_db(tmp)), "--json", str(tmp)]


def _bench_csv_missing_folder(tmp: Path) -> list[str]:
    return ["bench", "--base-url", DEAD, "--model", "m", "--csv", str(tmp / "nope" / "b.csv")]


def _report_missing_db(tmp: Path) -> list[str]:
    return ["report", "--db", str(tmp / "none.db")]


def _unknown_run(tmp: Path) -> list[str]:
    return ["report", "zzz999", "--db", str(_stored_db(tmp))]


def _extra_body_not_json(tmp: Path) -> list[str]:
    return ["run", str(_tasks(tmp)), "--base-url", DEAD, "--model", "m", "--extra-body", "{top_k"]


def _extra_body_list(tmp: Path) -> list[str]:
    return ["run", str(_tasks(tmp)), "--base-url", DEAD, "--model", "m", "--extra-body", "[1]"]


def _header_without_colon(tmp: Path) -> list[str]:
    return ["run", str(_tasks(tmp)), "--base-url", DEAD, "--model", "m", "--header", "X-Team"]


def _no_server(tmp: Path) -> list[str]:
    return ["run", str(_tasks(tmp)), "--base-url", DEAD, "--model", "m", "--retries", "0"]


def _unknown_task(tmp: Path) -> list[str]:
    return ["run", str(_tasks(tmp)), "--base-url", DEAD, "--model", "m", "--task", "nope"]


CASES: dict[str, tuple[Callable[[Path], list[str]], str]] = {
    "non-UTF-8 task file": (_non_utf8_task, "latin1.yaml:1: not UTF-8 text"),
    ".yml task file": (_yml_task_named, "broken.yml:2: YAML syntax error"),
    "suite.yaml is a list": (_suite_list, "suite.yaml:1: must be a mapping"),
    "flags.yaml is a list": (_flags_list, "flags.yaml:1: must map program names"),
    "non-UTF-8 price file": (_non_utf8_prices, "prices.yaml: not UTF-8 text"),
    "run --json into a missing folder": (_run_json_missing_folder, "does not exist; create it"),
    "run --json is a directory": (_run_json_directory, "that is a directory; give a file name"),
    "run --db is a directory": (_db_directory, "--db"),
    "--db is not SQLite": (_db_not_sqlite, "not a usable agentbench database"),
    "report --html into a missing folder": (_report_html_missing_folder, "does not exist"),
    "report --csv is a directory": (_report_csv_directory, "that is a directory"),
    "compare --json is a directory": (_compare_json_directory, "that is a directory"),
    "bench --csv into a missing folder": (_bench_csv_missing_folder, "does not exist"),
    "report on a missing database": (_report_missing_db, "no such database"),
    "unknown run id": (_unknown_run, "no run 'zzz999'"),
    "--extra-body not JSON": (_extra_body_not_json, "--extra-body is not JSON"),
    "--extra-body not an object": (_extra_body_list, "must be a JSON object"),
    "--header without a colon": (_header_without_colon, "use NAME:VALUE"),
    "nothing listens at --base-url": (_no_server, "no server answers at"),
    "--task matches nothing": (_unknown_task, "matches the --task/--category filters (categories:"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_one_line_and_exit_1(case: str, tmp_path: Path) -> None:
    make, needle = CASES[case]
    result = agentbench(*make(tmp_path))
    assert result.returncode == 1, (case, result.stdout, result.stderr)
    line = one_error_line(result)
    assert needle in line, (case, line)


def test_nothing_is_written_when_an_output_path_is_bad(tmp_path: Path) -> None:
    """Output paths are checked before the run: no database is created."""
    db = tmp_path / "fresh.db"
    args = _run_json_missing_folder(tmp_path)
    result = agentbench(*args, "--db", str(db))
    assert result.returncode == 1 and not db.exists()
    shutil.rmtree(tmp_path / "tasks")


def test_version_and_help_fit(tmp_path: Path) -> None:
    version = agentbench("--version")
    assert version.returncode == 0 and version.stdout.startswith("agentbench ")
    for command in (["run"], ["bench"], ["report"], ["routes"], ["routes", "fork"], ["doctor"]):
        helped = agentbench(*command, "--help")
        assert helped.returncode == 0, command
        assert "<bool>" not in helped.stdout, command
        assert max(len(line) for line in helped.stdout.splitlines()) <= 80, command
    assert "--think / --no-think" in agentbench("run", "--help").stdout
