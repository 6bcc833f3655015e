"""A frozen three-task suite (two execute tasks, one plan task) and fake model backends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentbench.backends.base import Backend, ChatRequest
from agentbench.records import Completion, ServerInfo, ToolCallRecord
from agentbench.tasks.loader import TaskSuite, load_suite
from agentbench.tasks.scripted import assistant_turns, find_task, step_at

FIXTURE_TASKS = Path(__file__).parent / "fixtures" / "tasks"


@pytest.fixture(scope="session")
def router_suite() -> TaskSuite:
    return load_suite(FIXTURE_TASKS)


class FakeModel(Backend):
    """Plays a task's reference (or, at the steps in `bad_steps`, a call to an unknown tool),
    with fixed token counts, duration and logprobs, and records every request."""

    provider = "fake"

    def __init__(self, suite: TaskSuite, name: str, *, bad_steps: frozenset[int] = frozenset(),
                 logprob: float | None = None, low_logprob_steps: frozenset[int] = frozenset(),
                 prompt_tokens: int = 1000, cached: int = 200, output_tokens: int = 100,
                 duration_s: float = 1.8) -> None:
        super().__init__("fake://" + name, name)
        self.suite, self.bad_steps, self.logprob = suite, bad_steps, logprob
        self.low_logprob_steps = low_logprob_steps
        self.prompt_tokens, self.cached, self.output_tokens = prompt_tokens, cached, output_tokens
        self.duration_s = duration_s
        self.requests: list[ChatRequest] = []

    async def _complete_once(self, request: ChatRequest) -> Completion:
        self.requests.append(request)
        task = find_task(self.suite.tasks, request.messages)
        assert task is not None
        index = assistant_turns(request.messages)
        step = step_at(task.reference, index)
        if index in self.bad_steps:
            calls = [ToolCallRecord(id="c0", name="kubctl", arguments="{}", parsed={})]
            content = ""
        else:
            calls = [ToolCallRecord(id=f"c{i}", name=c.tool, arguments=json.dumps(c.args),
                                    parsed=c.args) for i, c in enumerate(step.calls)]
            content = step.answer or ""
        logprob = self.logprob
        if logprob is not None and index in self.low_logprob_steps:
            logprob = -3.0
        return Completion(
            model=self.model, requested_model=self.model, prompt_tokens=self.prompt_tokens,
            cached_prompt_tokens=self.cached, output_tokens=self.output_tokens,
            tokens_method="usage", duration_s=self.duration_s, content=content,
            tool_calls=calls, finish_reason="tool_calls" if calls else "stop",
            mean_logprob=logprob if request.logprobs else None,
            min_logprob=logprob if request.logprobs else None,
        )

    async def server_info(self) -> ServerInfo:
        return ServerInfo(kind="fake", base_url=self.base_url, model=self.model)
