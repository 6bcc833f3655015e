"""The real embedded llama.cpp server (SmolLM2-135M-Instruct): plumbing and timing sanity.

The tiny model's accuracy is not asserted; what is: the server starts and stops, every step is
timed by DESIGN.md's definitions, token counts come from the server's tokenizer (its streams
carry no usage), and the figures are physically plausible.
"""

import json
import socket

import pytest
from typer.testing import CliRunner

from agentbench.cli.main import app

from ..conftest import TASKS_DIR

pytestmark = pytest.mark.embedded


def test_run_on_the_embedded_server(tmp_path):
    pytest.importorskip("llama_cpp")
    out = tmp_path / "e.json"
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(TASKS_DIR),
            "--local",
            "embedded",
            "--task",
            "ops-crashloop-oomkilled",
            "--max-steps",
            "2",
            "--max-tokens",
            "64",
            "--db",
            str(tmp_path / "e.db"),
            "--json",
            str(out),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["server"]["kind"] == "llama-cpp-python"
    assert data["config"]["tool_mode"] == "prompt"
    (episode,) = data["episodes"]
    assert episode["status"] in {"ok", "wrong", "budget_exhausted", "truncated"}
    assert 0.0 <= episode["score"] <= 1.0
    for step in episode["steps"]:
        assert step["tokens_method"] == "server_tokenizer"
        assert 0 < step["ttft_byte_s"] <= step["ttft_s"] <= step["duration_s"]
        assert step["output_tokens"] >= 1
        if step["output_tokens"] >= 2:
            assert 1.0 < step["decode_tok_s"] < 5000.0
    assert data["summary"]["decode_tok_s_median"] > 1.0
    port = int(data["server"]["base_url"].rsplit(":", 1)[1].split("/")[0])
    with socket.socket() as sock:  # the server was stopped on exit
        assert sock.connect_ex(("127.0.0.1", port)) != 0


def test_bench_on_the_embedded_server_passes_the_gate_and_measures(tmp_path):
    pytest.importorskip("llama_cpp")
    out = tmp_path / "b.json"
    result = CliRunner().invoke(app, [
        "bench", "--local", "embedded", "--pp", "64", "--tg", "32", "--runs", "2",
        "--json", str(out), "--db", str(tmp_path / "b.db"),
    ])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["gate"]["passed"] is True
    (row,) = data["results"]
    assert row["status"] == "ok" and len(row["runs"]) == 2
    for run in row["runs"]:
        assert run["tokens_method"] == ["server_tokenizer"]  # no usage in its streams
        assert 1.0 < run["decode_tok_s"] < 5000.0 and run["ttft_s"] > 0
    assert row["prompt_tokens_method"] in ("server_tokenizer", "usage")
