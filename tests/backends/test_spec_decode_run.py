"""Speculative-decoding acceptance wired through a whole `agentbench run` on the reference server.

The reference server drives vLLM-named drafter counters from its chunk pattern (a chunk of k
tokens = one draft of depth 3 with k-1 accepted), so the truth is known: chunks 1,3,2 accept
0+2+1 of 9 drafted tokens per cycle.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.refserver.schedule import Schedule, SpecCounters


def run_cli(server, suite, tmp_path: Path, concurrency: int) -> tuple[dict, str]:
    out = tmp_path / f"c{concurrency}.json"
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(suite.root),
            "--base-url",
            server.base_url,
            "--model",
            "echo",
            "--concurrency",
            str(concurrency),
            "--db",
            str(tmp_path / "r.db"),
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text()), result.output


def test_concurrency_1_attributes_acceptance_to_episodes(
    refserver_factory, mini_suite, tmp_path: Path
) -> None:
    server = refserver_factory(
        Schedule(ttft_s=0.005, rate_tok_s=4000.0, chunks=(1, 3, 2)), spec=SpecCounters()
    )
    data, output = run_cli(server, mini_suite, tmp_path, 1)
    assert data["server"]["spec_decode_seen"] is True
    for episode in data["episodes"]:
        spec = episode["spec_decode"]
        assert spec["scope"] == "episode" and spec["source"] == "vllm_metrics"
        assert 0.0 < spec["acceptance_rate"] < 1.0
    summary = data["summary"]["spec_decode"]
    assert summary["attributed_per_episode"] is True
    assert set(summary["by_category"]) == {e["category"] for e in data["episodes"]}
    total = summary["run"]
    assert total["draft_tokens"] == sum(e["spec_decode"]["draft_tokens"] for e in data["episodes"])
    assert "acceptance by category" in output


def test_concurrency_2_reports_the_run_only(refserver_factory, mini_suite, tmp_path: Path) -> None:
    server = refserver_factory(
        Schedule(ttft_s=0.005, rate_tok_s=4000.0, chunks=(1, 3, 2)), spec=SpecCounters()
    )
    data, output = run_cli(server, mini_suite, tmp_path, 2)
    assert all(e["spec_decode"] is None for e in data["episodes"])
    total = data["summary"]["spec_decode"]["run"]
    assert total["scope"] == "run" and "concurrency 2" in total["description"]
    assert "whole run" in output
