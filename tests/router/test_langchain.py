"""router.langchain.RoutedChatModel with scripted LangChain chat models (no network)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("langchain_core", reason="langchain-core is not installed")

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from router.langchain import RoutedChatModel, assess_message

TOOL = {"type": "function", "function": {
    "name": "run_command", "description": "Run a shell command.",
    "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}},
                   "required": ["cmd"]}}}


class Scripted(BaseChatModel):
    """Answers from a list, records the calls and the tools bound."""

    name_: str
    answers: list[AIMessage]
    calls: list[list[Any]] = Field(default_factory=list)
    bound: list[Any] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools, **kwargs):  # type: ignore[override]
        self.bound.extend(tools)
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        self.calls.append(list(messages))
        answer = self.answers[min(len(self.calls) - 1, len(self.answers) - 1)]
        message = answer.model_copy(update={
            "response_metadata": {**answer.response_metadata, "model_name": self.name_}})
        return ChatResult(generations=[ChatGeneration(message=message)])


def call(name: str, cmd: Any = "kubectl get pods -n web") -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": {"cmd": cmd},
                                              "id": "c1", "type": "tool_call"}])


def convo(*extra: Any) -> list[Any]:
    return [SystemMessage("ops agent"), HumanMessage("why is web down?"), *extra]


def models(local_answers, frontier_answers=None):
    local = Scripted(name_="small", answers=local_answers, calls=[], bound=[])
    big = Scripted(name_="big", answers=frontier_answers or [call("run_command")], calls=[],
                   bound=[])
    return local, big


def test_escalate_on_invalid_discards_and_reruns():
    local, big = models([call("kubctl")])
    routed = RoutedChatModel(local=local, frontier=big,
                             policy="escalate-on-invalid").bind_tools([TOOL])
    assert local.bound == [TOOL] and big.bound == [TOOL]
    answer = routed.invoke(convo())
    assert answer.tool_calls[0]["name"] == "run_command"
    record = answer.response_metadata["router"]
    assert record["target"] == "frontier"
    assert record["reason"] == "invalid: unknown tool 'kubctl'"
    assert record["calls"] == [{"target": "local", "model": "small", "discarded": True},
                               {"target": "frontier", "model": "big", "discarded": False}]
    assert len(local.calls) == len(big.calls) == 1


def test_valid_local_answer_is_kept_and_schema_checked():
    local, big = models([call("run_command")])
    routed = RoutedChatModel(local=local, frontier=big).bind_tools([TOOL])
    answer = routed.invoke(convo())
    assert answer.response_metadata["router"]["target"] == "local" and not big.calls
    assert not assess_message(call("run_command", cmd=7), [TOOL]).valid
    assert assess_message(AIMessage(content="done"), [TOOL]).is_final
    assert assess_message(AIMessage(content=""), [TOOL]).problem == "empty answer"


def test_plan_execute_and_cascade_read_the_conversation():
    local, big = models([call("run_command")])
    plan = RoutedChatModel(local=local, frontier=big, policy="plan-execute")
    assert plan.invoke(convo()).response_metadata["router"]["target"] == "frontier"
    later = convo(call("run_command"), ToolMessage("ok", tool_call_id="c1"))
    assert plan.invoke(later).response_metadata["router"]["target"] == "local"
    cascade = RoutedChatModel(local=local, frontier=big,
                              policy="cascade-after-failure:failures=2")
    failing = convo(call("run_command"), ToolMessage("boom", tool_call_id="c1", status="error"),
                    call("run_command"), ToolMessage("boom", tool_call_id="c1", status="error"))
    record = cascade.invoke(failing).response_metadata["router"]
    assert record["target"] == "frontier" and record["reason"].startswith("tool-failures: 2")


def test_confidence_reads_logprobs_from_response_metadata():
    unsure = AIMessage(content="it is DNS", response_metadata={
        "logprobs": {"content": [{"token": "it", "logprob": -2.0},
                                 {"token": " is", "logprob": -1.0}]}})
    local, big = models([unsure], [AIMessage(content="the pod is OOMKilled")])
    routed = RoutedChatModel(local=local, frontier=big, policy="confidence:threshold=-0.5")
    answer = routed.invoke(convo())
    assert answer.content == "the pod is OOMKilled"
    assert answer.response_metadata["router"]["reason"].startswith(
        "low-confidence: mean logprob -1.500")


async def test_async_path_and_bad_spec():
    local, big = models([call("kubctl")])
    routed = RoutedChatModel(local=local, frontier=big).bind_tools([TOOL])
    answer = await routed.ainvoke(convo())
    assert answer.response_metadata["router"]["target"] == "frontier"
    with pytest.raises(ValueError, match="unknown router policy"):
        RoutedChatModel(local=local, frontier=big, policy="nope")
