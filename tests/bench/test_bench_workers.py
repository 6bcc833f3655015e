"""`agentbench bench --workers W`: each repetition's requests go out from W processes on one
clock (the real CLI in a subprocess against the reference server on loopback)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from agentbench.refserver.schedule import Schedule

ROOT = Path(__file__).resolve().parents[2]


def test_two_workers_share_a_repetition_on_one_clock(refserver_factory, tmp_path) -> None:
    server = refserver_factory(Schedule(ttft_s=0.05, rate_tok_s=200.0))
    out = tmp_path / "b.json"
    cmd = [sys.executable, "-m", "agentbench.cli.main", "bench", "--base-url", server.base_url,
           "--model", "echo", "--skip-gate", "--pp", "16", "--tg", "8", "--runs", "2",
           "--concurrency", "1,4", "--workers", "2", "--json", str(out), "--db",
           str(tmp_path / "b.db"), "--quiet"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(out.read_text())
    assert data["config"]["workers"] == 2
    single, shared = data["results"]
    assert [r["workers"] for r in single["runs"]] == [1, 1]  # concurrency 1: this process
    assert [r["workers"] for r in shared["runs"]] == [2, 2]
    for run in shared["runs"]:
        assert run["completed"] == 4 and not run["errors"]
        sends = [s["send_s"] for s in run["streams"]]
        # One start instant for both processes: every request left within a few ms of it.
        assert max(sends) - min(sends) < 0.05, sends
        for s in run["streams"]:
            assert 0.045 < s["ttft_s"] < 0.5 and s["output_tokens"] == 8
        assert run["client_loop_lag_max_s"] is not None


def test_workers_need_an_openai_compatible_server(tmp_path) -> None:
    cmd = [sys.executable, "-m", "agentbench.cli.main", "bench", "--base-url",
           "http://127.0.0.1:9/api", "--model", "ollama/m", "--skip-gate", "--concurrency", "2",
           "--workers", "2", "--db", str(tmp_path / "b.db")]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    said = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "Traceback" not in said
    assert "--workers needs an OpenAI-compatible server" in said
