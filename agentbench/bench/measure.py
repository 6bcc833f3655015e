"""One measured repetition: C identical-shape requests sent at once (fixed concurrency), or N
requests sent at scheduled times (request-rate mode, bench.arrivals), timed by the adapter.

Per request the adapter measures (backends.stream; docs/design.md#timing-and-tokens and
docs/bench.md): ttft_s, decode_tok_s, tpot_s, per-token itl_s, prefill_tok_s (client view),
output_tokens (server usage, else server tokenizer, else estimate), and server_decode_tok_s
from the server's own counters.

The repetition's contract keys are medians over its streams (per-stream figures; at
concurrency 1 the one request's own) and `aggregate_output_tok_s` is all output tokens of the
repetition / (last stream end − first send): the server's total rate at that load.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentbench.backends.base import Backend, ChatRequest
from agentbench.backends.decode import MIN_WINDOW_S
from agentbench.backends.vllm import server_decode_rate
from agentbench.bench.prompts import Prompt
from agentbench.bench.records import RepetitionRecord, SpecDecodeRecord, StreamRecord
from agentbench.bench.scenarios import Scenario
from agentbench.bench.specdecode import read_counters, repetition_acceptance
from agentbench.errors import BackendError
from agentbench.records import Completion

if TYPE_CHECKING:
    from agentbench.bench.workers import WorkerPool

FIGURES = ("ttft_s", "decode_tok_s", "prefill_tok_s", "output_tokens", "server_decode_tok_s")
_REJECTS_FORCE = (
    "ignore_eos",
    "min_tokens",
    "unrecognized",
    "extra_forbidden",
    "extra inputs",
    "unexpected keyword",
    "not permitted",
    "unknown parameter",
)


class LoopLag:
    """Event-loop lag of this client while a repetition runs (asyncio.sleep overshoot).

    A client that cannot keep up reads chunks late and in bunches: TTFT grows and the decode
    window shrinks, inflating per-stream rates (benchmarks/fidelity.py shows it at concurrency
    64 on 2 cores). The lag is recorded with every repetition so such figures can be flagged.
    """

    def __init__(self, interval_s: float = 0.005) -> None:
        self.interval_s = interval_s
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(self.interval_s)
            self.samples.append(max(time.perf_counter() - start - self.interval_s, 0.0))

    async def __aenter__(self) -> LoopLag:
        self._task = asyncio.create_task(self._watch())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def max_s(self) -> float | None:
        return max(self.samples) if self.samples else None


class ContextTooSmall(Exception):
    """The server refused the request for its length (HTTP 400 context_length)."""


@dataclass
class ForceOutput:
    """Whether to ask the server to produce exactly max_tokens (vLLM/llama.cpp extensions).

    Servers that reject the unknown fields flip this off once; the run records it.
    """

    enabled: bool = True
    rejected: str | None = None

    def body(self, max_tokens: int) -> dict[str, Any]:
        return {"ignore_eos": True, "min_tokens": max_tokens} if self.enabled else {}


async def complete_one(
    backend: Backend, prompt: Prompt, scenario: Scenario, force: ForceOutput
) -> tuple[Completion, float, float]:
    """One request; returns the completion and its wall start/end (perf_counter seconds)."""
    while True:
        request = ChatRequest(
            messages=prompt.messages,
            max_tokens=scenario.max_tokens,
            temperature=0.0,
            extra_body=force.body(scenario.max_tokens),
        )
        start = time.perf_counter()
        try:
            completion = await backend.complete(request)
            return completion, start, time.perf_counter()
        except BackendError as exc:
            if exc.kind == "context_length":
                raise ContextTooSmall(str(exc)) from exc
            text = str(exc).lower()
            if (
                force.enabled
                and exc.status_code in (400, 422)
                and any(word in text for word in _REJECTS_FORCE)
            ):
                force.enabled, force.rejected = False, " ".join(str(exc).split())[:200]
                continue
            raise


def _median(values: list[float | int | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def _prefill(c: Completion, prompt: Prompt) -> tuple[float | None, str]:
    if c.prefill_tok_s is not None:
        return c.prefill_tok_s, "usage"
    if c.prefill_unmeasured_reason:
        return None, "none"
    if c.ttft_s and c.ttft_s >= MIN_WINDOW_S:  # no usage: our own count (template not included)
        return (prompt.prompt_tokens + prompt.depth_tokens) / c.ttft_s, prompt.method
    return None, "none"


def stream_record(
    c: Completion, prompt: Prompt, send_s: float | None = None, scheduled_s: float | None = None
) -> StreamRecord:
    prefill, prefill_method = _prefill(c, prompt)
    return StreamRecord(
        connect_s=c.connect_s,
        connection_reused=c.connection_reused,
        ttft_s=c.ttft_s,
        ttft_byte_s=c.ttft_byte_s,
        e2e_latency_s=c.duration_s,
        decode_tok_s=c.decode_tok_s,
        decode_unmeasured_reason=c.decode_unmeasured_reason,
        tpot_s=c.tpot_s,
        itl_s=c.itl_s,
        itl_method=c.itl_method,
        chunk_gaps_s=c.chunk_gaps_s,
        prefill_tok_s=prefill,
        prefill_method=prefill_method,
        output_tokens=c.output_tokens if c.tokens_method != "none" else None,
        tokens_method=c.tokens_method,
        server_decode_tok_s=c.server_decode_tok_s,
        server_prefill_tok_s=c.server_prefill_tok_s,
        prompt_tokens=c.prompt_tokens,
        prompt_tokens_method=c.prompt_tokens_method,
        cached_prompt_tokens=c.cached_prompt_tokens,
        finish_reason=c.finish_reason,
        token_events=c.token_events,
        retries=c.retries,
        scheduled_send_s=scheduled_s,
        send_s=send_s,
    )


async def _send_at(
    backend: Backend, prompt: Prompt, scenario: Scenario, force: ForceOutput, due: float | None
) -> tuple[Completion, float, float]:
    """complete_one, after sleeping until `due` (perf_counter seconds) when one is given."""
    if due is not None:
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
    return await complete_one(backend, prompt, scenario, force)


async def measure_run(
    backend: Backend,
    prompts: list[Prompt],
    scenario: Scenario,
    force: ForceOutput,
    offsets_s: list[float] | None = None,
    counters: bool = True,
    pool: WorkerPool | None = None,
) -> RepetitionRecord:
    """Send every prompt at once (fixed concurrency = len(prompts)) or, with `offsets_s`, each
    at its scheduled time after the start (request-rate mode), and summarise the repetition.
    `counters`: read the server's /metrics around this repetition (concurrency 1 only); the
    engine reads them once around a whole sweep point instead unless asked (bench.engine).
    `pool`: at a fixed concurrency above 1, the requests go out from its worker processes."""
    concurrency = None if offsets_s is not None else len(prompts)
    before = await read_counters(backend) if counters and concurrency == 1 else None
    if pool is not None and concurrency is not None and concurrency > 1:
        outcomes, start, lag_max = await pool.gather(prompts, scenario, force)
    else:
        async with LoopLag() as lag:
            start = time.perf_counter()
            dues = [start + o for o in offsets_s] if offsets_s else [None] * len(prompts)
            outcomes = await asyncio.gather(
                *(
                    _send_at(backend, p, scenario, force, d)
                    for p, d in zip(prompts, dues, strict=True)
                ),
                return_exceptions=True,
            )
        lag_max = lag.max_s
    after = await read_counters(backend) if before else None
    for outcome in outcomes:
        if isinstance(outcome, ContextTooSmall):
            raise outcome
    planned = offsets_s if offsets_s is not None else [None] * len(prompts)
    done = [
        (o, p, s)
        for o, p, s in zip(outcomes, prompts, planned, strict=True)
        if isinstance(o, tuple)
    ]
    errors = [
        f"{getattr(o, 'kind', type(o).__name__)}: {o}"
        for o in outcomes
        if isinstance(o, BaseException)
    ]
    if not done:  # every request failed: the row cannot be measured (the engine decides)
        raise outcomes[0]  # type: ignore[misc]
    streams = [stream_record(o[0], p, o[1] - start, s) for o, p, s in done]
    run = RepetitionRecord(
        run=0,
        concurrency=concurrency,
        requests=len(prompts),
        completed=len(done),
        errors=errors,
        streams=streams,
        output_forced=force.enabled,
        nonces=[p.nonce for p in prompts if p.nonce],
        client_loop_lag_max_s=lag_max,
        workers=pool.size if pool is not None and concurrency and concurrency > 1 else 1,
    )
    for key in MEDIAN_OVER_STREAMS:
        setattr(run, key, _median([getattr(s, key) for s in streams]))
    known = [s.connection_reused for s in streams if s.connection_reused is not None]
    run.new_connections = known.count(False) if known else None
    run.tokens_method = sorted({s.tokens_method for s in streams})
    run.finish_reason = sorted({str(s.finish_reason) for s in streams})
    run.decode_unmeasured_reasons = sorted(
        {s.decode_unmeasured_reason for s in streams if s.decode_unmeasured_reason}
    )
    totals = [s.output_tokens for s in streams]
    run.wall_s = max(o[2] for o, _, _ in done) - min(o[1] for o, _, _ in done)
    if None not in totals:
        run.total_output_tokens = sum(t for t in totals if t is not None)
        if run.wall_s > 0:
            run.aggregate_output_tok_s = run.total_output_tokens / run.wall_s
    if offsets_s is not None:
        misses = [
            abs(s.send_s - s.scheduled_send_s)
            for s in streams
            if s.send_s is not None and s.scheduled_send_s is not None
        ]
        run.arrival_error_median_s = _median(list(misses))
        run.arrival_error_max_s = max(misses) if misses else None
    spec = repetition_acceptance(before, after, [o[0] for o, _, _ in done])
    run.spec_decode = SpecDecodeRecord.model_validate(spec) if spec else None
    if run.server_decode_tok_s is None and concurrency == 1:
        rate = server_decode_rate(before, after)
        if rate is not None:
            run.server_decode_tok_s = rate
            run.server_decode_method = (
                "vLLM /metrics: Δ(generation_tokens_total − 1) / Δrequest_decode_time_seconds_sum "
                "around this one request"
            )
    return run


MEDIAN_OVER_STREAMS = (
    "ttft_s",
    "decode_tok_s",
    "prefill_tok_s",
    "output_tokens",
    "server_decode_tok_s",
    "server_prefill_tok_s",
    "tpot_s",
    "e2e_latency_s",
    "prompt_tokens",
    "cached_prompt_tokens",
    "ttft_byte_s",
    "connect_s",
)
