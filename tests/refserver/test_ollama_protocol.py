"""The reference server speaks Ollama's native API: shapes of /api/* and NDJSON streaming."""

from __future__ import annotations

import json

import httpx

from agentbench.refserver.schedule import Schedule


def test_version_tags_show_ps(refserver) -> None:
    root = f"http://127.0.0.1:{refserver.port}"
    assert httpx.get(f"{root}/").text == "Ollama is running"
    assert httpx.get(f"{root}/api/version").json()["version"]
    names = [m["name"] for m in httpx.get(f"{root}/api/tags").json()["models"]]
    assert "oracle:latest" in names
    show = httpx.post(f"{root}/api/show", json={"model": "oracle"}).json()
    assert "tools" in show["capabilities"]
    assert show["model_info"]["refserver.context_length"] == refserver.state.schedule.max_context
    assert httpx.post(f"{root}/api/show", json={"model": "nope"}).status_code == 404
    assert httpx.get(f"{root}/api/ps").json()["models"][0]["context_length"]


def test_chat_streams_ndjson_with_ns_counters(refserver_factory) -> None:
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=1000.0, reasoning_tokens=5,
                                        chunks=(2,)))
    body = {"model": "echo", "messages": [{"role": "user", "content": "a b c d"}]}
    with httpx.stream("POST", f"http://127.0.0.1:{server.port}/api/chat", json=body) as r:
        assert r.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in r.iter_lines() if line]
    assert all(not line["done"] for line in lines[:-1]) and lines[-1]["done"]
    thinking = "".join(line["message"].get("thinking", "") for line in lines)
    content = "".join(line["message"].get("content", "") for line in lines)
    assert thinking and content.split() == ["a", "b", "c", "d"]
    final = lines[-1]
    assert final["eval_count"] == 5 + 4
    assert final["eval_duration"] == int(9 / 1000.0 * 1e9)
    assert final["prompt_eval_duration"] == int(0.01 * 1e9)
    assert final["done_reason"] == "stop"


def test_num_predict_and_num_ctx_options(refserver_factory) -> None:
    server = refserver_factory(Schedule(ttft_s=0.0, rate_tok_s=5000.0))
    words = " ".join(f"w{i}" for i in range(50))
    body = {"model": "echo", "stream": False, "messages": [{"role": "user", "content": words}],
            "options": {"num_predict": 3, "num_ctx": 20}}
    reply = httpx.post(f"http://127.0.0.1:{server.port}/api/chat", json=body).json()
    assert reply["done"] and reply["done_reason"] == "length" and reply["eval_count"] == 3
    assert reply["prompt_eval_count"] == 20  # silently kept the last 20, no error


def test_tool_calls_are_whole_objects(refserver_factory, suite) -> None:
    server = refserver_factory(Schedule(ttft_s=0.0, rate_tok_s=5000.0, chunks=(1,)))
    task = suite.tasks[0]
    body = {"model": "oracle:latest", "tools": [suite.tools[n].openai_schema()
                                                  for n in task.tools],
            "messages": [{"role": "system", "content": suite.system_prompt_for(task)},
                         {"role": "user", "content": task.prompt}]}
    with httpx.stream("POST", f"http://127.0.0.1:{server.port}/api/chat", json=body) as r:
        lines = [json.loads(line) for line in r.iter_lines() if line]
    calls = [c for line in lines for c in line["message"].get("tool_calls", [])]
    assert len(calls) == len(task.reference[0].calls)
    assert calls[0]["function"]["arguments"] == task.reference[0].calls[0].args


def test_unknown_model_is_404_with_ollama_error_body(refserver) -> None:
    r = httpx.post(f"http://127.0.0.1:{refserver.port}/api/chat",
                   json={"model": "ghost", "messages": []})
    assert r.status_code == 404 and "not found" in r.json()["error"]
