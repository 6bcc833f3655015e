"""Hostile family files through the real CLI: each attack of the red team that once got through
(tests/redteam_findings.md, "Task families") is refused in one line, no traceback, exit 1, in
bounded time and memory."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import yaml

from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule
from agentbench.tasks.families import load_tier
from agentbench.tasks.families.params import MAX_DRAWS, MAX_PARAMS
from agentbench.tasks.families.template import MAX_VARIANT_CHARS
from agentbench.tasks.families.tier import MAX_TIER_VALUES
from agentbench.tasks.loader import MAX_FILE_BYTES

from ..conftest import TASKS_DIR
from ..e2e.cli import agentbench, one_error_line

FAMILY = TASKS_DIR / "families" / "error-recovery" / "logs-unknown-flag.yaml"
HAND = TASKS_DIR / "error-recovery" / "kubectl-logs-wrong-flag.yaml"
PROMPT = "Show me the last {{count}} lines of {{app}} in {{ns}} (--{{flag}}) "


def family(**top: Any) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(FAMILY.read_text())
    data.update(top)
    return data


def suite(tmp_path: Path, *families: dict[str, Any]) -> Path:
    """tools, suite.yaml, one hand task and the given family files (error-recovery)."""
    root = tmp_path / "tasks"
    shutil.copytree(TASKS_DIR / "tools", root / "tools")
    shutil.copy(TASKS_DIR / "suite.yaml", root / "suite.yaml")
    (root / "error-recovery").mkdir()
    shutil.copy(HAND, root / "error-recovery")
    (root / "families" / "error-recovery").mkdir(parents=True)
    for data in families:
        target = root / "families" / "error-recovery" / f"{data['family']}.yaml"
        target.write_text(yaml.safe_dump(data, sort_keys=False))
    return root


def refused(root: Path, *extra: str, timeout: float = 120) -> str:
    result = agentbench("tasks", "list", str(root), "--suite", "full", *extra, timeout=timeout)
    assert result.returncode == 1, result.stderr
    return one_error_line(result)


def test_a_c_spec_out_of_range_is_one_line_not_an_internal_error(tmp_path: Path) -> None:
    data = family()
    data["params"]["big"] = {"int": [10**15, 10**15]}
    data["task"]["prompt"] = PROMPT + "{{big:c}}"
    line = refused(suite(tmp_path, data))
    assert "field 'task.prompt'" in line and "{{big:c}}" in line and "internal" not in line


def test_a_drawn_block_referenced_thousands_of_times_is_refused_while_it_is_filled(
    tmp_path: Path,
) -> None:
    # 20,000 references to a 140 KB block: 2.8 GB per variant; it took 5.2 GB before the cap
    data = family()
    data["params"]["noise"] = {"lines": {"count": 2000, "fields": {"r": {"hex": 64}},
                                         "line": "x {{r}}"}}
    data["task"]["prompt"] = PROMPT + "{{noise}}" * 20000
    started = time.monotonic()
    line = refused(suite(tmp_path, data))
    assert f"over {MAX_VARIANT_CHARS:,} characters" in line and "'task.prompt'" in line
    assert time.monotonic() - started < 60


def test_draws_multiplied_by_lines_and_fields_are_refused_in_bounded_time(tmp_path: Path) -> None:
    # 30 blocks x 2,000 lines x 30 fields x 64 hex digits: 115 M draws, minutes before the cap
    data = family()
    for i in range(30):
        fields = {f"f{j}": {"hex": 64} for j in range(30)}
        data["params"][f"n{i}"] = {"lines": {"count": 2000, "fields": fields, "line": "x"}}
    started = time.monotonic()
    line = refused(suite(tmp_path, data))
    assert f"over {MAX_DRAWS:,} random draws" in line
    assert time.monotonic() - started < 60


def test_more_params_than_the_cap_are_refused(tmp_path: Path) -> None:
    data = family()
    data["params"].update({f"p{i}": {"int": [1, 9]} for i in range(MAX_PARAMS + 1)})
    assert f"at most {MAX_PARAMS}" in refused(suite(tmp_path, data))


def test_many_families_each_under_its_cap_are_refused_at_the_tier_cap(tmp_path: Path) -> None:
    # 40 families x 40 variants of three 240 KB blocks: 1.3 GB peak before the tier cap
    many = []
    for i in range(40):
        data = family(family=f"big-{i}", variants=40)
        data["params"]["blob"] = {"pick": ["z" * 120]}
        data["params"]["noise"] = {"lines": {"count": 2000, "line": "{{blob}}"}}
        data["task"]["prompt"] = PROMPT + "{{variant}} " + "{{noise}}" * 3
        many.append(data)
    line = refused(suite(tmp_path, *many))
    assert f"the full tier expands to over {MAX_TIER_VALUES:,} values" in line


def test_a_huge_family_file_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    root = suite(tmp_path)
    target = root / "families" / "error-recovery" / "huge.yaml"
    target.write_text("family: huge\ndescription: '" + "a" * MAX_FILE_BYTES + "'\n")
    line = refused(root)
    assert "huge.yaml" in line and f"over {MAX_FILE_BYTES:,} bytes" in line


def test_a_family_file_linking_outside_the_task_directory_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "host.yaml"
    secret.write_text("family: x\ncategory: HOST-SECRET-VALUE\n")
    root = suite(tmp_path)
    (root / "families" / "error-recovery" / "x.yaml").symlink_to(secret)
    line = refused(root)
    assert "outside the task directory" in line and "HOST-SECRET-VALUE" not in line


def test_a_resume_refuses_a_tampered_stored_seed_in_one_line(tmp_path: Path) -> None:
    root, db = suite(tmp_path, family()), tmp_path / "r.db"
    tier = load_tier(root, "full", seed=1, variants=1)
    server = RefServer(RefServerState(tier.tasks, Schedule(ttft_s=0.05, rate_tok_s=2000.0)))
    server.start()
    try:
        args = ("--base-url", server.base_url, "--db", str(db), "--quiet")
        done = agentbench("run", str(root), "--suite", "full", "--variants", "1",
                          "--model", "oracle", *args, timeout=300)
        assert done.returncode == 0, done.stderr
        for value in ("abc", -5, None, 2**70):
            with sqlite3.connect(db) as conn:
                (record,) = conn.execute("SELECT record FROM runs").fetchone()
                data = json.loads(record)
                data["config"]["task_seed"], data["status"] = value, "interrupted"
                conn.execute("UPDATE runs SET status='interrupted', record=?", (json.dumps(data),))
            again = agentbench("run", str(root), "--resume", "latest", *args)
            assert again.returncode == 1, again.stderr
            line = one_error_line(again)
            assert "stores task_seed" in line and "start a new run" in line, line
        # another legal seed would draw other variants: the drawn tasks' hashes refuse it
        with sqlite3.connect(db) as conn:
            (record,) = conn.execute("SELECT record FROM runs").fetchone()
            data = json.loads(record)
            data["config"]["task_seed"], data["status"] = 2, "interrupted"
            conn.execute("UPDATE runs SET status='interrupted', record=?", (json.dumps(data),))
        again = agentbench("run", str(root), "--resume", "latest", *args)
        assert again.returncode == 1, again.stderr
        assert "variants draw differently" in one_error_line(again), one_error_line(again)
    finally:
        server.stop()
