"""`agentbench run --agent langchain`: the suite through RoutedChatModel over ChatOpenAI models,
against the reference server on loopback."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

pytest.importorskip("langchain_core")
pytest.importorskip("langchain_openai")

from agentbench.cli.main import app
from agentbench.store import ResultStore

from ..conftest import TASKS_DIR


def run_langchain(tmp_path, *args: str) -> dict:
    out = tmp_path / "o.json"
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(TASKS_DIR),
            "--agent",
            "langchain",
            "--category",
            "ops-diagnosis",
            "--db",
            str(tmp_path / "r.db"),
            "--json",
            str(out),
            "--quiet",
            *args,
        ],
    )
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def kept_steps(data: dict) -> list[dict]:
    return [s for e in data["episodes"] for s in e["steps"] if not s["discarded"]]


def test_oracle_scores_one_with_timing_and_usage_tokens(refserver, tmp_path):
    data = run_langchain(tmp_path, "--base-url", refserver.base_url, "--model", "oracle")
    assert data["config"]["agent"] == "langchain"
    assert len(data["episodes"]) >= 3
    assert all(e["score"] == 1.0 and e["status"] == "ok" for e in data["episodes"])
    steps = kept_steps(data)
    assert any(s["tool_calls"] for s in steps)
    for s in steps:
        assert s["tokens_method"] == "usage" and s["output_tokens"] > 0
        assert s["prompt_tokens"] and s["model"] == "oracle" and s["target"] == "local"
        for key in ("ttft_byte_s", "ttft_s", "ttfa_s", "t_last_s", "duration_s"):
            assert s[key] is not None, key
        # A short answer at 2000 tok/s spans under 5 ms: no rate then, but always a reason.
        assert (s["decode_tok_s"] is None) == bool(s["decode_unmeasured_reason"])
        assert 0 < s["ttft_s"] <= s["t_last_s"] <= s["duration_s"]
        assert s["ttft_s"] <= s["ttfa_s"]
        assert s["token_events"] >= 1
        assert s["finish_reason"] in ("tool_calls", "stop")
        assert s["router"]["policy"] == "always-local"
    for e in data["episodes"]:
        assert e["time_to_done_s"] >= sum(s["duration_s"] for s in e["steps"])


def test_steps_store_what_langchain_sent(refserver, tmp_path):
    run_langchain(tmp_path, "--base-url", refserver.base_url, "--model", "oracle")
    with ResultStore(tmp_path / "r.db") as store:
        episodes = store.episodes(store.resolve("latest"), transcripts=True)
    for e in episodes:
        for i, step in enumerate(e.steps):
            assert step.request is not None and step.request.tools
            roles = [m["role"] for m in step.request.messages]
            assert roles[:2] == ["system", "user"]
            # each request is the previous one plus the answer and its tool results
            assert roles[2:] == ["assistant", "tool"] * i


def test_wrong_scores_below_one(refserver, tmp_path):
    data = run_langchain(tmp_path, "--base-url", refserver.base_url, "--model", "wrong")
    assert all(e["score"] is not None and e["score"] < 1.0 for e in data["episodes"])


def test_random_router_sends_some_steps_to_the_frontier(refserver, tmp_path):
    data = run_langchain(
        tmp_path,
        "--base-url", refserver.base_url,
        "--model", "wrong",
        "--router", "random:p=0.5,seed=1",
        "--frontier-base-url", refserver.base_url,
        "--frontier-model", "oracle",
    )
    steps = kept_steps(data)
    targets = Counter(s["target"] for s in steps)
    assert targets["frontier"] > 0 and targets["local"] > 0
    for s in steps:
        assert s["model"] == ("oracle" if s["target"] == "frontier" else "wrong")
        assert s["router"]["target"] == s["target"]
        assert s["router"]["reason"].startswith("random:")


def test_an_escalated_answer_is_kept_as_a_discarded_step(refserver, tmp_path):
    data = run_langchain(
        tmp_path,
        "--base-url", refserver.base_url,
        "--model", "wrong",
        "--record-both",
        "--frontier-base-url", refserver.base_url,
        "--frontier-model", "oracle",
    )
    assert all(e["score"] == 1.0 for e in data["episodes"])
    for e in data["episodes"]:
        steps = e["steps"]
        assert [s["discarded"] for s in steps] == [True, False] * (len(steps) // 2)
        for local, frontier in zip(steps[::2], steps[1::2], strict=True):
            assert (local["target"], local["model"]) == ("local", "wrong")
            assert (frontier["target"], frontier["model"]) == ("frontier", "oracle")
            assert local["ttft_s"] is not None and local["tokens_method"] == "usage"
            assert local["t_start_s"] < frontier["t_start_s"]


def test_prompt_tool_mode_is_refused(refserver, tmp_path):
    result = CliRunner().invoke(
        app,
        [
            "run", str(TASKS_DIR), "--agent", "langchain", "--tool-mode", "prompt",
            "--base-url", refserver.base_url, "--model", "oracle",
            "--db", str(tmp_path / "r.db"), "--quiet",
        ],
    )
    assert result.exit_code != 0
    assert "prompt" in (result.output + str(result.exception))


@pytest.mark.parametrize("style", ["reasoning", "reasoning_content", "think"])
def test_reasoning_deltas_start_the_clock_as_in_the_native_loop(refserver_factory, tmp_path, style):
    from agentbench.refserver.schedule import Schedule

    server = refserver_factory(
        Schedule(ttft_s=0.01, rate_tok_s=400.0, reasoning_tokens=16, reasoning_style=style)
    )
    task = ("--task", "ops-missing-configmap")
    data = run_langchain(tmp_path, "--base-url", server.base_url, "--model", "oracle", *task)
    assert all(e["score"] == 1.0 for e in data["episodes"])
    for s in kept_steps(data):
        assert s["reasoning"] and "<think>" not in s["content"]
        assert s["reasoning_tokens"] >= 16  # inline style: the server counts the tags too
        # 16 thinking tokens at 400 tok/s come before the first answer or tool fragment
        assert s["ttft_s"] + 0.02 < s["ttfa_s"] <= s["t_last_s"] <= s["duration_s"]
