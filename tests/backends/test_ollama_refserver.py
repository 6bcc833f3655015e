"""The Ollama adapter against the reference server's Ollama protocol (real HTTP on loopback).

The schedule is the truth: ttft and decode rate measured on the client must match it within 5%,
and Ollama's eval counters reported by the server must give exactly the scheduled rate.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agentbench.backends.base import ChatRequest
from agentbench.backends.ollama import OllamaBackend
from agentbench.cli.main import app
from agentbench.refserver.schedule import Schedule


def task_messages(suite, task):
    return [{"role": "system", "content": suite.system_prompt_for(task)},
            {"role": "user", "content": task.prompt}]


async def test_timing_matches_the_schedule_within_5_percent(refserver_factory) -> None:
    schedule = Schedule(ttft_s=0.4, rate_tok_s=25.0, chunks=(1, 3, 2), reasoning_tokens=24)
    server = refserver_factory(schedule)
    backend = OllamaBackend(f"http://127.0.0.1:{server.port}", "echo", think=True)
    words = "one two three four five six seven eight nine ten eleven twelve"
    request = ChatRequest(messages=[{"role": "user", "content": words}])
    await backend.complete(request)  # warm-up: connection, first-request costs
    # The median of three, so that one stall of a shared 2-core machine does not decide.
    runs = [await backend.complete(request) for _ in range(3)]
    await backend.aclose()
    assert statistics.median(r.ttft_s for r in runs) == pytest.approx(0.4, rel=0.05)
    assert statistics.median(r.decode_tok_s for r in runs) == pytest.approx(25.0, rel=0.05)
    c = runs[-1]
    assert c.server_decode_tok_s == pytest.approx(25.0, rel=1e-6)
    assert c.server_counters["prompt_eval_duration"] == 400_000_000
    assert c.output_tokens == c.server_counters["eval_count"] == 24 + 12
    assert c.tokens_method == "server_counter"
    assert c.reasoning and c.reasoning_method == "estimated"
    assert c.ttfa_s is not None and c.ttfa_s > c.ttft_s
    assert c.content.split() == words.split()


async def test_tool_calls_and_thinking_off(refserver_factory, suite) -> None:
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=2000.0, reasoning_tokens=10))
    backend = OllamaBackend(f"http://127.0.0.1:{server.port}", "oracle:latest", think=False)
    task = suite.tasks[0]
    tools = [suite.tools[n].openai_schema() for n in task.tools]
    c = await backend.complete(ChatRequest(messages=task_messages(suite, task), tools=tools))
    await backend.aclose()
    assert c.tool_calls and c.tool_calls[0].parsed is not None
    assert c.tool_calls[0].name == task.reference[0].calls[0].tool
    assert c.tool_calls[0].parsed == task.reference[0].calls[0].args
    assert c.reasoning == "" and c.reasoning_tokens == 0  # think=False: no thinking
    assert c.finish_reason == "tool_calls"
    assert c.prompt_tokens == c.server_counters["prompt_eval_count"]


async def test_num_ctx_truncation_is_detected(refserver_factory, suite) -> None:
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=2000.0))
    backend = OllamaBackend(f"http://127.0.0.1:{server.port}", "oracle", num_ctx=40)
    task = suite.tasks[0]
    c = await backend.complete(ChatRequest(messages=task_messages(suite, task)))
    assert c.prompt_tokens == 40  # what Ollama kept, silently
    assert c.truncated and "num_ctx=40" in (c.truncation_reason or "")
    info = await backend.server_info()
    assert info.max_context == 40 and info.kind == "ollama" and info.version
    await backend.aclose()


async def test_growing_conversation_that_stops_growing_is_truncated(refserver_factory,
                                                                     suite) -> None:
    """Prefix rule: a longer conversation counted at no more tokens than its prefix was cut."""
    task = suite.tasks[0]
    messages = task_messages(suite, task)
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=2000.0))
    from agentbench.refserver.app import prompt_tokens

    server.state.num_ctx = prompt_tokens(messages) + 5  # the first prompt fits, barely
    backend = OllamaBackend(f"http://127.0.0.1:{server.port}", "oracle")
    first = await backend.complete(ChatRequest(messages=messages))
    assert not first.truncated
    longer = [*messages, {"role": "assistant", "content": "I will look at the pods first."},
              {"role": "user", "content": "Go on, and tell me what you find in the logs."}]
    second = await backend.complete(ChatRequest(messages=longer))
    await backend.aclose()
    assert second.truncated
    assert "earlier request with the same conversation prefix" in second.truncation_reason


def test_whole_run_with_small_num_ctx_counts_truncated_not_wrong(refserver_factory, suite,
                                                                   tmp_path: Path) -> None:
    from .conftest import copy_tasks

    tasks_dir = str(copy_tasks(suite, tmp_path / "tasks", n=2).root)
    selection: list[str] = []
    results = {}
    for num_ctx in (None, 100):
        server = refserver_factory(Schedule(ttft_s=0.005, rate_tok_s=4000.0), num_ctx=num_ctx)
        out = tmp_path / f"run-{num_ctx}.json"
        result = CliRunner().invoke(app, [
            "run", tasks_dir, *selection, "--base-url", f"http://127.0.0.1:{server.port}",
            "--model", "ollama/oracle", "--db", str(tmp_path / "r.db"), "--json", str(out),
            "--quiet"])
        assert result.exit_code == 0, result.output
        results[num_ctx] = json.loads(out.read_text())
    assert {e["status"] for e in results[None]["episodes"]} == {"ok"}
    truncated = results[100]
    assert {e["status"] for e in truncated["episodes"]} == {"truncated"}
    assert truncated["summary"]["statuses"] == {"truncated": 2}
    assert truncated["summary"]["truncated_steps"] >= 2
    step = truncated["episodes"][0]["steps"][-1]  # the step that ended the episode
    assert step["truncated"] and "silent context truncation" in step["truncation_reason"]
    assert step["tokens_method"] == "server_counter"
    assert truncated["server"]["kind"] == "ollama"
    assert truncated["server"]["max_context"] == 100
