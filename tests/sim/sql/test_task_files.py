"""Task-file SQL is checked when the file loads (issue 21): a view, a column type or a name
that would paste more SQL is refused by `tasks validate` with one line, and writes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TASKS_DIR
from tests.tasks.test_loader import copy_suite


def _validate(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])}
    return subprocess.run(
        [sys.executable, "-m", "agentbench.cli.main", "tasks", "validate", str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("anchor", "inserted", "field"),
    [
        (
            "    read_only: true\n",
            "    views:\n      leak: \"SELECT 1; COPY (SELECT 1) TO '{out}'\"\n",
            "views",
        ),
        (
            "          sku: text\n",
            "          leak: \"int); COPY (SELECT 1) TO '{out}'; --\"\n",
            "columns",
        ),
        (
            "    read_only: true\n",
            "    views:\n      \"x; COPY (SELECT 1) TO '{out}'\": SELECT 1\n",
            "views",
        ),
    ],
)
def test_task_file_sql_is_checked_when_the_file_loads(
    tmp_path: Path, anchor: str, inserted: str, field: str
) -> None:
    task_file = TASKS_DIR / "data-lookup" / "inventory-low-stock.yaml"
    root = copy_suite(tmp_path, task_file)
    copied = root / "data-lookup" / task_file.name
    out = tmp_path / "leaked.csv"
    text = copied.read_text()
    assert anchor in text
    copied.write_text(text.replace(anchor, anchor + inserted.format(out=out), 1))
    done = _validate(root)
    lines = done.stderr.strip().splitlines()
    assert done.returncode != 0 and len(lines) == 1 and "Traceback" not in done.stderr
    assert str(copied) in lines[0] and "environment.sql." in lines[0] and field in lines[0]
    assert not out.exists()
