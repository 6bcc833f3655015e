"""Assemble a streamed chat completion and time it (docs/design.md#timing-and-tokens).

The accumulator is fed parsed delta pieces with their arrival time (ns, perf_counter clock) and
knows nothing of HTTP or of any one protocol: adapters translate their payloads into
`add_reasoning`, `add_content`, `add_tool_fragment` calls and hand over usage and counters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agentbench.records import ToolCallRecord

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"


class ThinkSplitter:
    """Splits inline `<think>…</think>` reasoning out of streamed answer text, incrementally."""

    def __init__(self) -> None:
        self.mode = "start"  # start | think | answer
        self.pending = ""
        self.saw_think = False

    def feed(self, piece: str) -> tuple[str, str]:
        """Returns (reasoning, answer) text released by this piece."""
        self.pending += piece
        reasoning, answer = "", ""
        while self.pending:
            if self.mode == "start":
                stripped = self.pending.lstrip()
                if stripped.startswith(THINK_OPEN):
                    self.mode, self.pending = "think", stripped[len(THINK_OPEN) :]
                    self.saw_think = True
                elif THINK_OPEN.startswith(stripped):
                    break  # could still become "<think>"
                else:
                    self.mode = "answer"
            elif self.mode == "think":
                end = self.pending.find(THINK_CLOSE)
                if end >= 0:
                    reasoning += self.pending[:end]
                    self.pending = self.pending[end + len(THINK_CLOSE) :].lstrip("\n")
                    self.mode = "answer"
                    continue
                keep = len(THINK_CLOSE) - 1
                if len(self.pending) > keep:
                    reasoning += self.pending[:-keep]
                    self.pending = self.pending[-keep:]
                break
            else:
                answer, self.pending = answer + self.pending, ""
        return reasoning, answer

    def flush(self) -> tuple[str, str]:
        rest, self.pending = self.pending, ""
        return (rest, "") if self.mode == "think" else ("", rest)


@dataclass
class _ToolFragment:
    id: str | None = None
    name: str = ""
    arguments: str = ""


@dataclass
class StreamAccumulator:
    """Timing and text of one streamed response. All times are ns on the perf_counter clock."""

    t_send_ns: int
    split_think: bool = True
    t_first_event_ns: int | None = None
    t_first_token_ns: int | None = None
    t_first_answer_ns: int | None = None
    t_last_token_ns: int | None = None
    t_end_ns: int | None = None
    token_events: int = 0
    reasoning: str = ""
    content: str = ""
    inline_think: bool = False
    finish_reason: str | None = None
    model: str | None = None
    _tools: dict[int, _ToolFragment] = field(default_factory=dict)
    _splitter: ThinkSplitter = field(default_factory=ThinkSplitter)

    def event(self, t_ns: int) -> None:
        """Any SSE event or stream line arrived."""
        if self.t_first_event_ns is None:
            self.t_first_event_ns = t_ns

    def _token(self, t_ns: int, answer: bool) -> None:
        if t_ns != self.t_last_token_ns:
            self.token_events += 1
        if self.t_first_token_ns is None:
            self.t_first_token_ns = t_ns
        if answer and self.t_first_answer_ns is None:
            self.t_first_answer_ns = t_ns
        self.t_last_token_ns = t_ns

    def add_reasoning(self, text: str, t_ns: int) -> None:
        if text:
            self.reasoning += text
            self._token(t_ns, answer=False)

    def add_content(self, text: str, t_ns: int) -> None:
        if not text:
            return
        if not self.split_think:
            self.content += text
            self._token(t_ns, answer=True)
            return
        reasoning, answer = self._splitter.feed(text)
        self.inline_think = self._splitter.saw_think
        self.reasoning += reasoning
        self.content += answer
        # Text held back while deciding whether "<think>" opens is still a token arrival.
        self._token(t_ns, answer=bool(answer.strip()))

    def add_tool_fragment(
        self, index: int, t_ns: int, *, id: str | None, name: str | None, arguments: str | None
    ) -> None:
        frag = self._tools.setdefault(index, _ToolFragment())
        if id:
            frag.id = id
        if name and name != frag.name:
            # Most servers send the name once (or in fragments); llama-cpp-python repeats the
            # whole name in every chunk of the call.
            frag.name += name
        if arguments:
            frag.arguments += arguments
        if name or arguments:
            self._token(t_ns, answer=True)

    def finish(self, t_ns: int) -> None:
        self.t_end_ns = t_ns
        reasoning, answer = self._splitter.flush()
        self.reasoning += reasoning
        self.content += answer

    def tool_calls(self) -> list[ToolCallRecord]:
        calls = []
        for _, frag in sorted(self._tools.items()):
            try:
                parsed = json.loads(frag.arguments) if frag.arguments.strip() else {}
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

    def seconds(self, t_ns: int | None) -> float | None:
        return None if t_ns is None else (t_ns - self.t_send_ns) / 1e9

    def timing(
        self, output_tokens: int | None, prompt_tokens: int | None = None, cached: int | None = None
    ) -> dict[str, Any]:
        """This stream's timing figures (docs/design.md#timing-and-tokens), as Completion fields."""
        ttft = self.seconds(self.t_first_token_ns)
        prefill = None
        if prompt_tokens is not None and ttft:
            prefill = (prompt_tokens - (cached or 0)) / ttft
        return {
            "ttft_byte_s": self.seconds(self.t_first_event_ns),
            "ttft_s": ttft,
            "ttfa_s": self.seconds(self.t_first_answer_ns),
            "t_last_s": self.seconds(self.t_last_token_ns),
            "duration_s": self.seconds(self.t_end_ns),
            "decode_tok_s": decode_rate(output_tokens, self.t_first_token_ns, self.t_last_token_ns),
            "prefill_tok_s": prefill,
            "token_events": self.token_events,
        }


def decode_rate(
    output_tokens: int | None, t_first_ns: int | None, t_last_ns: int | None
) -> float | None:
    """(output_tokens - 1) / (t_last - t_first): the first token's arrival starts the clock."""
    if output_tokens is None or output_tokens < 2 or t_first_ns is None or t_last_ns is None:
        return None
    window = (t_last_ns - t_first_ns) / 1e9
    if window <= 0:
        return None
    return (output_tokens - 1) / window
