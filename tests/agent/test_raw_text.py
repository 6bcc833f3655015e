"""The record keeps what the model wrote: a call read out of the text stores the text as written
(`raw_content`) beside the parsed call, shown by the viewer, the JSONL transcripts and
`report --json`; what was sent back to the model is the next request's messages, as sent."""

import json
import subprocess
import sys

from agentbench.records import EpisodeResult, RunRecord
from agentbench.report.episodes import episode as episode_html
from agentbench.scoring import score_trace
from agentbench.store import ResultStore

from .test_malformed_calls import TASK, episode

PROSE = "Let me look at the pods first.\n"
FENCED = '```json\n{"name": "run_command", "arguments": {"cmd": "kubectl get pods -n web"}}\n```'


async def test_a_text_parsed_call_keeps_the_text_as_written(suite) -> None:
    trace, backend = await episode(suite, [PROSE + FENCED, "The container was OOMKilled."])
    first, last = trace.steps[0], trace.steps[-1]
    assert first.tool_call_method == "text_parsed"
    assert first.raw_content == PROSE + FENCED
    assert first.content == PROSE.strip()  # what the episode kept and sent back
    assert last.raw_content is None  # a plain answer is its own text
    # what went back to the model is recorded as sent: the next request's messages
    assert trace.steps[1].request is not None
    assert trace.steps[1].request.messages == backend.requests[1].messages
    (turn,) = [m for m in backend.requests[1].messages if m["role"] == "assistant"]
    assert turn["content"] == first.content and turn["tool_calls"]


async def test_prompt_mode_keeps_the_json_the_final_answer_came_in(suite) -> None:
    wrapped = '{"final_answer": "OOMKilled"}'
    trace, _ = await episode(suite, [wrapped], tool_mode="prompt")
    (step,) = trace.steps
    assert step.content == "OOMKilled" and step.raw_content == wrapped


async def test_viewer_jsonl_and_report_json_show_the_raw_text(suite, tmp_path) -> None:
    trace, _ = await episode(suite, [PROSE + FENCED, "The container was OOMKilled."])
    task = next(t for t in suite.tasks if t.id == TASK)
    scored = score_trace(task, trace, suite)
    result = EpisodeResult(
        run_id="run-raw",
        task_id=task.id,
        category=task.category,
        difficulty=task.difficulty,
        step_kind=task.step_kind,
        repeat=0,
        status=scored.status,
        score=scored.score,
        checks=scored.checks,
        explanation=scored.explanation,
        final_answer=trace.final_answer,
        steps=trace.steps,
    )
    page = episode_html(result, open_=True)
    assert "Model text as written" in page and "read from the text: text_parsed" in page
    assert "&quot;name&quot;: &quot;run_command&quot;" in page
    db = tmp_path / "runs.db"
    with ResultStore(db) as store:
        store.save_run(
            RunRecord(run_id="run-raw", created_at="2026-12-01T00:00:00Z", status="complete")
        )
        store.add_episode(result)
    out, lines = tmp_path / "r.json", tmp_path / "r.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "report",
            "run-raw",
            "--db",
            str(db),
            "--json",
            str(out),
            "--jsonl",
            str(lines),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (stored,) = json.loads(out.read_text())["episodes"]
    assert stored["steps"][0]["raw_content"] == PROSE + FENCED
    assert stored["steps"][0]["tool_calls"][0]["name"] == "run_command"
    (line,) = lines.read_text().splitlines()
    turns = [m for m in json.loads(line)["messages"] if m["role"] == "assistant"]
    assert turns[0]["raw_content"] == PROSE + FENCED and turns[0]["content"] == PROSE.strip()
