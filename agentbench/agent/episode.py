"""The episode skeleton every agent kind runs: budget, stop conditions, timing, tools, resume.

One loop (docs/design.md#the-episode-loop):

    while kept steps < budget:
        step = next_step(state, trace)      # the agent kind's one abstract step
        if after_step(state, trace, step):  # answer or truncation ends the episode
            break
    else: budget_exhausted

`next_step` asks the model(s) for one step (routing, timing and a discarded answer included) and
returns the kept answer with its tool calls read. `after_step` is shared: it closes the episode
on an answer or a truncation, else runs the calls in the simulated environment and feeds the
results back through `add_assistant` and `add_tool_result`, the agent kind's message format.
A fault (`BackendError`) ends the episode with its kind; the episode time limit ends it as
`timeout`. Tool calls run off the event loop under a deadline (agent/toolrun.py): the time
limit and a stopped run act while one runs, and a call abandoned at its deadline also ends the
episode `timeout`; the error names the call in flight. `resume` goes on with an episode whose
first steps are already in its trace and state (agent.replay forks recorded episodes this way).
"""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from agentbench.agent.toolrun import ToolCallStuck, describe_call, run_tool
from agentbench.errors import BackendError
from agentbench.records import EpisodeTrace, StepRecord, ToolCallRecord, ToolResultRecord
from agentbench.sim.core.budget import Limits
from agentbench.tasks.env import SimulatedEnvironment, ToolResult
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task
from router import Policy, StepContext

ToolMode = Literal["native", "prompt"]

# Tool results whose call was not a valid one: the step records why (StepRecord.invalid_tool_call)
INVALID_CALL_KINDS = ("unknown_tool", "invalid_arguments", "too_many_calls")
# Calls of one answer that run; the rest are answered with an error (docs/robustness.md). No task
# needs more than a few parallel calls, and a model that streams thousands must not run them.
MAX_TOOL_CALLS_PER_STEP = 32


@dataclass(frozen=True)
class AgentConfig:
    tool_mode: ToolMode = "native"
    max_tokens: int | None = 1024
    temperature: float | None = 0.0
    max_steps: int | None = None  # overrides the task's budget when set
    episode_timeout_s: float | None = None
    logprobs: bool = False
    simulate_latency: bool = True  # sleep for rules' latency_s (off when validating tasks)
    text_tool_calls: bool = True  # native mode: read calls left as text (agent.toolcall_text)
    tool_limits: Limits = field(default_factory=Limits)  # what one tool call may use (sim/budget)


@dataclass
class EpisodeState:
    """One episode in progress, between steps. Agent kinds subclass it for what they add
    (their message list, their models)."""

    task: Task
    policy: Policy
    env: SimulatedEnvironment
    ctx: StepContext  # what the policy sees: step index, tools, last tool outcome, ...
    t0_ns: int = 0  # perf_counter_ns at the start of the loop: step offsets are measured from it
    tool_in_flight: str | None = None  # the tool call being run (named if the episode times out)


S = TypeVar("S", bound=EpisodeState)


class EpisodeLoop(ABC, Generic[S]):
    """An agent kind: `run(task, policy)` under the per-episode time limit."""

    suite: TaskSuite
    config: AgentConfig

    async def run(self, task: Task, policy: Policy) -> EpisodeTrace:
        """One episode of `task`, from its first step."""
        return await self.resume(self.start(task, policy), EpisodeTrace())

    async def resume(self, state: S, trace: EpisodeTrace) -> EpisodeTrace:
        """Go on with an episode whose first steps (if any) are already in `trace` and `state`."""
        timeout = self.config.episode_timeout_s
        try:
            await asyncio.wait_for(self._loop(state, trace), timeout)
        except TimeoutError:
            trace.status = "timeout"
            trace.error = f"episode exceeded its time limit of {timeout:g} s"
            if state.tool_in_flight is not None:
                trace.error += f" during tool call {state.tool_in_flight}"
        return trace

    def environment(self, task: Task) -> SimulatedEnvironment:
        return SimulatedEnvironment(task, self.suite.tools, self.suite.grammar)

    def context(self, task: Task, messages: list[dict[str, Any]]) -> StepContext:
        tools = [self.suite.tools[n].openai_schema() for n in task.tools]
        return StepContext(0, task.step_kind, messages, tools)

    @abstractmethod
    def start(self, task: Task, policy: Policy) -> S:
        """A fresh episode: its environment, first messages and models."""

    @abstractmethod
    async def next_step(self, state: S, trace: EpisodeTrace) -> StepRecord:
        """Ask for one step: append every model call made to `trace.steps` (a discarded answer
        too) and return the kept one, its tool calls read."""

    @abstractmethod
    def add_assistant(self, state: S, step: StepRecord) -> None:
        """Append the step's answer (its tool calls) to the conversation."""

    @abstractmethod
    def add_malformed(self, state: S, step: StepRecord) -> None:
        """Append the model's unreadable tool call and the runtime's error reply."""

    @abstractmethod
    def add_tool_result(
        self, state: S, step: StepRecord, index: int, call: ToolCallRecord, result: ToolResultRecord
    ) -> None:
        """Append the result of the step's `index`-th tool call to the conversation."""

    async def _loop(self, state: S, trace: EpisodeTrace) -> None:
        budget = self.config.max_steps or state.task.max_steps
        state.t0_ns = time.perf_counter_ns()
        try:
            while (kept := len(trace.kept_steps())) < budget:
                state.ctx.step_index = kept
                step = await self.next_step(state, trace)
                if await self.after_step(state, trace, step):
                    break
            else:
                trace.status = "budget_exhausted"
        except BackendError as exc:
            trace.status = f"backend_error:{exc.kind}"
            trace.error = str(exc)
        except ToolCallStuck as exc:
            trace.status = "timeout"
            trace.error = str(exc)
        finally:
            trace.state = state.env.state
            trace.simulator_errors = list(state.env.simulator_errors)
            trace.time_to_done_s = (time.perf_counter_ns() - state.t0_ns) / 1e9

    async def after_step(self, state: S, trace: EpisodeTrace, step: StepRecord) -> bool:
        """Close the episode on an answer or truncation (True), else run the step's tools."""
        if step.truncated:
            trace.status = "truncated"
            return True
        if not step.tool_calls and step.invalid_tool_call:  # a malformed call: say so, go on
            self.add_malformed(state, step)
            state.ctx.previous_valid = False
            return False
        if not step.tool_calls:
            trace.final_answer = step.content
            trace.status = "answered"
            return True
        self.add_assistant(state, step)
        failed = await self._run_tools(state, step)
        state.ctx.last_tool_ok = failed == 0
        state.ctx.tool_failures += failed
        state.ctx.previous_valid = step.invalid_tool_call is None
        return False

    async def _run_tools(self, state: S, step: StepRecord) -> int:
        """Run the step's calls in the simulated environment; the number that failed."""
        failed = 0
        started = time.perf_counter()
        for i, call in enumerate(step.tool_calls):
            if i >= MAX_TOOL_CALLS_PER_STEP:
                result = too_many_calls(len(step.tool_calls))
            else:
                result = await self._run_tool(state, step, call)
            await self.tool_latency(step, result.latency_s)
            if result.kind in INVALID_CALL_KINDS and not step.invalid_tool_call:
                step.invalid_tool_call = result.output
            failed += not result.ok
            record = result.record(call.name)
            step.tool_results.append(record)
            self.add_tool_result(state, step, i, call, record)
        step.tool_time_s = time.perf_counter() - started
        return failed

    async def _run_tool(self, state: S, step: StepRecord, call: ToolCallRecord) -> ToolResult:
        """One call off the event loop; an abandoned one is recorded on the step, and
        `state.tool_in_flight` keeps naming it for the episode's error."""
        state.tool_in_flight = describe_call(call.name, call.arguments)
        started = time.perf_counter()
        try:
            result = await run_tool(state.env, call.name, call.arguments, self.config.tool_limits)
        except (ToolCallStuck, asyncio.CancelledError) as exc:
            why = str(exc) if isinstance(exc, ToolCallStuck) else "the episode ended while it ran"
            step.tool_results.append(
                ToolResultRecord(
                    name=call.name,
                    output=f"the call was abandoned: {why}",
                    ok=False,
                    kind="error",
                    latency_s=time.perf_counter() - started,
                    source="runtime_error",
                    limit="abandoned",
                )
            )
            step.tool_time_s = time.perf_counter() - started
            raise
        state.tool_in_flight = None
        return result

    async def tool_latency(self, step: StepRecord, seconds: float) -> None:
        """Wait out a rule's simulated tool latency (off when validating tasks)."""
        if seconds and self.config.simulate_latency:
            await asyncio.sleep(seconds)


def too_many_calls(made: int) -> ToolResult:
    """The runtime's answer to a call past MAX_TOOL_CALLS_PER_STEP of one answer."""
    return ToolResult(
        f"Error: not run: the answer made {made} tool calls and at most "
        f"{MAX_TOOL_CALLS_PER_STEP} run per step; send fewer calls at a time.",
        False,
        None,
        0.0,
        rule=None,
        kind="too_many_calls",
        source="runtime_error",
    )


def call_id(step: StepRecord, index: int, call: ToolCallRecord) -> str:
    """The id a tool call is answered under: the model's, else one made from its position."""
    return call.id or f"call_{step.index}_{index}"
