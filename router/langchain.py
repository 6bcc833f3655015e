"""A LangChain chat model that routes each call between a local and a frontier chat model.

    from router.langchain import RoutedChatModel
    model = RoutedChatModel(local=ChatOpenAI(base_url=..., model="nemotron-3.5-lightning"),
                            frontier=ChatAnthropic(model="claude-opus-4-1"),
                            policy="escalate-on-invalid").bind_tools(tools)

Any policy of this package works (`NAME[:key=value,...]`). A conversation is one episode: the
policy instance is kept per conversation (its first system and user messages). Every answer
carries `response_metadata["router"]`: the policy, the target, the reason, and each call made
(an escalation after review makes two calls; the first is marked discarded).

Needs `langchain-core` (optional; not a dependency of this package). For `confidence`, build the
local model so that it returns logprobs (e.g. `ChatOpenAI(..., logprobs=True)`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage, convert_to_openai_messages
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field, PrivateAttr

from router._assess import assess_answer, tool_schemas
from router._base import FRONTIER, LOCAL, Decision, LocalAnswer, Policy, StepContext
from router._registry import build_policy

MAX_CONVERSATIONS = 4096


def _mean_min_logprob(message: BaseMessage) -> tuple[float | None, float | None]:
    content = ((message.response_metadata or {}).get("logprobs") or {}).get("content") or []
    values = [
        float(t["logprob"])
        for t in content
        if isinstance(t, dict)
        and isinstance(t.get("logprob"), int | float)
        and math.isfinite(t["logprob"])
    ]
    if not values:
        return None, None
    return sum(values) / len(values), min(values)


def assess_message(message: BaseMessage, tools: Sequence[dict[str, Any]]) -> LocalAnswer:
    """Whether an answer is a valid call to an offered tool (schema-checked when `jsonschema`
    is installed), or a non-empty final answer (router._assess holds the rule)."""
    mean_lp, min_lp = _mean_min_logprob(message)
    invalid = getattr(message, "invalid_tool_calls", None) or []
    calls = [(c.get("name") or "?", None) for c in invalid] or [
        (c["name"], c.get("args")) for c in getattr(message, "tool_calls", None) or []
    ]
    text = message.content if isinstance(message.content, str) else json.dumps(message.content)
    schemas = tool_schemas(tools) or None
    return assess_answer(calls, text, schemas, mean_logprob=mean_lp, min_logprob=min_lp)


class RoutedChatModel(BaseChatModel):
    """Routes each call to `local` or `frontier` (any LangChain chat models or runnables)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    local: Any
    frontier: Any
    policy: str = "escalate-on-invalid"
    step_kind: str = Field(default="execute", description="plan or execute (for plan-execute).")
    tools: list[dict[str, Any]] = Field(default_factory=list)
    _conversations: OrderedDict[str, Policy] = PrivateAttr(default_factory=OrderedDict)
    _factory: Any = PrivateAttr(default=None)

    def model_post_init(self, context: Any) -> None:
        super().model_post_init(context)
        self._factory = build_policy(self.policy)  # fails now on a bad spec

    @property
    def _llm_type(self) -> str:
        return "agentbench-routed"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"policy": self.policy}

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RoutedChatModel:  # type: ignore[override]
        """Binds the tools on both models; their schemas are kept for validity checks."""
        return RoutedChatModel(
            local=self.local.bind_tools(tools, **kwargs),
            frontier=self.frontier.bind_tools(tools, **kwargs),
            policy=self.policy,
            step_kind=self.step_kind,
            tools=[convert_to_openai_tool(t) for t in tools],
        )

    # --- routing -----------------------------------------------------------------------------

    def _policy_for(self, messages: list[BaseMessage]) -> Policy:
        head = [m for m in messages if m.type in ("system", "human")][:2]
        key = hashlib.sha256(json.dumps([str(m.content) for m in head]).encode()).hexdigest()
        policy = self._conversations.get(key)
        if policy is None:
            policy = self._factory()
            self._conversations[key] = policy
            while len(self._conversations) > MAX_CONVERSATIONS:
                self._conversations.popitem(last=False)
        else:
            self._conversations.move_to_end(key)
        return policy

    def _context(self, messages: list[BaseMessage]) -> StepContext:
        tool_results = [m for m in messages if isinstance(m, ToolMessage)]
        failures = sum(1 for m in tool_results if getattr(m, "status", "success") == "error")
        last_ok = (
            None if not tool_results else getattr(tool_results[-1], "status", "success") != "error"
        )
        return StepContext(
            step_index=sum(1 for m in messages if isinstance(m, AIMessage)),
            step_kind=self.step_kind,
            messages=convert_to_openai_messages(messages),
            tools=list(self.tools),
            last_tool_ok=last_ok,
            tool_failures=failures,
        )

    def _target(self, name: str) -> Any:
        return self.frontier if name == FRONTIER else self.local

    @staticmethod
    def _record(message: BaseMessage, target: str) -> dict[str, Any]:
        meta = message.response_metadata or {}
        return {
            "target": target,
            "model": meta.get("model_name") or meta.get("model"),
            "discarded": False,
        }

    @staticmethod
    def _finish(message: BaseMessage, record: dict[str, Any]) -> ChatResult:
        if not isinstance(message, AIMessage):
            message = AIMessage(content=message.content)
        message.response_metadata = {**(message.response_metadata or {}), "router": record}
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _begin(
        self, messages: list[BaseMessage], stop: list[str] | None, kwargs: dict[str, Any]
    ) -> tuple[Policy, StepContext, Decision]:
        policy, ctx = self._policy_for(messages), self._context(messages)
        if stop is not None:
            kwargs["stop"] = stop
        return policy, ctx, policy.choose(ctx)

    def _review(
        self,
        policy: Policy,
        ctx: StepContext,
        decision: Decision,
        message: BaseMessage,
        record: dict[str, Any],
    ) -> Decision | None:
        """After a local answer: the escalation to make, recorded (the first call discarded)."""
        if decision.target != LOCAL or not policy.reviews:
            return None
        review = policy.review(ctx, assess_message(message, self.tools))
        if review is None or review.target == decision.target:
            return None
        record["calls"][-1]["discarded"] = True
        record.update(target=review.target, reason=review.reason)
        return review

    def _first_record(
        self, policy: Policy, decision: Decision, message: BaseMessage
    ) -> dict[str, Any]:
        return {
            "policy": policy.name,
            "target": decision.target,
            "reason": decision.reason,
            "calls": [self._record(message, decision.target)],
        }

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        policy, ctx, decision = self._begin(messages, stop, kwargs)
        message = self._target(decision.target).invoke(messages, **kwargs)
        record = self._first_record(policy, decision, message)
        review = self._review(policy, ctx, decision, message, record)
        if review is not None:
            message = self._target(review.target).invoke(messages, **kwargs)
            record["calls"].append(self._record(message, review.target))
        return self._finish(message, record)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        policy, ctx, decision = self._begin(messages, stop, kwargs)
        message = await self._target(decision.target).ainvoke(messages, **kwargs)
        record = self._first_record(policy, decision, message)
        review = self._review(policy, ctx, decision, message, record)
        if review is not None:
            message = await self._target(review.target).ainvoke(messages, **kwargs)
            record["calls"].append(self._record(message, review.target))
        return self._finish(message, record)
