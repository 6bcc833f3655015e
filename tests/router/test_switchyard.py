"""A real NeMo Switchyard router as a black box behind the local endpoint.

Switchyard (nemo-switchyard, a Rust server in-process, loopback only) routes each call at random
(seeded, weighted) between two reference-server models: `noisy-0.5` as the efficient target and
`oracle` as the capable one. agentbench attributes each call by the served model (the
`x-model-router-selected-model` header) and the attribution must match Switchyard's own
`/v1/stats`, call for call and token for token.
"""

from __future__ import annotations

import json
from collections import Counter

import httpx
import pytest
from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore

from .conftest import FIXTURE_TASKS

pytestmark = pytest.mark.switchyard

ROUTES_TOML = """
schema_version = 1

[llm_clients.ref]
format = "openai_chat"
base_url = "{base_url}"

[targets.efficient]
id = "noisy-0.5"
llm_client = "ref"

[targets.capable]
id = "oracle"
llm_client = "ref"

[routes.auto]
id = "auto"
type = "random"
targets = ["efficient", "capable"]
weights = [0.7, 0.3]
seed = 7
"""


@pytest.fixture
def switchyard(router_suite, tmp_path):
    server_mod = pytest.importorskip("switchyard_rust.server",
                                     reason="nemo-switchyard is not installed")
    with RefServer(RefServerState(router_suite.tasks, Schedule(ttft_s=0.005,
                                                               rate_tok_s=5000.0))) as ref:
        config = tmp_path / "routes.toml"
        config.write_text(ROUTES_TOML.format(base_url=ref.base_url))
        server = server_mod.Server(str(config), port=0)  # binds 127.0.0.1 only
        try:
            yield ref, server.base_url.rstrip("/")
        finally:
            server.close()


def test_external_attribution_matches_switchyard_stats(switchyard, tmp_path):
    ref, sy = switchyard
    db, out = str(tmp_path / "r.db"), tmp_path / "run.json"
    prices = tmp_path / "prices.yaml"
    prices.write_text("models:\n  oracle: {input: 15, cached_input: 1.5, output: 75, "
                      "as_of: test}\n")
    common = ["--db", db, "--prices", str(prices), "--local-usd-per-hour", "2", "--quiet",
              "--repeats", "3", "--concurrency", "2"]
    result = CliRunner().invoke(app, [
        "run", str(FIXTURE_TASKS), "--base-url", f"{sy}/v1", "--model", "auto",
        "--router", "external:frontier_models=oracle", "--json", str(out), *common])
    assert result.exit_code == 0, result.output
    stats = httpx.get(f"{sy}/v1/stats", timeout=10).json()
    data = json.loads(out.read_text())
    steps = [s for e in data["episodes"] for s in e["steps"]]
    served = Counter(s["model"] for s in steps)
    calls = {m: v["calls"] for m, v in stats["models"].items()}
    assert served == calls, (served, calls)
    assert calls.get("oracle", 0) > 0 and calls.get("noisy-0.5", 0) > 0  # both routes used
    for s in steps:
        assert s["requested_model"] == "auto"
        assert s["server_counters"]["selected_model"] == s["model"]
        assert s["target"] == ("frontier" if s["model"] == "oracle" else "local")
        assert s["router"]["reason"] == f"external: served by {s['model']}"
    for model, v in stats["models"].items():  # token for token
        mine = [s for s in steps if s["model"] == model]
        assert v["prompt_tokens"] == sum(s["prompt_tokens"] for s in mine)
        assert v["completion_tokens"] == sum(s["output_tokens"] for s in mine)
    summary = data["summary"]
    assert summary["escalation_rate_calls"] == pytest.approx(calls["oracle"] / len(steps))
    assert stats["models"]["oracle"]["request_pct"] == pytest.approx(
        100 * summary["escalation_rate_calls"], abs=0.01)
    assert summary["cost_usd"] is not None

    # The same task set straight on the reference server as baselines, then `routes`.
    for router in ("always-local", "always-frontier"):
        result = CliRunner().invoke(app, [
            "run", str(FIXTURE_TASKS), "--base-url", ref.base_url, "--model", "noisy-0.5",
            "--frontier-base-url", ref.base_url, "--frontier-model", "oracle",
            "--router", router, *common])
        assert result.exit_code == 0, result.output
    routes_json = tmp_path / "routes.json"
    result = CliRunner().invoke(app, ["routes", "--db", db, "--json", str(routes_json)])
    assert result.exit_code == 0, result.output
    report = json.loads(routes_json.read_text())
    external = next(p for p in report["runs"] if p["family"] == "external")
    assert external["escalation"]["frontier_calls"] == calls["oracle"]
    assert external["escalation"]["triggers"] == {"external": calls["oracle"]}
    assert external["sentence"] and "vs always-frontier" in external["sentence"]
    with ResultStore(db) as store:
        assert len(store.runs()) == 3
