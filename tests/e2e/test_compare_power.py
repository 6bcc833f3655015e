"""`agentbench compare … --effect`: the power figures a user sees, through the real entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..report.runs import make_run, refserver, small_suite
from .cli import agentbench


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    tasks = small_suite(tmp_path_factory.mktemp("tasks"))
    db = tmp_path_factory.mktemp("power") / "r.db"
    with refserver(tasks) as server:
        a = make_run(server, tasks, db, "oracle", repeats=2)
        b = make_run(server, tasks, db, "noisy-0.5", repeats=2)
    return db, a, b


def test_compare_prints_the_mde_and_a_plan(two_runs: tuple[Path, str, str]) -> None:
    db, a, b = two_runs
    json_out = str(db) + ".json"
    out = agentbench("compare", a, b, "--db", str(db), "--effect", "5pp", "--json", json_out)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "the smallest success-rate difference this pair could resolve" in text
    assert "To resolve 5.0 pp:" in text and "tasks x 2 repeat(s)" in text
    import json

    power = json.loads(Path(json_out).read_text())["pairs"][0]["power"]
    assert power["effect"] == pytest.approx(0.05) and power["min_detectable_effect"] > 0.05
    assert [p["repeats"] for p in power["plan"]] == [1, 3, 5]
    needed = [p["tasks"] for p in power["plan"]]
    assert needed == sorted(needed, reverse=True)


@pytest.mark.parametrize("effect", ["five", "0pp", "200pp"])
def test_a_bad_effect_is_one_line(two_runs: tuple[Path, str, str], effect: str) -> None:
    db, a, b = two_runs
    out = agentbench("compare", a, b, "--db", str(db), "--effect", effect)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and "--effect" in out.stderr
