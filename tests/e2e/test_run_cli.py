"""`agentbench run` end to end over HTTP against the reference server."""

import json

from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.store import ResultStore

from ..conftest import TASKS_DIR
from .cli import agentbench, one_error_line, small_suite

CONTRACT_SUMMARY = {
    "tasks",
    "episodes",
    "success_rate",
    "mean_score",
    "thinking_tokens_per_step",
    "time_to_done_s_median",
    "decode_tok_s_median",
    "escalation_rate_calls",
    "cost_usd",
}
CONTRACT_STEP = {
    "target",
    "model",
    "ttft_s",
    "ttfa_s",
    "decode_tok_s",
    "output_tokens",
    "reasoning_tokens",
    "tokens_method",
    "tool_calls",
    "finish_reason",
}


def run_cli(*args: str):
    return CliRunner().invoke(app, ["run", str(TASKS_DIR), *args, "--quiet"])


def test_oracle_scores_one_and_wrong_below_one_on_every_task(refserver, tmp_path, suite):
    db, out = str(tmp_path / "r.db"), tmp_path / "o.json"
    ok = run_cli(
        "--base-url",
        refserver.base_url,
        "--model",
        "oracle",
        "--db",
        db,
        "--json",
        str(out),
        "--concurrency",
        "4",
    )
    assert ok.exit_code == 0, ok.output
    data = json.loads(out.read_text())
    assert {"run_id", "config", "server", "summary", "episodes"} <= set(data)
    assert set(data["summary"]) >= CONTRACT_SUMMARY
    assert len(data["episodes"]) == len(suite.tasks)
    assert all(e["score"] == 1.0 and e["status"] == "ok" for e in data["episodes"])
    steps = [s for e in data["episodes"] for s in e["steps"]]
    assert all(set(s) >= CONTRACT_STEP for s in steps)
    assert all(s["tokens_method"] == "usage" and s["ttft_s"] > 0 for s in steps)
    assert data["server"]["kind"] == "refserver"

    bad = run_cli(
        "--base-url", refserver.base_url, "--model", "wrong", "--db", db, "--concurrency", "4"
    )
    assert bad.exit_code == 0, bad.output
    with ResultStore(db) as store:
        episodes = store.episodes(store.resolve("latest"))
    assert len(episodes) == len(suite.tasks)
    assert all(e.score is not None and e.score < 1.0 for e in episodes)


def test_prompt_mode_repeats_and_pass_k(refserver, tmp_path):
    out = tmp_path / "o.json"
    result = run_cli(
        "--base-url",
        refserver.base_url,
        "--model",
        "oracle",
        "--tool-mode",
        "prompt",
        "--repeats",
        "2",
        "--category",
        "ops-diagnosis",
        "--db",
        str(tmp_path / "r.db"),
        "--json",
        str(out),
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert {e["repeat"] for e in data["episodes"]} == {0, 1}
    assert data["summary"]["pass_k"] == {"1": 1.0, "2": 1.0}


def test_user_errors_are_one_line_and_exit_1(tmp_path):
    small = small_suite(tmp_path / "tasks")
    for args, needle in [
        (["--base-url", "http://127.0.0.1:9/v1", "--model", "x"], "no server answers"),
        (["--model", "nosuch/provider-model"], "PROVIDER/MODEL"),
        (["--local", "nosuch"], "unknown --local alias"),
        ([], "name the model"),
        (
            ["--model", "vllm/x", "--router", "nosuch", "--frontier", "vllm/y"],
            "unknown router policy",
        ),
    ]:
        result = agentbench(
            "run", str(small), "--db", str(tmp_path / "e.db"), "--quiet", "--retries", "0", *args
        )
        assert result.returncode == 1, (args, result.stderr)
        assert needle in one_error_line(result), (args, result.stderr)
