"""The native agent loop: one episode of one task, step by step, through agentbench's backends.

Per step: the router picks a target, the target's backend streams the answer (timed), the answer's
tool calls are read (`read_tool_calls`), they run in the simulated environment and their results
are fed back (agent.episode holds the loop itself). A model's mistake (invalid JSON, unknown tool)
is answered like a real tool runtime would and the loop goes on.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from agentbench.agent.episode import AgentConfig, EpisodeLoop, EpisodeState, call_id
from agentbench.agent.prompting import parse_reply, prompt_mode_system, tool_result_message
from agentbench.agent.toolcall_text import apply_text_calls, malformed_call_messages
from agentbench.backends.base import Backend, ChatRequest
from agentbench.errors import BackendError
from agentbench.records import (
    Completion,
    EpisodeTrace,
    RequestRecord,
    RouterDecisionRecord,
    StepRecord,
    ToolCallRecord,
    ToolResultRecord,
)
from agentbench.tasks.env import parse_arguments
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task
from router import LOCAL, LocalAnswer, Policy, assess_answer, tool_schemas

__all__ = ["Agent", "AgentConfig", "Answerer", "assess"]

Answerer = Callable[[str, int], Awaitable[StepRecord]]
"""Answers one step at a target: (target, step index) -> the step, its tool calls read."""


def assess(completion: Completion, tools: list[dict[str, Any]]) -> LocalAnswer:
    """Whether an answer is a valid call to an offered tool with schema-valid arguments."""
    malformed = getattr(completion, "invalid_tool_call", None)  # a StepRecord's reading
    if not completion.tool_calls and malformed:
        return LocalAnswer(
            False,
            f"malformed tool call: {malformed}",
            False,
            completion.mean_logprob,
            completion.min_logprob,
        )
    return assess_answer(
        [(c.name, c.parsed) for c in completion.tool_calls],
        completion.content,
        tool_schemas(tools),
        mean_logprob=completion.mean_logprob,
        min_logprob=completion.min_logprob,
    )


class Agent(EpisodeLoop[EpisodeState]):
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

    @property
    def native(self) -> bool:
        return self.config.tool_mode == "native"

    def start(self, task: Task, policy: Policy) -> EpisodeState:
        system = self.suite.system_prompt_for(task)
        if not self.native:
            system = prompt_mode_system(system, [self.suite.tools[n] for n in task.tools])
        messages = [{"role": "system", "content": system}, {"role": "user", "content": task.prompt}]
        return EpisodeState(task, policy, self.environment(task), self.context(task, messages))

    async def next_step(self, state: EpisodeState, trace: EpisodeTrace) -> StepRecord:
        async def live(target: str, index: int) -> StepRecord:
            return await self._call(state, target, index)

        return await self.routed_step(state, trace, live)

    async def routed_step(
        self, state: EpisodeState, trace: EpisodeTrace, answer: Answerer
    ) -> StepRecord:
        """The policy chooses a target, `answer` answers there; a local answer the policy's
        review escalates is discarded and the step answered again at the review's target."""
        policy, ctx = state.policy, state.ctx
        started = time.perf_counter()
        decision = policy.choose(ctx)
        decided = time.perf_counter() - started
        trace.router_time_s += decided
        step = await answer(decision.target, len(trace.steps))
        step.router = RouterDecisionRecord(
            target=decision.target, policy=policy.name, reason=decision.reason, decision_s=decided
        )
        trace.steps.append(step)
        if decision.target != LOCAL or not policy.reviews:
            return step
        started = time.perf_counter()
        review = policy.review(ctx, assess(step, ctx.tools))
        reviewed = time.perf_counter() - started
        trace.router_time_s += reviewed
        if review is None or review.target == decision.target:
            return step
        step.discarded = True
        step = await answer(review.target, len(trace.steps))
        step.router = RouterDecisionRecord(
            target=review.target, policy=policy.name, reason=review.reason, decision_s=reviewed
        )
        trace.steps.append(step)
        return step

    async def _call(self, state: EpisodeState, target: str, index: int) -> StepRecord:
        backend = self.targets.get(target)
        if backend is None:
            raise BackendError("no_target", f"the router chose '{target}', which is not configured")
        tools = state.ctx.tools
        request = ChatRequest(
            messages=list(state.ctx.messages),
            tools=tools if self.native and tools else None,
            tool_choice="auto" if self.native and tools else None,
            max_tokens=self.config.max_tokens,
            temperature=self.config.temperature,
            # only the local model's confidence is read; some frontier APIs reject logprobs
            logprobs=self.config.logprobs and target == LOCAL,
        )
        t_start_s = (time.perf_counter_ns() - state.t0_ns) / 1e9
        completion = await backend.complete(request)
        step = StepRecord(
            **completion.model_dump(), index=index, target=target, t_start_s=t_start_s
        )
        step.request = RequestRecord(
            messages=request.messages,
            tools=request.tools,
            tool_choice=request.tool_choice,
            max_tokens=request.max_tokens,
            temperature=request.temperature,
            logprobs=request.logprobs,
            extra_body=request.extra_body,
            tool_mode=self.config.tool_mode,
        )
        self.read_tool_calls(step, tools)
        return step

    def read_tool_calls(self, step: StepRecord, tools: list[dict[str, Any]]) -> None:
        """Where a completion becomes tool calls: native calls come parsed from the backend;
        in prompt mode they are read from the text (a final answer replaces the content).
        Where reading changes the content, the model's text is kept as `raw_content`."""
        written = step.content
        if self.native:
            if self.config.text_tool_calls:
                apply_text_calls(step)
        else:
            self._read_prompt_mode(step, tools)
        if step.tool_calls and step.tool_call_method is None:
            step.tool_call_method = "native" if self.native else "prompt"
        if step.content != written:
            step.raw_content = written

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

    def add_assistant(self, state: EpisodeState, step: StepRecord) -> None:
        state.ctx.messages.append(self._assistant_message(step))

    def add_malformed(self, state: EpisodeState, step: StepRecord) -> None:
        state.ctx.messages.extend(malformed_call_messages(step, self.native))

    def add_tool_result(
        self,
        state: EpisodeState,
        step: StepRecord,
        index: int,
        call: ToolCallRecord,
        result: ToolResultRecord,
    ) -> None:
        if self.native:
            message = {
                "role": "tool",
                "tool_call_id": call_id(step, index, call),
                "content": result.output,
            }
        else:
            message = tool_result_message(call.name, result.output)
        state.ctx.messages.append(message)

    def _assistant_message(self, step: StepRecord) -> dict[str, Any]:
        if not self.native:
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
                    "id": call_id(step, i, c),
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for i, c in enumerate(step.tool_calls)
            ],
        }
