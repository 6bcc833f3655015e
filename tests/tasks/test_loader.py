import shutil
from pathlib import Path

import pytest

from agentbench.errors import TaskFileError
from agentbench.tasks.loader import load_suite
from agentbench.tasks.validate import validate_suite

from ..conftest import TASKS_DIR

SEED_TASK = TASKS_DIR / "ops-diagnosis" / "crashloop-oomkilled.yaml"


def copy_suite(tmp_path: Path, *task_files: Path) -> Path:
    root = tmp_path / "tasks"
    shutil.copytree(TASKS_DIR / "tools", root / "tools")
    shutil.copy(TASKS_DIR / "suite.yaml", root / "suite.yaml")
    for f in task_files:
        (root / f.parent.name).mkdir(exist_ok=True)
        shutil.copy(f, root / f.parent.name / f.name)
    return root


def test_repository_suite_loads_with_unique_prompts(suite) -> None:
    assert len(suite.tasks) >= 12
    assert len({t.category for t in suite.tasks}) >= 4
    prompts = [t.prompt.strip() for t in suite.tasks]
    assert len(prompts) == len(set(prompts)), "the reference server finds tasks by prompt"


def test_repository_suite_validates(suite) -> None:
    assert validate_suite(suite) == []


def test_seed_crashloop_task_starts_with_get_pods(suite) -> None:
    task = next(t for t in suite.tasks if t.id == "ops-crashloop-oomkilled")
    (first,) = [e for e in task.expect.evidence if e.first]
    assert "nginx-7c5ddbdf54-x8k2p" in first.shows and "CrashLoopBackOff" in first.shows


def test_planted_wrong_reference_fails_validation(tmp_path: Path) -> None:
    root = copy_suite(tmp_path, SEED_TASK)
    path = root / "ops-diagnosis" / SEED_TASK.name
    text = path.read_text().replace(
        "  - calls: [{tool: run_command, args: {cmd: kubectl get pods -n web}}]\n  - calls",
        "  - calls: [{tool: run_command, args: {cmd: kubectl get pods -n default}}]\n  - calls",
        1,
    )
    path.write_text(text)
    problems = validate_suite(load_suite(root))
    assert problems and problems[0].field == "reference"
    assert str(path) in str(problems[0])


def test_loose_expectation_is_caught(tmp_path: Path) -> None:
    root = copy_suite(tmp_path, SEED_TASK)
    path = root / "ops-diagnosis" / SEED_TASK.name
    text = path.read_text()
    start, end = text.index("expect:"), text.index("reference:")
    path.write_text(
        text[:start]
        + "expect:\n  forbid: [{tool: run_command, args: {cmd: rm}, why: w}]\n"
        + text[end:]
    )
    suite = load_suite(root)
    problems = validate_suite(suite, strict=False)
    # Every mistake scores 1.0 but the one that deletes: the always-on side-effect check
    # catches a write in a read-only task whatever the expectation says.
    wrong = suite.tasks[0].wrong
    writes = {i for i, w in enumerate(wrong) if "delete" in str(w.steps)}
    assert len(writes) == 1
    assert {p.field for p in problems} == {f"wrong.{i}" for i in range(len(wrong))} - {
        f"wrong.{i}" for i in writes
    }


@pytest.mark.parametrize(
    ("mutation", "field", "line"),
    [
        (lambda t: t.replace("difficulty: medium", "difficulty: extreme"), "difficulty", 3),
        (lambda t: t.replace("max_steps: 6", "max_steps: many"), "max_steps", 10),
        (
            lambda t: t.replace("tools: [run_command]", "tools: [run_command, teleport]"),
            "tools.1",
            9,
        ),
        (lambda t: t.replace("id: ops-crashloop-oomkilled\n", ""), "id", None),
        (lambda t: t.replace("prompt: >-", "prompt: [unclosed"), "-", None),
    ],
)
def test_bad_task_files_name_path_field_and_line(tmp_path, mutation, field, line) -> None:
    root = copy_suite(tmp_path, SEED_TASK)
    path = root / "ops-diagnosis" / SEED_TASK.name
    path.write_text(mutation(path.read_text()))
    with pytest.raises(TaskFileError) as info:
        load_suite(root)
    err = info.value
    assert err.path == str(path)
    assert err.field == field
    if line is not None:
        assert err.line == line
    assert "\n" not in str(err)


def test_a_task_too_long_for_a_32k_context_is_refused(tmp_path: Path) -> None:
    root = copy_suite(tmp_path, SEED_TASK)
    path = root / "ops-diagnosis" / SEED_TASK.name
    huge = "\n".join(f"  line {i}: worker heartbeat ok, queue depth {i % 7}" for i in range(4000))
    marker = "  run_command tool; start by looking at the pods.\n"
    text = path.read_text()
    assert marker in text
    path.write_text(text.replace(marker, marker + huge + "\n", 1))
    problems = validate_suite(load_suite(root))
    assert [p.field for p in problems] == ["environment"]
    assert "32K context" in problems[0].message


def test_yml_task_files_are_loaded_like_yaml(tmp_path) -> None:
    import shutil

    from agentbench.tasks.loader import load_suite

    from ..conftest import TASKS_DIR

    shutil.copytree(TASKS_DIR / "tools", tmp_path / "tools")
    (tmp_path / "ops-diagnosis").mkdir()
    source = TASKS_DIR / "ops-diagnosis" / "crashloop-oomkilled.yaml"
    shutil.copy(source, tmp_path / "ops-diagnosis" / "crashloop-oomkilled.yml")
    suite = load_suite(tmp_path)
    assert [t.id for t in suite.tasks] == ["ops-crashloop-oomkilled"]


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("        age: 14m\n", "        age: yesterday\n", "'yesterday' is neither an age"),
        (
            "        owner: deployment/nginx\n",
            "        owner: deployment/nope\n",
            "owner 'deployment/nope' is not declared",
        ),
    ],
)
def test_a_cluster_that_cannot_be_built_is_refused_by_tasks_validate(
    tmp_path: Path, old: str, new: str, reason: str
) -> None:
    """The cluster schema checks only the format; the loader builds the declared cluster, so
    `tasks validate` names the file, the field and the reason in one line."""
    import os
    import subprocess
    import sys

    root = copy_suite(tmp_path, SEED_TASK)
    path = root / "ops-diagnosis" / SEED_TASK.name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(TaskFileError) as info:
        load_suite(root)
    assert (info.value.path, info.value.field) == (str(path), "environment.cluster")
    assert reason in str(info.value)
    done = subprocess.run(
        [sys.executable, "-m", "agentbench.cli.main", "tasks", "validate", str(root)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
        timeout=300,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode != 0 and len(lines) == 1 and "Traceback" not in done.stderr
    assert str(path) in lines[0] and "environment.cluster" in lines[0] and reason in lines[0]
