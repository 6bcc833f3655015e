"""--record-both runs and the counterfactual replay of confidence thresholds."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.metrics.replay import replay_confidence
from agentbench.records import RunRecord
from agentbench.runner import RunConfig, Runner, now_iso
from agentbench.store import ResultStore
from router import FRONTIER, LOCAL, build_policy

from ..e2e.cli import agentbench, one_error_line
from .conftest import FIXTURE_TASKS, FakeModel
from .test_routed_runs import pricing


async def record_both_run(router_suite, db):
    # the local model answers step 2 with a call to an unknown tool, and is unsure of it
    local = FakeModel(
        router_suite,
        "small",
        logprob=-0.1,
        bad_steps=frozenset({1}),
        low_logprob_steps=frozenset({1}),
    )
    big = FakeModel(router_suite, "big")
    factory = build_policy("record-both")
    cfg = RunConfig(
        target="fake",
        model="small",
        base_url=local.base_url,
        router="record-both",
        frontier_model="big",
        logprobs=True,
    )
    with ResultStore(db) as store:
        runner = Runner(router_suite, {LOCAL: local, FRONTIER: big}, factory, cfg, store, pricing())
        store.save_run(RunRecord(run_id="rb", created_at=now_iso(), config=cfg.model_dump()))
        episodes = []
        for task in router_suite.tasks:
            episode = await runner.run_episode("rb", task, 0)
            store.add_episode(episode)
            episodes.append(episode)
    assert all(r.logprobs for r in local.requests)
    return episodes


async def test_record_both_keeps_the_frontier_and_replays_thresholds(router_suite, tmp_path):
    episodes = await record_both_run(router_suite, tmp_path / "r.db")
    for e in episodes:
        assert e.status == "ok"
        kept = [s for s in e.steps if not s.discarded]
        assert all(s.target == FRONTIER for s in kept)
        assert all(s.target == LOCAL for s in e.steps if s.discarded)
        assert len(e.steps) == 2 * len(kept)
    decisions = sum(len(e.steps) // 2 for e in episodes)
    everything, selective, nothing = replay_confidence(episodes, [-0.05, -0.5, -5.0])
    assert everything.rate_steps == 1.0 and everything.accuracy_low == 1.0
    assert everything.kept_agree is None
    assert selective.rate_steps == pytest.approx(3 / decisions)  # step 2 of 3 episodes
    assert selective.kept_agree == 1.0 and selective.exact_episodes == 3
    assert selective.accuracy_low == selective.accuracy_high == 1.0
    assert nothing.rate_steps == 0.0 and nothing.exact_episodes == 0
    assert (nothing.accuracy_low, nothing.accuracy_high) == (0.0, 1.0)
    local_cost = sum(s.cost_usd for e in episodes for s in e.steps if s.discarded)
    all_cost = sum(s.cost_usd for e in episodes for s in e.steps)
    assert nothing.cost_usd == pytest.approx(local_cost)
    assert everything.cost_usd == pytest.approx(all_cost)
    assert nothing.cost_usd < selective.cost_usd < everything.cost_usd


async def test_routes_replay_cli(router_suite, tmp_path):
    db = tmp_path / "r.db"
    await record_both_run(router_suite, db)
    out = tmp_path / "replay.json"
    result = CliRunner().invoke(
        app,
        ["routes", "replay", "rb", "--db", str(db), "--thresholds", "-0.5,-5", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    points = json.loads(out.read_text())
    assert [p["threshold"] for p in points] == [-0.5, -5.0]
    assert "Confidence thresholds replayed" in result.output
    bad = agentbench("routes", "replay", "rb", "--db", str(db), "--thresholds", "a,b")
    assert bad.returncode == 1
    assert "--thresholds a,b: give numbers" in one_error_line(bad)


def test_record_both_flag_conflicts_with_a_router(tmp_path):
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(FIXTURE_TASKS),
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "x",
            "--record-both",
            "--router",
            "plan-execute",
            "--db",
            str(tmp_path / "d"),
        ],
    )
    assert result.exit_code != 0
    assert "--record-both replaces the router" in str(result.exception) + result.output
