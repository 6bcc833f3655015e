"""The `lines` parameter kind (the drawn filler of long-context families) and the families of
long-context, multi-tool and planning that use it: the line that matters is in every variant
exactly once, at a drawn place, and a bad declaration is one line naming its field."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from agentbench.errors import TaskFileError
from agentbench.tasks.families import load_families, parse_family
from agentbench.tasks.families.lines import MAX_LINES
from agentbench.tasks.families.params import ParamError, draw, parse_params

from ..conftest import TASKS_DIR
from ..e2e.cli import agentbench, one_error_line

MINE = ("long-context", "multi-tool", "planning")
LOG = {
    "count": [40, 60],
    "fields": {"hh": {"int": [0, 23]}, "rid": {"hex": 8}, "st": {"pick": [200, 404]}},
    "line": [
        "2026-11-29T{{hh:02d}}:00 GET /a {{st}} rid={{rid}}",
        "2026-11-29T{{hh:02d}}:30 GET /b 200",
    ],
    "insert": ["2026-11-29T{{kh:02d}}:15 POST /pay 502 rid={{key}}"],
    "sort": True,
}


def drawn(spec: dict[str, Any], seed: int, **earlier: Any) -> tuple[str, dict[str, Any]]:
    params = parse_params(
        {"kh": {"int": [3, 20]}, "key": {"hex": 12}, "noise": {"lines": spec}}, "params"
    )
    values: dict[str, Any] = dict(earlier)
    draw(params, random.Random(seed), values, "params")
    return str(values["noise"]), values


def test_lines_draw_per_line_insert_once_and_sort_by_text() -> None:
    text, values = drawn(LOG, 3)
    lines = text.splitlines()
    assert text.endswith("\n") and 41 <= len(lines) <= 61
    key = f"2026-11-29T{values['kh']:02d}:15 POST /pay 502 rid={values['key']}"
    assert lines.count(key) == 1
    assert lines == sorted(lines), "sort: true puts the inserted line where its drawn time is"
    rids = re.findall(r"rid=([0-9a-f]{8})$", text, re.M)
    assert len(set(rids)) > len(rids) // 2, "fields are drawn afresh for every line"
    assert {int(m) for m in re.findall(r"GET /a (\d+)", text)} <= {200, 404}


def test_lines_are_the_same_for_a_seed_and_move_with_it() -> None:
    assert drawn(LOG, 11)[0] == drawn(LOG, 11)[0]
    unsorted = {**LOG, "sort": False}
    places = set()
    for seed in range(12):
        text, _ = drawn(unsorted, seed)
        places.add(text.splitlines().index(next(x for x in text.splitlines() if "/pay" in x)))
    assert len(places) > 6, "the inserted line lands at a drawn position"


@pytest.mark.parametrize(
    ("change", "field", "says"),
    [
        ({"insert": ["{{hh}} x"]}, "params.noise.lines.insert.0", "names no earlier parameter"),
        ({"line": ["{{nope}}"]}, "params.noise.lines.line.0", "names no field"),
        ({"count": [1, MAX_LINES + 1]}, "params.noise.lines.count", "<= 2000"),
        ({"count": "many"}, "params.noise.lines.count", "number of lines"),
        ({"color": 1}, "params.noise.lines.color", "unknown key"),
        ({"line": []}, "params.noise.lines.line", "1 to 200 one-line templates"),
        ({"line": ["a\nb"]}, "params.noise.lines.line", "one-line templates"),
        ({"fields": {"kh": {"int": [1, 2]}}}, "params.noise.lines.fields.kh", "declared twice"),
        (
            {"fields": {"x": {"lines": {"count": 1, "line": "a"}}}},
            "params.noise.lines.fields",
            "cannot",
        ),
        ({"line": ["{{hh:9999d}}"]}, "params.noise.lines.line.0", "width above 64"),
        ({"sort": "yes"}, "params.noise.lines.sort", "true or false"),
    ],
)
def test_a_bad_lines_declaration_names_its_field(
    change: dict[str, Any], field: str, says: str
) -> None:
    with pytest.raises(ParamError) as caught:
        drawn({**LOG, **change}, 1)
    assert caught.value.field == field and says in str(caught.value)


def test_lines_over_the_size_bound_are_refused() -> None:
    huge = {"count": MAX_LINES, "line": "x" * 4000}
    with pytest.raises(ParamError, match="over 262,144 characters"):
        drawn(huge, 1)


def test_the_cli_refuses_a_bad_lines_family_in_one_line(tmp_path: Path) -> None:
    root = tmp_path / "tasks"
    shutil.copytree(TASKS_DIR / "tools", root / "tools")
    shutil.copy(TASKS_DIR / "suite.yaml", root / "suite.yaml")
    (root / "long-context").mkdir()
    shutil.copy(TASKS_DIR / "long-context" / "access-log-5xx.yaml", root / "long-context")
    family = yaml.safe_load(
        (TASKS_DIR / "families/long-context/access-log-one-5xx.yaml").read_text()
    )
    family["params"]["noise"]["lines"]["insert"].append("{{nrid}} leaks a per-line field")
    target = root / "families" / "long-context" / "access-log-one-5xx.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(yaml.safe_dump(family, sort_keys=False))
    result = agentbench("tasks", "list", str(root), "--suite", "full")
    assert result.returncode == 1
    line = one_error_line(result)
    assert "access-log-one-5xx.yaml" in line and "params.noise.lines.insert.3" in line


def test_parse_family_reports_the_file_for_a_lines_error(tmp_path: Path) -> None:
    path = TASKS_DIR / "families/long-context/kernel-oom-victim.yaml"
    data = yaml.safe_load(path.read_text())
    data["params"]["noise"]["lines"]["count"] = [10, 5]
    with pytest.raises(TaskFileError, match=r"params\.noise\.lines\.count"):
        parse_family(data, path, "long-context")


def mine(seed: int) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for family in load_families(TASKS_DIR):
        if family.category in MINE:
            out[family.family] = family.generate(seed)
    return out


@pytest.mark.parametrize("seed", [1, 2, 9])
def test_the_line_that_matters_is_in_every_long_log_once(seed: int) -> None:
    tasks = mine(seed)
    for task in tasks["access-log-one-5xx"]:
        log = task.environment.files["/var/log/nginx/api-access.log"]
        text = log if isinstance(log, str) else log.content
        statuses = re.findall(r'" (\d{3}) ', text)
        assert sum(s.startswith("5") for s in statuses) == 1, task.id
        assert len(statuses) >= 190
        assert task.expect.answer.json_fields["status"] in {500, 502, 503, 504}
    for task in tasks["kernel-oom-victim"]:
        text = task.environment.files["/var/log/kern.log"]
        assert len(re.findall(r"\] Out of memory: Killed process", text)) == 1, task.id
        assert len(re.findall(r"Memory cgroup out of memory: Killed process", text)) == 1, task.id
        assert text.splitlines() == sorted(text.splitlines())
    for task in tasks["auth-log-guessed-login"]:
        text = task.environment.files["/var/log/auth.log"]
        assert len(re.findall(r"Accepted password for", text)) == 1, task.id
        user, ip = task.expect.answer.json_fields["user"], task.expect.answer.json_fields["ip"]
        assert len(re.findall(rf"Failed password for {user} from {re.escape(ip)} ", text)) == 4


def test_my_families_fill_their_categories_past_25_with_drawn_cases() -> None:
    tasks = mine(1)
    hand = {c: len(list((TASKS_DIR / c).glob("*.yaml"))) for c in MINE}
    for category in MINE:
        variants = sum(len(v) for k, v in tasks.items() if v[0].category == category)
        assert hand[category] + variants >= 25, category
    assert all(len(v) >= 12 for v in tasks.values())
    for name, variants in tasks.items():
        wrong = {w.name for w in variants[0].wrong}
        assert len(wrong) >= 3 and "wrong-entity" in wrong, name
        assert any(w.startswith("invented-") for w in wrong), name
        assert len(variants[0].alternates) >= 2, name
    causes = {t.expect.answer.facts[1].is_ for t in tasks["replica-log-fault"]}
    assert causes == {"timeout", "pool-exhausted", "cert-expired"}
    failing = {t.expect.answer.facts[0].subject for t in tasks["replica-log-fault"]}
    assert failing == {"replica-1", "replica-2", "replica-3"}
