"""Assemble a streamed chat completion and time it: the one place a timed stream becomes figures
(docs/design.md#timing-and-tokens).

The accumulator is fed parsed delta pieces with their arrival time (ns, perf_counter clock) and
knows nothing of HTTP or of any one protocol: adapters translate their payloads into
`add_reasoning`, `add_content`, `add_tool_fragment` calls and hand over usage and counters.

Decode figures (decode_tok_s, tpot_s, per-token ITL) exist only when the tokens arrived spread
over time (`decode_figures`): a burst gives None and the reason, never an absurd rate.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from agentbench.jsontext import loads
from agentbench.records import ToolCallRecord, ToolFragmentRecord

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


def typed(value: Any, kind: type, what: str) -> Any:
    """A payload field: `value` when it is None or a `kind` (never a bool for int); ValueError
    naming the field otherwise, which the adapters report as a bad stream."""
    if value is None or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    raise ValueError(f"{what} = {value!r:.80}: expected {kind.__name__}")


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
    _tools: dict[int, _ToolFragment] = field(default_factory=dict)
    _splitter: ThinkSplitter = field(default_factory=ThinkSplitter)

    def event(self, t_ns: int) -> None:
        """Any SSE event or stream line arrived."""
        if self.t_first_event_ns is None:
            self.t_first_event_ns = t_ns

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

    def add_reasoning(self, text: str, t_ns: int) -> None:
        if text:
            self.reasoning += text
            self._token(t_ns, answer=False, chars=len(text))

    def add_content(self, text: str, t_ns: int) -> None:
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

    def add_tool_fragment(
        self, index: int, t_ns: int, *, id: str | None, name: str | None, arguments: str | None
    ) -> None:
        self.fragments.append(
            ToolFragmentRecord(
                index=index,
                t_s=(t_ns - self.t_send_ns) / 1e9,
                id=id,
                name=name,
                arguments=arguments,
            )
        )
        frag = self._tools.setdefault(index, _ToolFragment())
        new_name = name if name and name != frag.name else ""
        if id:
            frag.id = id
        if name and name != frag.name:
            # Most servers send the name once (or in fragments); llama-cpp-python repeats the
            # whole name in every chunk of the call.
            frag.name += name
        if arguments:
            frag.arguments += arguments
            self.tool_argument_chars += len(arguments)
        if name or arguments:
            self._token(t_ns, answer=True, chars=len(new_name) + len(arguments or ""))

    def tool_indices(self) -> Collection[int]:
        """The indices of the tool calls streamed so far."""
        return self._tools.keys()

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


# A decode window shorter than this cannot be timed on a client clock shared with other work
# (scheduling jitter is ~1 ms), and no served model decodes a long answer in it.
MIN_WINDOW_S = 0.005
# Tokens arriving this soon after the previous event came out of one buffer (a burst the server
# or this client's reads bunched), not out of separate decode steps: 0.1 ms is 10,000 tok/s.
BURST_GAP_S = 0.0001
# A stream whose decode events are mostly burst gaps has no measurable decode rate.
MAX_BURST_SHARE = 0.5
# Nor one where a single event of several tokens (more than a drafter's usual chunk) brought
# most of the tokens after the first: one late read can make such a burst look spread.
MIN_HEAVY_EVENT = 4
MAX_EVENT_SHARE = 0.5


@dataclass(frozen=True)
class DecodeFigures:
    """Decode figures of one stream, or None for each with the reason."""

    rate_tok_s: float | None = None
    tpot_s: float | None = None
    itl_s: list[float] | None = None
    itl_method: str | None = None
    chunk_gaps_s: list[float] | None = None
    reason: str | None = None


def decode_figures(
    output_tokens: int | None, events: list[tuple[int, int]], t_end_ns: int | None
) -> DecodeFigures:
    """decode_tok_s = (output_tokens − 1) / (t_last − t_first): the first token starts the clock.

    tpot_s = (stream end − first token) / (output_tokens − 1), as vLLM's bench serve (TPOT) and
    AIPerf (its per-request ITL) define it. itl_s lists one gap per token after the first: an
    event carrying k tokens arrived g after the previous one gives k gaps of g / k (tokens, not
    chunks). chunk_gaps_s lists the gap per event, the figure vLLM's bench serve calls ITL.
    None with a reason unless at least two events spread over MIN_WINDOW_S brought the tokens,
    most events were not bursts (BURST_GAP_S), and no single event of several tokens brought
    most of them (MAX_EVENT_SHARE).
    """
    if output_tokens is None or output_tokens < 2:
        return DecodeFigures(reason=f"{output_tokens or 0} output tokens: a rate needs 2")
    if len(events) < 2:
        return DecodeFigures(
            reason=f"all {output_tokens} tokens arrived in {len(events)} event: no decode "
            "timeline (a burst)"
        )
    times = [t for t, _ in events]
    window_s = (times[-1] - times[0]) / 1e9
    gaps = [(b - a) / 1e9 for a, b in itertools.pairwise(times)]
    if window_s < MIN_WINDOW_S:
        return DecodeFigures(
            reason=f"{output_tokens} tokens arrived within {window_s * 1000:.3f} ms "
            f"({len(events)} events): a burst, not a decode; under "
            f"{MIN_WINDOW_S * 1000:.0f} ms no rate is measurable"
        )
    bursts = sum(1 for g in gaps if g < BURST_GAP_S)
    if bursts > MAX_BURST_SHARE * len(gaps):
        return DecodeFigures(
            reason=f"{bursts} of {len(gaps)} token events came less than "
            f"{BURST_GAP_S * 1e3:.1f} ms after the previous one: the tokens were released "
            "in bursts, so their arrival does not time the decode"
        )
    decoded = output_tokens - 1
    heaviest = max(apportion([c for _, c in events[1:]], decoded))
    if heaviest >= MIN_HEAVY_EVENT and heaviest > MAX_EVENT_SHARE * decoded:
        return DecodeFigures(
            reason=f"one event carried {heaviest} of the {decoded} tokens after the first: "
            "most of the answer arrived at once (a burst the client may have read late), so "
            "its arrival does not time the decode"
        )
    tpot = None
    if t_end_ns is not None:
        tpot = (t_end_ns - times[0]) / 1e9 / decoded
    itl, method = token_gaps(gaps, [c for _, c in events[1:]], decoded)
    return DecodeFigures(
        rate_tok_s=decoded / window_s,
        tpot_s=tpot,
        itl_s=itl,
        itl_method=method,
        chunk_gaps_s=gaps,
    )


def apportion(chars: list[int], tokens: int) -> list[int]:
    """Tokens per event: one each when the counts match; otherwise `tokens` shared by text
    length (largest remainder; every event with text gets at least one when there are enough;
    the last event, which closes the window, always carries one)."""
    if tokens == len(chars):
        return [1] * len(chars)
    total = sum(chars) or len(chars)
    weights = [c if sum(chars) else 1 for c in chars]
    floor_min = 1 if tokens >= len(chars) else 0
    shares = [max(floor_min, int(tokens * w / total)) for w in weights]
    while sum(shares) > tokens:  # the floor of 1 overshot: take back from the largest
        shares[shares.index(max(shares))] -= 1
    order = sorted(range(len(weights)), key=lambda i: tokens * weights[i] / total - shares[i])
    for i in reversed(order[-(tokens - sum(shares)) :] if tokens > sum(shares) else []):
        shares[i] += 1
    if shares[-1] == 0:
        shares[shares.index(max(shares))] -= 1
        shares[-1] = 1
    return shares


def token_gaps(gaps: list[float], chars: list[int], tokens: int) -> tuple[list[float], str]:
    """Per-token gaps: each event's gap shared by the tokens it carried (`apportion`); an event
    given no token passes its gap on to the next one."""
    shares = apportion(chars, tokens)
    out: list[float] = []
    carried = 0.0
    for gap, k in zip(gaps, shares, strict=True):
        carried += gap
        if k:
            out += [carried / k] * k
            carried = 0.0
    method = "one_token_per_event" if tokens == len(gaps) else "apportioned_by_text_length"
    return out, method
