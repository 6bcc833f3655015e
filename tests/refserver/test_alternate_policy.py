"""The reference server's `alternate` policy plays each task's first alternate over HTTP."""

import json

from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.refserver.answers import choose_step, parse_policy

from ..conftest import TASKS_DIR


def test_alternate_policy_plays_the_first_alternate(suite) -> None:
    assert parse_policy("alternate", 0.2) == ("alternate", 0.2)
    task = next(t for t in suite.tasks if t.alternates)
    steps = task.alternates[0].steps
    assert [choose_step(task, "alternate", 0.0, 0, i) for i in range(len(steps))] == steps
    bare = task.model_copy(update={"alternates": []})
    assert choose_step(bare, "alternate", 0.0, 0, 0) == task.reference[0]


def test_alternates_score_one_through_the_http_path(refserver, tmp_path, suite) -> None:
    categories = sorted({t.category for t in suite.tasks if t.alternates})
    out = tmp_path / "o.json"
    args = ["run", str(TASKS_DIR), "--base-url", refserver.base_url, "--model", "alternate"]
    for category in categories:
        args += ["--category", category]
    result = CliRunner().invoke(
        app, [*args, "--db", str(tmp_path / "r.db"), "--json", str(out), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    episodes = json.loads(out.read_text())["episodes"]
    assert len(episodes) == sum(t.category in categories for t in suite.tasks) > 0
    assert all(e["score"] == 1.0 for e in episodes), [
        (e["task_id"], e.get("explanation")) for e in episodes if e["score"] != 1.0
    ]
