"""`agentbench bench` stores its connection policy and each request's connect_s and reuse
(the real CLI in a subprocess against the reference server on loopback)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentbench.refserver.schedule import Schedule

ROOT = Path(__file__).resolve().parents[2]


def _bench(url: str, tmp_path: Path, *extra: str) -> dict:
    out = tmp_path / "b.json"
    cmd = [sys.executable, "-m", "agentbench.cli.main", "bench", "--base-url", url, "--model",
           "echo", "--skip-gate", "--pp", "16", "--tg", "8", "--runs", "2", "--json", str(out),
           "--db", str(tmp_path / "b.db"), "--quiet", *extra]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "connect ms" in proc.stdout  # reported beside TTFT
    return json.loads(out.read_text())


@pytest.mark.parametrize(
    ("flag", "policy"), [((), "reused"), (("--new-connection-per-request",), "new")]
)
def test_bench_records_the_connection_policy(refserver_factory, tmp_path, flag, policy) -> None:
    server = refserver_factory(Schedule(ttft_s=0.02, rate_tok_s=400.0))
    data = _bench(server.base_url, tmp_path, "--concurrency", "2", *flag)
    assert data["config"]["connection"] == policy
    row = data["results"][0]
    streams = [s for r in row["runs"] for s in r["streams"]]
    assert len(streams) == 4 and all(s["connect_s"] is not None for s in streams)
    reused = {s["connection_reused"] for s in streams}
    # After the warm-up repetition opened two connections, a kept-alive pool reuses them.
    assert reused == ({True} if policy == "reused" else {False})
    assert [r["new_connections"] for r in row["runs"]] == ([0, 0] if policy == "reused" else [2, 2])
    assert row["requests"]["connect_s"]["n"] == 4
    assert all(s["ttft_s"] > 0.015 for s in streams)
