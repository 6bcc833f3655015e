"""A burst stream from the reference server gives no decode rate, and says why (issue: a real
server once reported 2,137,715 tok/s because a whole tool call arrived at once)."""

from __future__ import annotations

import pytest

from agentbench.backends.base import ChatRequest
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.refserver.schedule import Schedule

TASK = "ops-crashloop-oomkilled"


def tool_request(suite) -> ChatRequest:
    task = next(t for t in suite.tasks if t.id == TASK)
    return ChatRequest(
        messages=[{"role": "user", "content": task.prompt}],
        tools=[suite.tools[n].openai_schema() for n in task.tools],
    )


@pytest.mark.parametrize(
    ("chunks", "reason"),
    [((100_000,), "1 event"), ((1, 100_000), "burst")],
    ids=["whole-call-in-one-chunk", "first-token-then-the-rest-at-once"],
)
async def test_tool_call_burst_has_no_decode_figures(refserver_factory, suite, chunks, reason):
    # rate 10^6 tok/s: after the first chunk the rest of the call leaves within microseconds.
    server = refserver_factory(Schedule(ttft_s=0.02, rate_tok_s=1e6, chunks=chunks))
    backend = OpenAICompatBackend(server.base_url, "oracle")
    try:
        c = await backend.complete(tool_request(suite))
    finally:
        await backend.aclose()
    assert c.tool_calls and c.output_tokens and c.output_tokens > 5
    assert c.decode_tok_s is None and c.tpot_s is None and c.itl_s is None
    assert reason in (c.decode_unmeasured_reason or "")
    assert c.ttft_s is not None and c.ttft_s >= 0.02  # TTFT stands: it is not a rate
    dumped = c.model_dump()
    assert dumped["decode_tok_s"] is None and dumped["decode_unmeasured_reason"]


async def test_spread_tool_call_keeps_its_rate(refserver_factory, suite):
    server = refserver_factory(Schedule(ttft_s=0.02, rate_tok_s=200.0, chunks=(1, 3, 2)))
    backend = OpenAICompatBackend(server.base_url, "oracle")
    try:
        c = await backend.complete(tool_request(suite))
    finally:
        await backend.aclose()
    assert c.decode_unmeasured_reason is None
    assert c.decode_tok_s == pytest.approx(200.0, rel=0.25)  # plumbing; fidelity.py measures
    assert c.itl_s is not None and len(c.itl_s) == (c.output_tokens or 0) - 1
    assert c.itl_method == "apportioned_by_text_length"


def test_a_run_on_a_burst_server_has_no_decode_median_but_every_reason(refserver_factory, tmp_path):
    import json

    from typer.testing import CliRunner

    from agentbench.cli.main import app

    from ..conftest import TASKS_DIR

    server = refserver_factory(Schedule(ttft_s=0.005, rate_tok_s=1e6, chunks=(1, 100_000)))
    out = tmp_path / "run.json"
    args = ["run", str(TASKS_DIR), "--base-url", server.base_url, "--model", "oracle",
            "--category", "ops-diagnosis", "--db", str(tmp_path / "r.db"), "--json", str(out),
            "--quiet"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    steps = [s for e in data["episodes"] for s in e["steps"]]
    assert steps and all(s["decode_tok_s"] is None for s in steps)
    assert all("burst" in s["decode_unmeasured_reason"] or "event" in
               s["decode_unmeasured_reason"] for s in steps)  # fmt: skip
    assert data["summary"]["decode_tok_s_median"] is None  # no absurd figure in the summary
    assert all(s["ttft_s"] is not None for s in steps)
