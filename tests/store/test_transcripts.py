"""Transcripts in the store: what each step sent comes back exactly, stored as each step's new
messages only, with system prompts and tool lists once by hash; an episode row stays without
them, and an episode stored without a transcript (an older run) reads back without one."""

from __future__ import annotations

import json
import sqlite3

from agentbench.records import (
    EpisodeResult,
    RequestRecord,
    RunRecord,
    StepRecord,
    ToolCallRecord,
    ToolFragmentRecord,
)
from agentbench.store import ResultStore

SYSTEM = {"role": "system", "content": "You are an operator. " * 40}
TOOLS = [{"type": "function", "function": {"name": "run_command", "parameters": {}}}]


def conversation(n_steps: int) -> list[list[dict]]:
    """The messages of each request of an n-step episode: each extends the previous one."""
    messages = [SYSTEM, {"role": "user", "content": "Why does nginx restart?"}]
    out = []
    for i in range(n_steps):
        out.append(list(messages))
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [{"id": f"c{i}"}]},
            {"role": "tool", "tool_call_id": f"c{i}", "content": f"output {i} " * 30},
        ]
    return out


def make_episode(run_id: str, task: str, n_steps: int = 4) -> EpisodeResult:
    steps = []
    for i, messages in enumerate(conversation(n_steps)):
        steps.append(
            StepRecord(
                model="m",
                requested_model="m",
                index=i,
                t_start_s=0.1 * i,
                tool_calls=[ToolCallRecord(name="run_command", arguments='{"cmd": "x"}')],
                tool_call_fragments=[
                    ToolFragmentRecord(index=0, t_s=0.01, id=f"c{i}", name="run_command"),
                    ToolFragmentRecord(index=0, t_s=0.02, arguments='{"cmd": "x"}'),
                ],
                usage={"prompt_tokens": 100 + i, "completion_tokens": 9},
                request=RequestRecord(
                    messages=messages,
                    tools=TOOLS,
                    max_tokens=512,
                    temperature=0.0,
                    tool_mode="native",
                ),
            )
        )
    return EpisodeResult(
        run_id=run_id,
        task_id=task,
        category="c",
        difficulty="easy",
        step_kind="execute",
        repeat=0,
        status="ok",
        score=1.0,
        steps=steps,
    )


def test_transcripts_come_back_exactly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    stored = make_episode("r1", "a")
    with ResultStore(tmp_path / "r.db") as store:
        store.save_run(RunRecord(run_id="r1", created_at="2026-11-29T00:00:00"))
        store.add_episode(stored)
        back = store.episode("r1", "a", 0)
        plain = store.episodes("r1")[0]
    assert back is not None
    for want, got in zip(stored.steps, back.steps, strict=True):
        assert got.request == want.request
        assert got.tool_call_fragments == want.tool_call_fragments
        assert got.usage == want.usage
    # read without transcripts, the steps carry none
    assert all(s.request is None and not s.tool_call_fragments for s in plain.steps)


def test_each_step_stores_only_its_new_messages_and_blobs_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "r.db"
    with ResultStore(path) as store:
        store.save_run(RunRecord(run_id="r1", created_at="2026-11-29T00:00:00"))
        for task in ("a", "b", "c"):
            store.add_episode(make_episode("r1", task, n_steps=6))
    conn = sqlite3.connect(path)
    rows = [
        json.loads(r[0])
        for r in conn.execute("SELECT record FROM transcript_steps WHERE task_id='a' ORDER BY step")
    ]
    assert [r["request"]["prefix"] for r in rows] == [0, 2, 4, 6, 8, 10]
    assert [len(r["request"]["new"]) for r in rows] == [2, 2, 2, 2, 2, 2]
    # the system prompt and the tool list: one blob each for the three episodes' 18 steps
    assert conn.execute("SELECT count(*) FROM blobs").fetchone()[0] == 2
    assert SYSTEM["content"] not in json.dumps(rows)
    # the episode row holds no transcript field
    record = conn.execute("SELECT record FROM episodes WHERE task_id='a'").fetchone()[0]
    assert '"request"' not in record and "tool_call_fragments" not in record
    # sizes: the steps' rows grow with what is new, not with the conversation
    sizes = [len(json.dumps(r)) for r in rows]
    assert max(sizes[1:]) - min(sizes[1:]) < 10


def test_a_discarded_answer_asked_again_stores_no_message_twice(tmp_path) -> None:  # type: ignore[no-untyped-def]
    e = make_episode("r1", "a", n_steps=2)
    again = e.steps[1].model_copy(update={"index": 2})  # escalated: same request, re-asked
    e.steps[1].discarded = True
    e.steps.append(again)
    with ResultStore(tmp_path / "r.db") as store:
        store.save_run(RunRecord(run_id="r1", created_at="2026-11-29T00:00:00"))
        store.add_episode(e)
        back = store.episode("r1", "a", 0)
        rows = [
            json.loads(r[0])
            for r in store.conn.execute("SELECT record FROM transcript_steps ORDER BY step")
        ]
    assert back is not None and back.steps[2].request == e.steps[1].request
    assert rows[2]["request"]["new"] == [] and rows[2]["request"]["prefix"] == 4


def test_an_episode_stored_without_transcript_reads_back_without_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    e = make_episode("r1", "a", n_steps=2)
    for s in e.steps:
        s.request, s.tool_call_fragments, s.usage = None, [], None
    with ResultStore(tmp_path / "r.db") as store:
        store.save_run(RunRecord(run_id="r1", created_at="2026-11-29T00:00:00"))
        store.add_episode(e)
        back = store.episode("r1", "a", 0)
    assert back is not None and all(s.request is None for s in back.steps)
