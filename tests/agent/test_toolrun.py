"""Tool calls run off the event loop: the episode's time limit acts while one is stuck, a call
past its deadline is abandoned, a killed call is fed back, and the loop keeps serving."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from agentbench.agent.loop import Agent, AgentConfig
from agentbench.backends.scripted import ScriptedBackend
from agentbench.records import EpisodeTrace
from agentbench.sim.core.budget import Limits
from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Step
from router import LOCAL, build_policy

SQL_TASK = "data-inventory-low-stock"
# DuckDB runs this for hours, in C, where no budget step reaches: only an interrupt stops it
STUCK = "SELECT sum(i) FROM range(1000000000000) t(i)"
BOMB = "echo " + "a" * 5000 + " | grep -E '(a+)+b'"


def episode(suite: TaskSuite, steps: list[dict], config: AgentConfig) -> EpisodeTrace:
    task = next(t for t in suite.tasks if t.id == SQL_TASK)
    script = [Step.model_validate(s) for s in steps]
    agent = Agent(suite, {LOCAL: ScriptedBackend(script)}, config)
    return asyncio.run(agent.run(task, build_policy("always-local")()))


def tool_threads(timeout: float = 3.0) -> list[str]:
    """The tool-call threads still alive after waiting up to `timeout` for them to end."""
    deadline = time.monotonic() + timeout
    while True:
        alive = [t.name for t in threading.enumerate() if t.name.startswith("tool-call")]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


def test_the_episode_time_limit_acts_during_a_stuck_call_and_names_it(suite) -> None:
    steps = [{"calls": [{"tool": "sql_query", "args": {"query": STUCK}}]}, {"answer": "x"}]
    started = time.monotonic()
    trace = episode(suite, steps, AgentConfig(simulate_latency=False, episode_timeout_s=1.0))
    assert time.monotonic() - started < 4
    assert trace.status == "timeout"
    assert trace.error == (
        f'episode exceeded its time limit of 1 s during tool call sql_query {{"query": "{STUCK}"}}'
    )
    abandoned = trace.steps[0].tool_results[0]
    assert abandoned.limit == "abandoned" and not abandoned.ok
    assert tool_threads() == []  # cancelling the budget interrupted the engine


def test_a_query_at_the_calls_deadline_is_interrupted_and_fed_back(suite) -> None:
    steps = [{"calls": [{"tool": "sql_query", "args": {"query": STUCK}}]}, {"answer": "x"}]
    config = AgentConfig(simulate_latency=False, tool_limits=Limits(seconds=0.5))
    started = time.monotonic()
    trace = episode(suite, steps, config)
    assert time.monotonic() - started < 3
    assert trace.status == "answered"
    result = trace.steps[0].tool_results[0]
    assert result.limit == "time"
    expected = "sql_query: terminated: the tool call ran past its time limit of 0.5 s\n"
    assert result.output == expected
    assert tool_threads() == []


class _Hung(SimulatedEnvironment):
    """A simulator bug that never returns and heeds no budget (all the real ones do): only the
    loop's deadline can end the call."""

    release = threading.Event()

    def execute(self, name: str, raw_args: Any) -> Any:
        self.release.wait(30)
        return super().execute(name, raw_args)


def test_a_call_past_its_deadline_is_abandoned_and_ends_the_episode(suite) -> None:
    task = next(t for t in suite.tasks if t.id == SQL_TASK)
    steps = [{"calls": [{"tool": "sql_query", "args": {"query": "SELECT 1"}}]}, {"answer": "x"}]
    config = AgentConfig(simulate_latency=False, tool_limits=Limits(seconds=0.3))
    agent = Agent(suite, {LOCAL: ScriptedBackend([Step.model_validate(s) for s in steps])}, config)
    agent.environment = lambda task: _Hung(task, suite.tools, suite.grammar)  # type: ignore[method-assign]
    started = time.monotonic()
    try:
        trace = asyncio.run(agent.run(task, build_policy("always-local")()))
    finally:
        _Hung.release.set()
    assert time.monotonic() - started < 3
    assert trace.status == "timeout"
    assert trace.error == (
        'tool call sql_query {"query": "SELECT 1"} did not return within 0.95 s and was abandoned'
    )
    assert trace.steps[0].tool_results[0].limit == "abandoned"


def test_a_killed_call_is_fed_back_and_the_episode_goes_on(suite) -> None:
    task = next(t for t in suite.tasks if t.id == SQL_TASK)
    steps = [{"calls": [{"tool": "run_command", "args": {"cmd": BOMB}}]}, {"answer": "x"}]
    script = [Step.model_validate(s) for s in steps]
    agent = Agent(suite, {LOCAL: ScriptedBackend(script)}, AgentConfig(simulate_latency=False))
    task = task.model_copy(update={"tools": [*task.tools, "run_command"]})
    trace = asyncio.run(agent.run(task, build_policy("always-local")()))
    assert trace.status == "answered"
    result = trace.steps[0].tool_results[0]
    assert result.limit == "regex" and "regular expression too expensive" in result.output
    sent = trace.steps[1].request.messages[-1] if trace.steps[1].request else {}
    assert "regular expression too expensive" in sent.get("content", "")


async def test_the_event_loop_keeps_serving_while_calls_run(suite) -> None:
    steps = [
        {
            "calls": [
                {"tool": "run_command", "args": {"cmd": BOMB}},
                {"tool": "sql_query", "args": {"query": STUCK}},
            ]
        },
        {"answer": "x"},
    ]
    task = next(t for t in suite.tasks if t.id == SQL_TASK)
    task = task.model_copy(update={"tools": [*task.tools, "run_command"]})
    script = [Step.model_validate(s) for s in steps]
    config = AgentConfig(simulate_latency=False, episode_timeout_s=4.0)
    agent = Agent(suite, {LOCAL: ScriptedBackend(script)}, config)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.05)
            ticks += 1

    counting = asyncio.create_task(ticker())
    trace = await agent.run(task, build_policy("always-local")())
    counting.cancel()
    assert trace.status == "timeout" and "during tool call sql_query" in (trace.error or "")
    assert ticks >= 40, ticks  # 4 s of 50 ms sleeps: the loop was never held for long
    assert tool_threads() == []
