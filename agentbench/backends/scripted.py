"""An in-process backend that plays a scripted trajectory: the `tasks validate` player.

It stands for no model and measures nothing: its completions carry no timing. It exists so a
task's reference and planted-wrong trajectories run through the real agent loop, environment and
scorers without a server.
"""

from __future__ import annotations

import json

from agentbench.backends.base import Backend, ChatRequest
from agentbench.records import Completion, ServerInfo, ToolCallRecord
from agentbench.tasks.model import Step
from agentbench.tasks.scripted import assistant_turns, step_at


class ScriptedBackend(Backend):
    provider = "scripted"

    def __init__(self, steps: list[Step], name: str = "scripted") -> None:
        super().__init__("scripted://local", name)
        self.steps = steps

    async def _complete_once(self, request: ChatRequest) -> Completion:
        index = assistant_turns(request.messages)
        step = step_at(self.steps, index)
        calls = [
            ToolCallRecord(
                id=f"call_{index}_{i}", name=c.tool, arguments=json.dumps(c.args), parsed=c.args
            )
            for i, c in enumerate(step.calls)
        ]
        return Completion(
            model=self.model,
            requested_model=self.model,
            content=step.answer or "",
            tool_calls=calls,
            finish_reason="tool_calls" if calls else "stop",
        )

    async def server_info(self) -> ServerInfo:
        return ServerInfo(kind="scripted", base_url=self.base_url, model=self.model)
