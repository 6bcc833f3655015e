"""`agentbench run --router ...` then `agentbench routes` end to end over HTTP (reference server:
`noisy-0.5` plays the local model, `oracle` the frontier)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore

from ..e2e.cli import agentbench, one_error_line
from .conftest import FIXTURE_TASKS

ROUTERS = [
    "always-local",
    "always-frontier",
    "plan-execute",
    "random:p=0.5,seed=0",
    "cascade-after-failure:failures=1",
]


@pytest.fixture
def ref(router_suite):
    with RefServer(
        RefServerState(router_suite.tasks, Schedule(ttft_s=0.005, rate_tok_s=5000.0))
    ) as server:
        yield server


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


def test_routers_then_routes_report(ref, tmp_path):
    db = str(tmp_path / "r.db")
    prices = tmp_path / "prices.yaml"
    prices.write_text(
        "models:\n  oracle: {input: 15, cached_input: 1.5, output: 75, as_of: test}\n"
    )
    for router in ROUTERS:
        result = invoke(
            "run",
            str(FIXTURE_TASKS),
            "--base-url",
            ref.base_url,
            "--model",
            "noisy-0.5",
            "--frontier-base-url",
            ref.base_url,
            "--frontier-model",
            "oracle",
            "--router",
            router,
            "--repeats",
            "2",
            "--concurrency",
            "4",
            "--db",
            db,
            "--prices",
            str(prices),
            "--local-usd-per-hour",
            "2",
            "--quiet",
            "--json",
            str(tmp_path / "run.json"),
        )
        assert result.exit_code == 0, result.output
        summary = json.loads((tmp_path / "run.json").read_text())["summary"]
        assert summary["cost_usd"] is not None and summary["cost_usd"] > 0
    out = tmp_path / "routes.json"
    result = invoke("routes", "--db", db, "--json", str(out))
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert len(report["runs"]) == len(ROUTERS) and report["keys"] == 6
    by_router = {p["router"]: p for p in report["runs"]}
    assert by_router["always-frontier"]["accuracy"] == 1.0
    assert by_router["always-local"]["escalation"]["rate_calls"] == 0.0
    assert by_router["always-frontier"]["escalation"]["share_dollars"] == 1.0
    plan = by_router["plan-execute"]
    assert plan["escalation"]["triggers"].get("plan", 0) > 0
    assert "of calls escalated" in plan["sentence"] and "vs always-frontier" in plan["sentence"]
    assert plan["vs_random"]["measured"]["router"] == "random:p=0.5,seed=0"
    # the baselines differ (noisy-0.5 local, oracle frontier): every router family has an APGR
    assert set(report["apgr"]) == {"plan-execute", "random", "cascade-after-failure"}
    assert "Pareto" in result.output and "vs always-frontier" in result.output
    # re-pricing at report time: without the oracle price every router run is unpriced
    missing = agentbench("routes", "--db", db, "--prices", str(tmp_path / "none.yaml"))
    assert missing.returncode == 1
    assert "none.yaml: cannot read it" in one_error_line(missing)
    empty = tmp_path / "empty.yaml"
    empty.write_text("models: {}\n")
    result = invoke(
        "routes",
        "--db",
        db,
        "--prices",
        str(empty),
        "--local-usd-per-hour",
        "1",
        "--json",
        str(out),
    )
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    for p in report["runs"]:  # any call to the (now unpriced) oracle leaves the run unpriced
        assert (p["cost_usd"] is None) == (p["escalation"]["frontier_calls"] > 0), p["router"]
    assert "unpriced" in result.output
    # naming runs explicitly works too, with a unique prefix
    with ResultStore(db) as store:
        ids = [r.run_id for r in store.runs()][:2]
    result = invoke("routes", "--run", ids[0], "--run", ids[1][:-3], "--db", db)
    assert result.exit_code == 0, result.output
    assert "over 3 tasks" in result.output


def test_routes_user_errors(tmp_path):
    result = agentbench("routes", "--db", str(tmp_path / "nothing.db"))
    assert result.returncode == 1
    assert "no such database" in one_error_line(result)
    result = agentbench("routes", "--db", str(tmp_path / "nothing.db"), "--metric", "speed")
    assert result.returncode == 2  # a usage error, named by the option parser
    assert "Invalid value for '--metric'" in result.stderr and "Traceback" not in result.stderr


def test_run_rejects_bad_router_specs(tmp_path):
    result = agentbench(
        "run",
        str(FIXTURE_TASKS),
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "x",
        "--router",
        "random:p=7",
        "--db",
        str(tmp_path / "r.db"),
    )
    assert result.returncode == 1
    assert "probability" in one_error_line(result)
