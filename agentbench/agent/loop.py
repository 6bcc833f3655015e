"""The agent loop: one episode of one task, step by step, until an answer, the budget or a fault.

Per step: the router picks a target, the target's backend streams the answer (timed), tool calls
run in the simulated environment and their results are fed back. A model's mistake (invalid
JSON, unknown tool) is answered like a real tool runtime would and the loop goes on.
"""

from __future__ import annotations

import asyncio
import json
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal

import jsonschema

from agentbench.agent.prompting import parse_reply, prompt_mode_system, tool_result_message
from agentbench.agent.toolcall_text import apply_text_calls, malformed_call_messages
from agentbench.backends.base import Backend, ChatRequest
from agentbench.errors import BackendError
from agentbench.records import (
    Completion,
    RouterDecisionRecord,
    StepRecord,
    ToolCallRecord,
    ToolResultRecord,
)
from agentbench.tasks.env import SimulatedEnvironment, parse_arguments
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task
from router import LOCAL, LocalAnswer, Policy, StepContext

ToolMode = Literal["native", "prompt"]


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


@dataclass
class EpisodeTrace:
    """What happened in one episode, before scoring."""

    steps: list[StepRecord] = field(default_factory=list)
    final_answer: str | None = None
    status: str = "running"  # answered | budget_exhausted | truncated | timeout | backend_error:*
    error: str | None = None
    state: dict[str, Any] = field(default_factory=dict)
    time_to_done_s: float | None = None
    router_time_s: float = 0.0

    def calls(self) -> list[tuple[str, dict[str, Any] | None]]:
        """Every tool call the agent made (kept steps only), in order, with parsed args."""
        return [(c.name, c.parsed) for s in self.steps if not s.discarded for c in s.tool_calls]

    def call_results(self) -> list[tuple[str, dict[str, Any] | None, bool]]:
        out = []
        for s in self.steps:
            if s.discarded:
                continue
            for c, r in zip(s.tool_calls, s.tool_results, strict=False):
                out.append((c.name, c.parsed, r.ok))
        return out


def assess(completion: Completion, tools: list[dict[str, Any]]) -> LocalAnswer:
    """Whether an answer is a valid call to an offered tool with schema-valid arguments."""

    def verdict(valid: bool, problem: str | None = None, is_final: bool = False) -> LocalAnswer:
        return LocalAnswer(valid, problem, is_final, completion.mean_logprob,
                           completion.min_logprob)

    if not completion.tool_calls:
        malformed = getattr(completion, "invalid_tool_call", None)  # a StepRecord's reading
        if malformed:
            return verdict(False, f"malformed tool call: {malformed}")
        if completion.content.strip():
            return verdict(True, is_final=True)
        return verdict(False, "empty answer")
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in tools}
    for call in completion.tool_calls:
        if call.name not in schemas:
            return verdict(False, f"unknown tool '{call.name}'")
        if call.parsed is None:
            return verdict(False, f"arguments of {call.name} are not a JSON object")
        try:
            jsonschema.validate(call.parsed, schemas[call.name])
        except jsonschema.ValidationError as exc:
            return verdict(False, f"{call.name}: {exc.message}")
    return verdict(True)


class EpisodeRunner(ABC):
    """An agent loop: `run(task, policy)` under the per-episode time limit."""

    config: AgentConfig

    async def run(self, task: Task, policy: Policy) -> EpisodeTrace:
        trace = EpisodeTrace()
        timeout = self.config.episode_timeout_s
        try:
            await asyncio.wait_for(self._run(task, policy, trace), timeout)
        except TimeoutError:
            trace.status = "timeout"
            trace.error = f"episode exceeded its time limit of {timeout:g} s"
        return trace

    @abstractmethod
    async def _run(self, task: Task, policy: Policy, trace: EpisodeTrace) -> None: ...


class Agent(EpisodeRunner):
    """Runs episodes of tasks from one suite against routed backends."""

    def __init__(
        self,
        suite: TaskSuite,
        targets: dict[str, Backend],
        config: AgentConfig | None = None,
    ) -> None:
        self.suite = suite
        self.targets = targets
        self.config = config or AgentConfig()

    def _initial_messages(self, task: Task) -> list[dict[str, Any]]:
        system = self.suite.system_prompt_for(task)
        if self.config.tool_mode == "prompt":
            system = prompt_mode_system(system, [self.suite.tools[n] for n in task.tools])
        return [{"role": "system", "content": system}, {"role": "user", "content": task.prompt}]

    async def _run(self, task: Task, policy: Policy, trace: EpisodeTrace) -> None:
        env = SimulatedEnvironment(task, self.suite.tools, self.suite.grammar)
        tools = [self.suite.tools[n].openai_schema() for n in task.tools]
        messages = self._initial_messages(task)
        ctx = StepContext(0, task.step_kind, messages, tools)
        await self._loop(task, policy, trace, env, ctx)

    async def resume(self, task: Task, policy: Policy, trace: EpisodeTrace,
                     env: SimulatedEnvironment, ctx: StepContext) -> EpisodeTrace:
        """Go on with an episode whose first steps are already in `trace`, `env` and
        `ctx.messages` (agent.replay forks a recorded episode this way)."""
        timeout = self.config.episode_timeout_s
        try:
            await asyncio.wait_for(self._loop(task, policy, trace, env, ctx), timeout)
        except TimeoutError:
            trace.status = "timeout"
            trace.error = f"episode exceeded its time limit of {timeout:g} s"
        return trace

    async def _loop(self, task: Task, policy: Policy, trace: EpisodeTrace,
                    env: SimulatedEnvironment, ctx: StepContext) -> None:
        native = self.config.tool_mode == "native"
        tools, messages = ctx.tools, ctx.messages
        budget = self.config.max_steps or task.max_steps
        t0 = time.perf_counter()
        try:
            while sum(1 for s in trace.steps if not s.discarded) < budget:
                ctx.step_index = sum(1 for s in trace.steps if not s.discarded)
                step = await self._routed_step(policy, ctx, trace, messages, tools, native, t0)
                if await self.after_step(step, trace, ctx, env, messages, native):
                    break
            else:
                trace.status = "budget_exhausted"
        except BackendError as exc:
            trace.status = f"backend_error:{exc.kind}"
            trace.error = str(exc)
        finally:
            trace.state = env.state
            trace.time_to_done_s = time.perf_counter() - t0

    async def after_step(
        self,
        step: StepRecord,
        trace: EpisodeTrace,
        ctx: StepContext,
        env: SimulatedEnvironment,
        messages: list[dict[str, Any]],
        native: bool,
    ) -> bool:
        """Close the episode on an answer or truncation (True), else run the step's tools."""
        if step.truncated:
            trace.status = "truncated"
            return True
        if not step.tool_calls and step.invalid_tool_call:  # a malformed call: say so, go on
            messages.extend(malformed_call_messages(step, native))
            ctx.previous_valid = False
            return False
        if not step.tool_calls:
            trace.final_answer = step.content
            trace.status = "answered"
            return True
        messages.append(self._assistant_message(step, native))
        failed = await self._run_tools(env, step, messages, native)
        ctx.last_tool_ok = failed == 0
        ctx.tool_failures += failed
        ctx.previous_valid = step.invalid_tool_call is None
        return False

    async def _routed_step(
        self,
        policy: Policy,
        ctx: StepContext,
        trace: EpisodeTrace,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        native: bool,
        t0: float,
    ) -> StepRecord:
        started = time.perf_counter()
        decision = policy.choose(ctx)
        decided = time.perf_counter() - started
        trace.router_time_s += decided
        step = await self._call(decision.target, messages, tools, native, t0, len(trace.steps))
        step.router = RouterDecisionRecord(
            target=decision.target, policy=policy.name, reason=decision.reason, decision_s=decided
        )
        trace.steps.append(step)
        if decision.target == LOCAL and policy.reviews:
            started = time.perf_counter()
            review = policy.review(ctx, assess(step, tools))
            reviewed = time.perf_counter() - started
            trace.router_time_s += reviewed
            if review is not None and review.target != decision.target:
                step.discarded = True
                step = await self._call(
                    review.target, messages, tools, native, t0, len(trace.steps)
                )
                step.router = RouterDecisionRecord(
                    target=review.target,
                    policy=policy.name,
                    reason=review.reason,
                    decision_s=reviewed,
                )
                trace.steps.append(step)
        return step

    async def _call(
        self,
        target: str,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        native: bool,
        t0: float,
        index: int,
    ) -> StepRecord:
        backend = self.targets.get(target)
        if backend is None:
            raise BackendError("no_target", f"the router chose '{target}', which is not configured")
        request = ChatRequest(
            messages=list(messages),
            tools=tools if native and tools else None,
            tool_choice="auto" if native and tools else None,
            max_tokens=self.config.max_tokens,
            temperature=self.config.temperature,
            # only the local model's confidence is read; some frontier APIs reject logprobs
            logprobs=self.config.logprobs and target == LOCAL,
        )
        t_start = time.perf_counter() - t0
        completion = await backend.complete(request)
        step = StepRecord(**completion.model_dump(), index=index, target=target, t_start_s=t_start)
        if not native:
            self._read_prompt_mode(step, tools)
        elif self.config.text_tool_calls:
            apply_text_calls(step)
        if step.tool_calls and step.tool_call_method is None:
            step.tool_call_method = "native" if native else "prompt"
        return step

    @staticmethod
    def _read_prompt_mode(step: StepRecord, tools: list[dict[str, Any]]) -> None:
        reply = parse_reply(step.content, frozenset(t["function"]["name"] for t in tools))
        if reply.problem:
            step.invalid_tool_call = reply.problem
        step.tool_calls = [
            ToolCallRecord(
                id=f"call_{step.index}_{i}",
                name=c.name,
                arguments=c.arguments,
                parsed=parse_arguments(c.arguments)[0],
            )
            for i, c in enumerate(reply.calls)
        ]
        if reply.final_answer is not None:
            step.content = reply.final_answer

    @staticmethod
    def _assistant_message(step: StepRecord, native: bool) -> dict[str, Any]:
        if not native:
            calls = [
                {"tool": c.name, "parameters": c.parsed if c.parsed is not None else c.arguments}
                for c in step.tool_calls
            ]
            return {
                "role": "assistant",
                "content": json.dumps(calls[0] if len(calls) == 1 else calls),
            }
        return {
            "role": "assistant",
            "content": step.content or "",  # llama-cpp-python answers null with HTTP 500
            "tool_calls": [
                {
                    "id": c.id or f"call_{step.index}_{i}",
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for i, c in enumerate(step.tool_calls)
            ],
        }

    async def _run_tools(
        self,
        env: SimulatedEnvironment,
        step: StepRecord,
        messages: list[dict[str, Any]],
        native: bool,
    ) -> int:
        failed = 0
        started = time.perf_counter()
        for i, call in enumerate(step.tool_calls):
            result = env.execute(call.name, call.arguments)
            if result.latency_s and self.config.simulate_latency:
                await asyncio.sleep(result.latency_s)
            if result.kind in ("unknown_tool", "invalid_arguments") and not step.invalid_tool_call:
                step.invalid_tool_call = result.output
            failed += not result.ok
            step.tool_results.append(
                ToolResultRecord(
                    name=call.name,
                    output=result.content(),
                    ok=result.ok,
                    kind=result.kind,
                    latency_s=result.latency_s,
                )
            )
            if native:
                messages.append(
                    {
                        "role": "tool",
                        "tool_call_id": call.id or f"call_{step.index}_{i}",
                        "content": result.content(),
                    }
                )
            else:
                messages.append(tool_result_message(call.name, result.content()))
        step.tool_time_s = time.perf_counter() - started
        return failed
