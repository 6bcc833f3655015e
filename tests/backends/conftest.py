"""A private copy of a few tasks, so that end-to-end runs do not race edits of tasks/."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agentbench.tasks.loader import TaskSuite, load_suite


def copy_tasks(suite: TaskSuite, target: Path, n: int = 3) -> TaskSuite:
    """suite.yaml, tools/ and the first n task files of `suite`, loaded from `target`."""
    target.mkdir(parents=True, exist_ok=True)
    for name in ("suite.yaml",):
        if (suite.root / name).exists():
            shutil.copy(suite.root / name, target / name)
    shutil.copytree(suite.root / "tools", target / "tools", dirs_exist_ok=True)
    for task in suite.tasks[:n]:
        source = suite.paths[task.id]
        dest = target / source.relative_to(suite.root)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, dest)
    return load_suite(target)


@pytest.fixture
def mini_suite(suite: TaskSuite, tmp_path: Path) -> TaskSuite:
    return copy_tasks(suite, tmp_path / "tasks")
