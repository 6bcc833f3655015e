"""Every injected fault is retried or classified; none crashes a run."""

import pytest

from agentbench.agent.loop import Agent, AgentConfig
from agentbench.backends.base import RetryPolicy
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.refserver.faults import FaultPlan
from agentbench.refserver.schedule import Schedule
from agentbench.scoring import score_trace
from router import LOCAL, build_policy

TASK = "ops-crashloop-oomkilled"
FAST = Schedule(ttft_s=0.0, rate_tok_s=1e5)
RETRY = RetryPolicy(max_retries=2, backoff_s=0.0, request_timeout_s=0.5)


async def run_once(server, suite, max_tokens: int = 512):
    task = next(t for t in suite.tasks if t.id == TASK)
    backend = OpenAICompatBackend(server.base_url, "oracle", retry=RETRY)
    agent = Agent(suite, {LOCAL: backend}, AgentConfig(max_tokens=max_tokens))
    try:
        trace = await agent.run(task, build_policy("always-local")())
    finally:
        await backend.aclose()
    return trace, score_trace(task, trace, suite)


@pytest.mark.parametrize("kind", ["http_429", "http_500", "http_503", "reset", "ttfb_timeout",
                                  "stall", "cut", "malformed"])
async def test_transport_fault_once_is_retried_and_the_episode_is_clean(
        refserver_factory, suite, kind):
    server = refserver_factory(FAST, faults=FaultPlan(script=[kind], stall_s=1.0))
    trace, scored = await run_once(server, suite)
    assert scored.status == "ok" and scored.score == 1.0
    first = trace.steps[0]
    assert first.retries == 1 and len(first.retry_errors) == 1


async def test_transport_fault_every_time_is_classified_not_crashed(refserver_factory, suite):
    server = refserver_factory(FAST, faults=FaultPlan(script=["http_503"] * 3))
    _, scored = await run_once(server, suite)
    assert scored.status == "backend_error:http_503" and scored.score is None


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("bad_tool_json", "invalid"), ("unknown_tool", "invalid"), ("empty", "wrong"),
     ("huge", "truncated"), ("wrong_model", "ok"), ("tool_loop", "repeat")],
)
async def test_model_side_faults_are_scored_not_retried(refserver_factory, suite, kind, expected):
    server = refserver_factory(FAST, faults=FaultPlan(script=[None, kind]))
    trace, scored = await run_once(server, suite)
    second = trace.steps[1]
    assert second.retries == 0
    if expected == "invalid":
        assert second.invalid_tool_call is not None
        assert scored.status in ("ok", "wrong", "budget_exhausted")
    elif expected == "ok":
        assert scored.status == "ok"
        if kind == "wrong_model":
            assert second.model == "some-other-model" and second.requested_model == "oracle"
    elif expected == "repeat":
        assert second.tool_calls[0].parsed == trace.steps[0].tool_calls[0].parsed
        assert scored.status in ("ok", "wrong")
    else:
        assert scored.status == expected
