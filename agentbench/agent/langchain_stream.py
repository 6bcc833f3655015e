"""Timing a LangChain chat model's calls from their streams, and turning each call into a step.

`RoutedChatModel` has no streaming path of its own (its `astream` yields one chunk at the end), so
each inner `ChatOpenAI` is built with `streaming=True`: its SSE stream is read by the openai SDK,
and every chunk reaches `on_llm_new_token` of a `StreamTimer` attached to the inner models, where
it is timestamped with `perf_counter_ns`. `t_send` is taken at `on_chat_model_start` (just before
the SDK builds and writes the request), the stream end at `on_llm_end`. Offsets follow
docs/design.md#timing-and-tokens: ttft_s is the first chunk carrying text, reasoning or a
tool-call fragment, ttfa_s the first carrying text or a tool-call fragment. The SDK parses each
SSE line before LangChain sees it, so these figures include the stack's own overhead: that is
what a LangChain deployment sees. Each chunk becomes one `Delta` for the StreamAccumulator the
native backends use, and each call's step is made by the same backends.stream.assemble.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from agentbench.backends.base import Backend
from agentbench.backends.stream import (
    Answer,
    Delta,
    Reported,
    StreamAccumulator,
    ToolDelta,
    assemble,
    estimated,
)
from agentbench.records import StepRecord, ToolCallRecord

try:  # optional: the `langchain` extra
    from langchain_core.callbacks import AsyncCallbackHandler
except ImportError:  # pragma: no cover - checked when the agent is built
    AsyncCallbackHandler = object  # type: ignore[assignment,misc]


@dataclass
class CallTiming:
    """One inner ChatOpenAI call: its stream, timed on arrival as the native backend times SSE."""

    acc: StreamAccumulator
    message: Any = None  # the aggregated AIMessage (on_llm_end)
    error: BaseException | None = None


def reasoning_text(message: Any) -> str:
    extra = getattr(message, "additional_kwargs", None) or {}
    text = extra.get("reasoning_content") or extra.get("reasoning") or ""
    if isinstance(text, str) and text:
        return text
    content = getattr(message, "content", None)
    if isinstance(content, list):
        return "".join(
            str(b.get("reasoning") or b.get("text") or "")
            for b in content
            if isinstance(b, dict) and b.get("type") in ("reasoning", "thinking")
        )
    return ""


def answer_text(message: Any) -> str:
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return content
    return "".join(
        b if isinstance(b, str) else str(b.get("text") or "")
        for b in content or []
        if isinstance(b, str) or (isinstance(b, dict) and b.get("type") == "text")
    )


class StreamTimer(AsyncCallbackHandler):  # type: ignore[misc,valid-type]
    """Timestamps the chunks of every call made by the models it is attached to (one episode)."""

    raise_error = True

    def __init__(self) -> None:
        self.calls: list[CallTiming] = []
        self._open: dict[UUID, CallTiming] = {}

    async def on_chat_model_start(
        self, serialized: Any, messages: Any, *, run_id: UUID, **kwargs: Any
    ) -> None:
        timing = CallTiming(StreamAccumulator(t_send_ns=time.perf_counter_ns()))
        self._open[run_id] = timing
        self.calls.append(timing)

    async def on_llm_new_token(  # type: ignore[override]
        self, token: Any, *, chunk: Any = None, run_id: UUID, **kwargs: Any
    ) -> None:
        now = time.perf_counter_ns()
        timing = self._open.get(run_id)
        if timing is None:
            return
        timing.acc.event(now)
        timing.acc.feed(chunk_delta(token, chunk, kwargs.get("logprobs")), now)

    async def on_llm_end(self, response: Any, *, run_id: UUID, **kwargs: Any) -> None:
        now = time.perf_counter_ns()
        timing = self._open.pop(run_id, None)
        if timing is None:
            return
        timing.acc.finish(now)
        generations = getattr(response, "generations", None) or [[]]
        if generations and generations[0]:
            timing.message = getattr(generations[0][0], "message", None)

    async def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        timing = self._open.pop(run_id, None)
        if timing is not None:
            timing.acc.finish(time.perf_counter_ns())
            timing.error = error


def chunk_delta(token: Any, chunk: Any, logprobs: Any) -> Delta:
    """One LangChain chunk (its message chunk, else its token text) as a Delta."""
    message = getattr(chunk, "message", None)
    if message is None:
        return Delta(content=str(token or ""))
    return Delta(
        reasoning=reasoning_text(message),
        content=answer_text(message),
        tool_calls=tuple(
            ToolDelta(
                int(frag.get("index") or 0),
                id=frag.get("id"),
                name=frag.get("name"),
                arguments=frag.get("args"),
            )
            for frag in getattr(message, "tool_call_chunks", None) or []
        ),
        logprobs=tuple(
            float(item["logprob"])
            for item in (logprobs or {}).get("content") or []
            if isinstance(item, dict) and isinstance(item.get("logprob"), int | float)
        ),
    )


async def step_record(
    timing: CallTiming, message: Any, backend: Backend, target: str, t0_ns: int, index: int
) -> StepRecord:
    """One inner call as a step: timing from its stream, tokens from `usage_metadata` (else an
    estimate marked `estimated`; chunks are never counted as tokens), text and calls as
    streamed, else as the aggregated message has them."""
    meta = getattr(message, "response_metadata", None) or {}
    usage = getattr(message, "usage_metadata", None) or {}
    acc = timing.acc
    answer = Answer(
        content=acc.content if acc.token_events else answer_text(message),
        reasoning=acc.reasoning or reasoning_text(message),
        tool_calls=tool_calls_of(timing, message),
        model=meta.get("model_name") or meta.get("model"),
        finish_reason=meta.get("finish_reason"),
    )
    # A reasoning count of 0 beside reasoning text is taken as no count (the text is counted).
    said = (usage.get("output_token_details") or {}).get("reasoning")
    reported = Reported(
        "usage",
        output=None if usage.get("output_tokens") is None else int(usage["output_tokens"]),
        reasoning=int(said) if said is not None and (said or not answer.reasoning) else None,
        prompt=usage.get("input_tokens"),
        cached=(usage.get("input_token_details") or {}).get("cache_read"),
    )
    step = await assemble(
        acc,
        answer,
        reported,
        estimated,
        backend.model,
        StepRecord,
        index=index,
        target=target,
        t_start_s=(acc.t_send_ns - t0_ns) / 1e9,
    )
    step.server_counters["agent"] = "langchain"
    return step


def tool_calls_of(timing: CallTiming, message: Any) -> list[ToolCallRecord]:
    """The calls as streamed (raw argument text), else as LangChain parsed them."""
    out = timing.acc.tool_calls()
    if out:
        return out
    for call in getattr(message, "tool_calls", None) or []:
        text = json.dumps(call.get("args") or {})
        out.append(
            ToolCallRecord(
                id=call.get("id"), name=call["name"], arguments=text, parsed=call.get("args")
            )
        )
    for call in getattr(message, "invalid_tool_calls", None) or []:
        out.append(
            ToolCallRecord(
                id=call.get("id"),
                name=call.get("name") or "",
                arguments=call.get("args") or "",
                parsed=None,
            )
        )
    return out
