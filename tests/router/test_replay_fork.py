"""Counterfactual replay with a live fork (`routes --replay-confidence RUN --fork`) against the
reference server: a replayed threshold sweep matches live `--router confidence:threshold=T`
runs step for step, and pays only for the divergent suffixes."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.metrics.replay import answer_pairs
from agentbench.metrics.routing import same_answer
from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore
from router import FRONTIER, LOCAL

from ..conftest import TASKS_DIR
from ..e2e.cli import agentbench, one_error_line

CATEGORIES = ["--category", "data-lookup", "--category", "error-recovery"]
# all reference steps are above -0.9 and all planted mistakes below -0.6 (refserver.answers)
EVERYTHING, MIDDLE, NOTHING = -0.02, -0.75, -5.0


def invoke(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output + repr(result.exception)
    return result.output


def run_ids(db) -> set[str]:
    with ResultStore(db) as store:
        return {r.run_id for r in store.runs(kind="run")}


def new_run(db, *args: str) -> str:
    """Run `agentbench run ARGS`; its run id (created_at has whole seconds: runs may tie)."""
    before = run_ids(db)
    invoke("run", *args)
    (made,) = run_ids(db) - before
    return made


def test_fork_replay_matches_live_confidence_runs(refserver_factory, tmp_path):
    server = refserver_factory(Schedule(ttft_s=0.002, rate_tok_s=20000.0))
    db = str(tmp_path / "r.db")
    targets = [
        "--base-url",
        server.base_url,
        "--model",
        "noisy-0.5",
        "--frontier-base-url",
        server.base_url,
        "--frontier-model",
        "oracle",
    ]
    common = [str(TASKS_DIR), *targets, *CATEGORIES, "--db", db, "--quiet", "--concurrency", "8"]
    recorded = new_run(db, *common, "--record-both")
    with ResultStore(db) as store:
        rec_eps = store.episodes(recorded)
    assert rec_eps and all(
        s.mean_logprob is not None for e in rec_eps for s in e.steps if s.target == LOCAL
    )
    # a local answer that differs from the oracle's is a planted mistake: unsure
    pairs = [(a, b) for e in rec_eps for a, b in answer_pairs(e)]
    assert any(not same_answer(a, b) for a, b in pairs)
    assert all(a.mean_logprob < -0.6 for a, b in pairs if not same_answer(a, b))
    live = {}
    for t in (EVERYTHING, MIDDLE, NOTHING):
        run_id = new_run(db, *common, "--router", f"confidence:threshold={t}")
        with ResultStore(db) as store:
            live[t] = {(e.task_id, e.repeat): e for e in store.episodes(run_id)}
    out = tmp_path / "fork.json"
    printed = invoke(
        "routes",
        "fork",
        recorded,
        "--db",
        db,
        "--thresholds",
        f"{EVERYTHING},{MIDDLE},{NOTHING}",
        *targets,
        "--concurrency",
        "8",
        "--json",
        str(out),
    )
    assert "live forks" in printed
    points = {p["threshold"]: p for p in json.loads(out.read_text())}
    assert set(points) == {EVERYTHING, MIDDLE, NOTHING}

    rates = {}
    for t, point in points.items():
        live_steps_total = 0
        for row in point["per_episode"]:
            episode = live[t][(row["task_id"], row["repeat"])]
            kept = [s.target for s in episode.steps if not s.discarded]
            live_steps_total += len(kept)
            stop = len(kept) if row["diverged_at"] is None else row["diverged_at"] + 1
            assert row["targets"][:stop] == kept[:stop], (t, row["task_id"])
            # the reference server is deterministic: the fork is the live episode
            assert row["targets"] == kept, (t, row["task_id"])
            assert row["score"] == episode.score and row["status"] == episode.status
            assert row["replayed_steps"] + row["live_steps"] == len(kept)
        assert point["replayed_steps"] + point["live_steps"] == point["steps"]
        assert point["live_steps"] < live_steps_total
        live_success = sum(e.success for e in live[t].values()) / len(live[t])
        assert point["success"] == live_success
        rates[t] = point["escalation_rate"]
    assert rates[EVERYTHING] > 0.95 and rates[NOTHING] < 0.05
    assert rates[NOTHING] < rates[MIDDLE] < rates[EVERYTHING]
    # escalating everything never leaves the recorded (frontier) trajectory
    assert points[EVERYTHING]["live_steps"] == 0
    assert points[EVERYTHING]["diverged_episodes"] == 0
    assert points[NOTHING]["diverged_episodes"] > 0 and points[NOTHING]["live_steps"] > 0
    assert all(
        r["targets"] and set(r["targets"]) <= {LOCAL, FRONTIER}
        for p in points.values()
        for r in p["per_episode"]
    )


def test_fork_needs_a_recorded_run_and_targets(tmp_path):
    db = tmp_path / "r.db"
    with ResultStore(db):
        pass
    result = agentbench("routes", "fork", "--db", str(db))
    assert result.returncode == 2 and "Missing argument" in result.stderr  # the RUN_ID
    result = agentbench("routes", "fork", "x", "--db", str(db), "--thresholds", "-0.5")
    assert result.returncode == 1
    assert "name the local model" in one_error_line(result)
    result = agentbench("routes", "fork", "x", "--db", str(db), "--thresholds", "0.5")
    assert result.returncode == 1
    assert "log-probability <= 0" in one_error_line(result)
