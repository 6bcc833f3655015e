"""Helpers for the bench tests: backends that stand for a coherent model or hide server facts."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from agentbench.backends.base import Backend, ChatRequest
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.bench.scenarios import Scenario, custom
from agentbench.records import Completion, ServerInfo


class CoherentBackend(Backend):
    """Answers the gate's questions correctly (no timing: it only stands for a sane model)."""

    answers: ClassVar[dict[str, str]] = {
        "France": "Paris.",
        "sky": "Blue.",
        "2, 4, 6, 8": "10",
        "2+2": "4",
    }

    def __init__(self) -> None:
        super().__init__("coherent://local", "coherent")

    async def _complete_once(self, request: ChatRequest) -> Completion:
        text = request.messages[-1]["content"]
        content = next((a for q, a in self.answers.items() if q in text), "I do not know.")
        return Completion(model="coherent", requested_model="coherent", content=content)

    async def server_info(self) -> ServerInfo:
        return ServerInfo(kind="test", base_url=self.base_url, model=self.model)


class RecordingBackend(OpenAICompatBackend):
    """The real adapter, keeping every request it sent; optionally hiding max_context."""

    def __init__(self, *args: Any, hide_context: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[ChatRequest] = []
        self.hide_context = hide_context

    async def _complete_once(self, request: ChatRequest) -> Completion:
        self.sent.append(request)
        return await super()._complete_once(request)

    async def server_info(self) -> ServerInfo:
        info = await super().server_info()
        if self.hide_context:
            info.max_context = None
        return info


@pytest.fixture
def tiny() -> Scenario:
    return custom(48, 24)
