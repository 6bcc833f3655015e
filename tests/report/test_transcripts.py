"""Transcripts exported from a real run: `report --jsonl` in the OpenAI messages format (one
conversation per episode, replayable), and `--json --transcripts` adding each step's request."""

from __future__ import annotations

import json

from agentbench.tasks.loader import load_suite

from .runs import cli, load, make_run, refserver


def test_jsonl_holds_each_episode_as_an_openai_conversation(stored_runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "t.jsonl"
    result = cli("report", stored_runs.oracle, "--db", str(stored_runs.db), "--jsonl", str(out))
    assert result.exit_code == 0, result.output
    _, episodes = load(stored_runs.db, stored_runs.oracle)
    prompts = {t.id: t.prompt for t in load_suite(stored_runs.tasks_dir).tasks}
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == len(episodes)
    by_key = {(e.task_id, e.repeat): e for e in episodes}
    for line in lines:
        meta, messages = line["metadata"], line["messages"]
        e = by_key[(meta["task_id"], meta["repeat"])]
        assert [m["role"] for m in messages[:2]] == ["system", "user"]
        assert messages[1]["content"] == prompts[e.task_id]
        assert messages[-1]["role"] == "assistant"
        assert messages[-1]["content"] == e.final_answer
        called = [
            c["id"] for m in messages if m["role"] == "assistant" for c in m.get("tool_calls", [])
        ]
        answered = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
        assert called == answered  # every call answered, in order: replayable as is
        turns = [m for m in messages if m["role"] == "assistant"]
        assert len(turns) == len(e.steps)  # the oracle never has an answer discarded
        assert all(m["reasoning_content"] for m in turns)  # 24 thinking tokens a step
        assert {t["function"]["name"] for t in line["tools"]} >= {
            c.name for s in e.steps for c in s.tool_calls
        }


def test_json_carries_transcripts_only_when_asked(stored_runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    plain, full = tmp_path / "plain.json", tmp_path / "full.json"
    args = ("report", stored_runs.noisy, "--db", str(stored_runs.db))
    assert cli(*args, "--json", str(plain)).exit_code == 0
    assert cli(*args, "--json", str(full), "--transcripts").exit_code == 0
    plain_steps = [s for e in json.loads(plain.read_text())["episodes"] for s in e["steps"]]
    full_steps = [s for e in json.loads(full.read_text())["episodes"] for s in e["steps"]]
    assert plain_steps and not any("request" in s for s in plain_steps)
    for s in full_steps:
        assert s["request"]["messages"][0]["role"] == "system"
        assert s["request"]["tool_mode"] == "native"
        assert s["usage"]["completion_tokens"] == s["output_tokens"]
        if s["tool_calls"]:  # the call as streamed, in pieces that add up to it
            pieces = "".join(f.get("arguments") or "" for f in s["tool_call_fragments"])
            assert pieces == "".join(c["arguments"] for c in s["tool_calls"])


def test_prompt_mode_transcripts_hold_the_calls_as_text(stored_runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Tools described in the system prompt: no `tools` offered, the call is the JSON the model
    wrote, the result comes back as a user message — as it was sent."""
    db, out = tmp_path / "p.db", tmp_path / "p.jsonl"
    with refserver(stored_runs.tasks_dir, 8) as server:
        run_id = make_run(
            server,
            stored_runs.tasks_dir,
            db,
            "oracle",
            extra=("--tool-mode", "prompt", "--category", "data-lookup"),
        )
    assert cli("report", run_id, "--db", str(db), "--jsonl", str(out)).exit_code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines
    for line in lines:
        messages = line["messages"]
        assert line["tools"] == [] and line["metadata"]["tool_mode"] == "prompt"
        assert not any("tool_calls" in m or m["role"] == "tool" for m in messages)
        for call, result in zip(messages[2:-1:2], messages[3:-1:2], strict=True):
            assert call["role"] == "assistant" and "tool" in json.loads(call["content"])
            assert result["role"] == "user" and result["content"].startswith("Tool result of")
