"""Assemble a streamed chat completion and time it: the one place a stream becomes a Completion
(docs/design.md#timing-and-tokens).

Every protocol adapter turns what it read into one event type, `Delta` (OpenAI SSE chunks in
backends.sse, Ollama's NDJSON lines in backends.ollama_wire, LangChain's callback chunks in
agent.langchain_stream), and feeds it to a `StreamAccumulator` with its arrival time (ns on the
perf_counter clock). The accumulator knows nothing of HTTP or of any protocol: it keeps the
text, the tool-call fragments and the arrival times, and cuts a stream past its bounds
(backends.limits). At the end `assemble` makes the Completion from it and from what the server
counted (`Reported`): the one token-count chain (the server's counter, else its tokenizer,
else an estimate) and the one set of timing figures (backends.decode for the decode rates).
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from agentbench.backends.decode import MIN_WINDOW_S, decode_figures
from agentbench.backends.limits import MAX_STREAMED_TOOL_CALLS, StreamLimits
from agentbench.backends.think import ThinkSplitter
from agentbench.jsontext import loads
from agentbench.records import Completion, TokensMethod, ToolCallRecord, ToolFragmentRecord
from agentbench.tokens import estimate_tokens


def typed(value: Any, kind: type, what: str) -> Any:
    """A payload field: `value` when it is None or a `kind` (never a bool for int); ValueError
    naming the field otherwise, which the adapters report as a bad stream."""
    if value is None or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    raise ValueError(f"{what} = {value!r:.80}: expected {kind.__name__}")


@dataclass(frozen=True, slots=True)
class ToolDelta:
    """A piece of tool call `index`: its id, (a piece of) its name, a piece of its arguments."""

    index: int
    id: str | None = None
    name: str | None = None
    arguments: str | None = None


@dataclass(frozen=True, slots=True)
class Delta:
    """What one stream event said, in no protocol's words."""

    reasoning: str = ""
    content: str = ""
    tool_calls: tuple[ToolDelta, ...] = ()
    finish_reason: str | None = None
    model: str | None = None
    logprobs: tuple[float, ...] = ()


@dataclass
class _ToolFragment:
    id: str | None = None
    name: str = ""
    arguments: str = ""


@dataclass
class Answer:
    """What one call answered, as text: the stream's (`StreamAccumulator.answer`), or what a
    protocol that also hands over the whole message fills in where its stream said nothing."""

    content: str
    reasoning: str
    tool_calls: list[ToolCallRecord]
    fragments: list[ToolFragmentRecord] = field(default_factory=list)
    model: str | None = None
    finish_reason: str | None = None


@dataclass
class StreamAccumulator:
    """Timing and text of one streamed response. All times are ns on the perf_counter clock.

    `limits`, when set, bounds the tool calls, their fragments and the text (StreamOverLimit,
    a cut); None for a stream another client already read (LangChain's)."""

    t_send_ns: int
    split_think: bool = True
    limits: StreamLimits | None = None
    t_first_event_ns: int | None = None
    t_first_token_ns: int | None = None
    t_first_answer_ns: int | None = None
    t_last_token_ns: int | None = None
    t_end_ns: int | None = None
    # Pool wait + connect + TLS before t_send (ns), and whether a kept-alive connection was
    # used; None when the transport did not say (backends.http.SendClock).
    connect_ns: int | None = None
    connection_reused: bool | None = None
    token_events: int = 0
    # (arrival ns, characters of token text) per token-bearing event, in arrival order.
    events: list[tuple[int, int]] = field(default_factory=list)
    reasoning: str = ""
    content: str = ""
    inline_think: bool = False
    finish_reason: str | None = None
    model: str | None = None
    fragments: list[ToolFragmentRecord] = field(default_factory=list)  # as streamed, in order
    tool_argument_chars: int = 0
    logprobs: list[float] = field(default_factory=list)
    _tools: dict[int, _ToolFragment] = field(default_factory=dict)
    _splitter: ThinkSplitter = field(default_factory=ThinkSplitter)

    def event(self, t_ns: int) -> None:
        """Any SSE event or stream line arrived."""
        if self.t_first_event_ns is None:
            self.t_first_event_ns = t_ns

    def feed(self, delta: Delta, t_ns: int) -> None:
        """One event's pieces, arrived at `t_ns`: reasoning, answer text, then tool calls."""
        if delta.model:
            self.model = delta.model
        self._reasoning(delta.reasoning, t_ns)
        self._content(delta.content, t_ns)
        for call in delta.tool_calls:
            if self.limits is not None:
                self._bound_tool(call.index, self.limits)
            self._tool(call, t_ns)
        if delta.finish_reason:
            self.finish_reason = delta.finish_reason
        self.logprobs += [v for v in delta.logprobs if math.isfinite(v)]
        limits = self.limits
        if limits is not None:
            chars = len(self.content) + len(self.reasoning) + self.tool_argument_chars
            if chars > limits.text_chars:
                raise limits.cut(f"over {limits.text_chars:,} characters of text")

    def _bound_tool(self, index: int, limits: StreamLimits) -> None:
        if len(self.fragments) >= limits.fragments:
            raise limits.cut(f"over {limits.fragments:,} tool-call fragments")
        if index not in self._tools and len(self._tools) >= MAX_STREAMED_TOOL_CALLS:
            raise limits.cut(f"over {MAX_STREAMED_TOOL_CALLS} tool calls in one answer")

    def _token(self, t_ns: int, answer: bool, chars: int) -> None:
        if t_ns != self.t_last_token_ns:
            self.token_events += 1
            self.events.append((t_ns, chars))
        else:  # several deltas of one SSE event
            self.events[-1] = (t_ns, self.events[-1][1] + chars)
        if self.t_first_token_ns is None:
            self.t_first_token_ns = t_ns
        if answer and self.t_first_answer_ns is None:
            self.t_first_answer_ns = t_ns
        self.t_last_token_ns = t_ns

    def _reasoning(self, text: str, t_ns: int) -> None:
        if text:
            self.reasoning += text
            self._token(t_ns, answer=False, chars=len(text))

    def _content(self, text: str, t_ns: int) -> None:
        if not text:
            return
        if not self.split_think:
            self.content += text
            self._token(t_ns, answer=True, chars=len(text))
            return
        reasoning, answer = self._splitter.feed(text)
        self.inline_think = self._splitter.saw_think
        self.reasoning += reasoning
        self.content += answer
        # Text held back while deciding whether "<think>" opens is still a token arrival.
        self._token(t_ns, answer=bool(answer.strip()), chars=len(text))

    def _tool(self, call: ToolDelta, t_ns: int) -> None:
        name, arguments = call.name, call.arguments
        self.fragments.append(
            ToolFragmentRecord(
                index=call.index,
                t_s=(t_ns - self.t_send_ns) / 1e9,
                id=call.id,
                name=name,
                arguments=arguments,
            )
        )
        frag = self._tools.setdefault(call.index, _ToolFragment())
        new_name = name if name and name != frag.name else ""
        if call.id:
            frag.id = call.id
        if name and name != frag.name:
            # Most servers send the name once (or in fragments); llama-cpp-python repeats the
            # whole name in every chunk of the call.
            frag.name += name
        if arguments:
            frag.arguments += arguments
            self.tool_argument_chars += len(arguments)
        if name or arguments:
            self._token(t_ns, answer=True, chars=len(new_name) + len(arguments or ""))

    def finish(self, t_ns: int) -> None:
        self.t_end_ns = t_ns
        reasoning, answer = self._splitter.flush()
        self.reasoning += reasoning
        self.content += answer

    def tool_calls(self) -> list[ToolCallRecord]:
        calls = []
        for _, frag in sorted(self._tools.items()):
            try:
                parsed = loads(frag.arguments) if frag.arguments.strip() else {}
            except json.JSONDecodeError:
                parsed = None
            calls.append(
                ToolCallRecord(
                    id=frag.id,
                    name=frag.name,
                    arguments=frag.arguments,
                    parsed=parsed if isinstance(parsed, dict) else None,
                )
            )
        return calls

    def answer(self) -> Answer:
        """What the stream said (call after `finish`)."""
        return Answer(
            self.content,
            self.reasoning,
            self.tool_calls(),
            self.fragments,
            self.model,
            self.finish_reason,
        )

    def seconds(self, t_ns: int | None) -> float | None:
        return None if t_ns is None else (t_ns - self.t_send_ns) / 1e9

    def timing(
        self, output_tokens: int | None, prompt_tokens: int | None = None, cached: int | None = None
    ) -> dict[str, Any]:
        """This stream's timing figures (docs/design.md#timing-and-tokens), as Completion fields."""
        ttft = self.seconds(self.t_first_token_ns)
        prefill, prefill_reason = None, None
        if prompt_tokens is not None and ttft is not None:
            if ttft < MIN_WINDOW_S:
                prefill_reason = (
                    f"TTFT {ttft * 1000:.2f} ms is under {MIN_WINDOW_S * 1000:.0f} ms: too short "
                    "to time a prefill (a cache hit or a server that answered before prefilling)"
                )
            else:
                prefill = (prompt_tokens - (cached or 0)) / ttft
        decode = decode_figures(output_tokens, self.events, self.t_end_ns)
        return {
            "connect_s": None if self.connect_ns is None else self.connect_ns / 1e9,
            "connection_reused": self.connection_reused,
            "ttft_byte_s": self.seconds(self.t_first_event_ns),
            "ttft_s": ttft,
            "ttfa_s": self.seconds(self.t_first_answer_ns),
            "t_last_s": self.seconds(self.t_last_token_ns),
            "duration_s": self.seconds(self.t_end_ns),
            "decode_tok_s": decode.rate_tok_s,
            "decode_unmeasured_reason": decode.reason,
            "tpot_s": decode.tpot_s,
            "itl_s": decode.itl_s,
            "itl_method": decode.itl_method,
            "chunk_gaps_s": decode.chunk_gaps_s,
            "prefill_tok_s": prefill,
            "prefill_unmeasured_reason": prefill_reason,
            "token_events": self.token_events,
        }


TokenCounter = Callable[[str], Awaitable[tuple[int, TokensMethod]]]
C = TypeVar("C", bound=Completion)


async def estimated(text: str) -> tuple[int, TokensMethod]:
    """The last link of the token-count chain: a tiktoken estimate, marked so."""
    return estimate_tokens(text), "estimated"


@dataclass(frozen=True)
class Reported:
    """What the server counted for one answer (None: it did not say) and what its counts are
    called in `tokens_method`: `usage` (an OpenAI usage object) or `server_counter` (Ollama's)."""

    method: TokensMethod
    output: int | None = None
    reasoning: int | None = None
    prompt: int | None = None
    cached: int | None = None
    usage: dict[str, Any] | None = None  # the usage object as the server sent it (transcript)


async def _tokens(
    counted: int | None, method: TokensMethod, text: str, count: TokenCounter
) -> tuple[int, TokensMethod]:
    """The token-count chain: the server's count, else `count` (its tokenizer or an
    estimate) on the text, else none."""
    if counted is not None:
        return counted, method
    if text:
        return await count(text)
    return 0, "none"


async def assemble(
    acc: StreamAccumulator,
    answer: Answer,
    reported: Reported,
    count: TokenCounter,
    requested_model: str,
    record: type[C],
    **fields: Any,
) -> C:
    """The Completion (or StepRecord: `record`) of one finished stream: its answer, its tokens
    by the chain (`_tokens`), its timing, its logprobs. `fields` add to or override what a
    stream alone says (server counters, a protocol's own truncation)."""
    tool_calls = answer.tool_calls
    produced = answer.reasoning + answer.content + "".join(c.name + c.arguments for c in tool_calls)
    output, method = await _tokens(reported.output, reported.method, produced, count)
    reasoning, reasoning_method = await _tokens(
        reported.reasoning, reported.method, answer.reasoning, count
    )
    prompt, cached = reported.prompt, reported.cached
    finish = answer.finish_reason
    logprobs = acc.logprobs
    values: dict[str, Any] = {
        "model": answer.model or requested_model,
        "requested_model": requested_model,
        "prompt_tokens": prompt,
        "cached_prompt_tokens": cached,
        "prompt_tokens_method": reported.method if prompt is not None else "none",
        "output_tokens": output,
        "reasoning_tokens": reasoning,
        "tokens_method": method,
        "reasoning_method": reasoning_method,
        **acc.timing(output, prompt, cached),
        "finish_reason": finish,
        "truncated": finish == "length",
        "truncation_reason": "finish_reason=length" if finish == "length" else None,
        "content": answer.content,
        "reasoning": answer.reasoning,
        "tool_calls": tool_calls,
        "tool_call_fragments": answer.fragments,
        "usage": reported.usage,
        "mean_logprob": sum(logprobs) / len(logprobs) if logprobs else None,
        "min_logprob": min(logprobs) if logprobs else None,
    }
    values.update(fields)
    return record(**values)
