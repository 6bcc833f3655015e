"""The episode skeleton every agent kind runs: budget, stop, resume, time limit, faults."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agentbench.agent.loop import Agent, AgentConfig
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.backends.scripted import ScriptedBackend
from agentbench.records import EpisodeTrace
from agentbench.refserver.schedule import Schedule
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task
from router import LOCAL, build_policy

QUIET = AgentConfig(simulate_latency=False)


def three_step_task(suite: TaskSuite) -> Task:
    """A task whose reference makes tool calls for two steps, then answers."""
    return next(t for t in suite.tasks if len(t.reference) == 3 and t.reference[-1].answer)


def reference_calls(task: Task) -> list[tuple[str, dict]]:
    return [(c.tool, c.args) for step in task.reference for c in step.calls]


async def test_reference_is_answered_and_every_call_runs(suite: TaskSuite) -> None:
    task = three_step_task(suite)
    agent = Agent(suite, {LOCAL: ScriptedBackend(task.reference)}, QUIET)
    trace = await agent.run(task, build_policy("always-local")())
    assert trace.status == "answered" and trace.final_answer == task.reference[-1].answer
    assert trace.calls() == reference_calls(task)
    assert [s.index for s in trace.steps] == [0, 1, 2]
    assert all(len(s.tool_results) == len(s.tool_calls) for s in trace.steps)
    assert trace.time_to_done_s is not None and trace.time_to_done_s >= 0


async def test_budget_ends_the_episode_and_resume_goes_on_from_the_trace(suite: TaskSuite) -> None:
    task = three_step_task(suite)
    backend = ScriptedBackend(task.reference)
    short = Agent(suite, {LOCAL: backend}, replace(QUIET, max_steps=1))
    policy = build_policy("always-local")()
    state, trace = short.start(task, policy), EpisodeTrace()
    await short.resume(state, trace)
    assert trace.status == "budget_exhausted" and len(trace.steps) == 1
    assert state.ctx.last_tool_ok is not None  # the first step's tools ran and were fed back
    full = Agent(suite, {LOCAL: backend}, QUIET)
    await full.resume(state, trace)
    assert trace.status == "answered" and trace.calls() == reference_calls(task)
    assert [s.index for s in trace.steps] == [0, 1, 2]


async def test_a_missing_target_is_a_backend_error_not_a_crash(suite: TaskSuite) -> None:
    task = three_step_task(suite)
    agent = Agent(suite, {LOCAL: ScriptedBackend(task.reference)}, QUIET)
    trace = await agent.run(task, build_policy("always-frontier")())
    assert trace.status == "backend_error:no_target" and "frontier" in (trace.error or "")
    assert trace.steps == [] and trace.time_to_done_s is not None


async def test_the_episode_time_limit_ends_a_slow_episode(
    suite: TaskSuite, refserver_factory
) -> None:
    server = refserver_factory(Schedule(ttft_s=2.0, rate_tok_s=100.0))
    backend = OpenAICompatBackend(server.base_url, "oracle")
    agent = Agent(suite, {LOCAL: backend}, replace(QUIET, episode_timeout_s=0.2))
    try:
        trace = await agent.run(three_step_task(suite), build_policy("always-local")())
    finally:
        await backend.aclose()
    assert trace.status == "timeout" and trace.error == ("episode exceeded its time limit of 0.2 s")


@pytest.mark.parametrize("mode", ["native", "prompt"])
async def test_both_tool_modes_feed_results_back_in_their_own_format(
    suite: TaskSuite, refserver, mode: str
) -> None:
    task = three_step_task(suite)
    backend = OpenAICompatBackend(refserver.base_url, "oracle")
    agent = Agent(suite, {LOCAL: backend}, replace(QUIET, tool_mode=mode))  # type: ignore[arg-type]
    state = agent.start(task, build_policy("always-local")())
    try:
        trace = await agent.resume(state, EpisodeTrace())
    finally:
        await backend.aclose()
    assert trace.status == "answered" and trace.calls() == reference_calls(task)
    roles = [m["role"] for m in state.ctx.messages]
    assert roles[:2] == ["system", "user"]
    assert roles.count("assistant") == 2  # the two calling steps; the answer ends the episode
    if mode == "native":
        assert roles.count("tool") == 2
    else:
        assert roles.count("tool") == 0 and roles.count("user") == 3
        assert state.ctx.messages[3]["content"].startswith("Tool result of ")


async def test_the_trace_carries_what_the_simulator_could_not_answer(suite: TaskSuite) -> None:
    from agentbench.tasks.model import Step

    task = next(t for t in suite.tasks if "run_command" in t.tools)
    line = "echo '{\"a\": [1, 2]}' | jq 'def twice: . * 2; .a[] | twice'"
    steps = [
        Step.model_validate({"calls": [{"tool": "run_command", "args": {"cmd": line}}]}),
        Step.model_validate({"answer": "done"}),
    ]
    agent = Agent(suite, {LOCAL: ScriptedBackend(steps)}, QUIET)
    trace = await agent.run(task, build_policy("always-local")())
    assert trace.steps[0].tool_results[0].source == "fallback"
    assert len(trace.simulator_errors) == 1
    assert trace.simulator_errors[0].startswith("not simulated: jq syntax")
