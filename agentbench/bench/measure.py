"""One measured repetition: C identical-shape requests sent at once, timed by the adapter.

Per request the adapter measures (docs/design.md#timing-and-tokens): ttft_s (first token-bearing
delta − t_send), decode_tok_s ((output_tokens − 1) / (t_last − t_first)), prefill_tok_s (uncached
prompt tokens / ttft_s, client view), output_tokens (server usage, else server tokenizer, else
estimate), and server_decode_tok_s from the server's own counters where it sends them (llama.cpp
`timings`).

A repetition at concurrency 1 reports its one request. At concurrency C > 1 the contract keys
are the median over the C streams (a per-stream figure) and `aggregate_output_tok_s` is all
output tokens of the repetition / (last stream end − first send): the server's total rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from dataclasses import dataclass
from typing import Any

from agentbench.backends.base import Backend, ChatRequest
from agentbench.backends.vllm import server_decode_rate
from agentbench.bench.prompts import Prompt
from agentbench.bench.scenarios import Scenario
from agentbench.bench.specdecode import read_counters, repetition_acceptance
from agentbench.errors import BackendError
from agentbench.records import Completion

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
    if c.ttft_s:  # no usage: our own count of what we sent (template tokens not included)
        return (prompt.prompt_tokens + prompt.depth_tokens) / c.ttft_s, prompt.method
    return None, "none"


def stream_figures(c: Completion, prompt: Prompt) -> dict[str, Any]:
    prefill, prefill_method = _prefill(c, prompt)
    return {
        "ttft_s": c.ttft_s,
        "decode_tok_s": c.decode_tok_s,
        "prefill_tok_s": prefill,
        "output_tokens": c.output_tokens if c.tokens_method != "none" else None,
        "server_decode_tok_s": c.server_decode_tok_s,
        "server_prefill_tok_s": c.server_prefill_tok_s,
        "prompt_tokens": c.prompt_tokens,
        "prompt_tokens_method": c.prompt_tokens_method,
        "cached_prompt_tokens": c.cached_prompt_tokens,
        "prefill_method": prefill_method,
        "tokens_method": c.tokens_method,
        "ttft_byte_s": c.ttft_byte_s,
        "duration_s": c.duration_s,
        "finish_reason": c.finish_reason,
        "token_events": c.token_events,
        "retries": c.retries,
    }


async def measure_run(
    backend: Backend, prompts: list[Prompt], scenario: Scenario, force: ForceOutput
) -> dict[str, Any]:
    """Send every prompt at once (len(prompts) = concurrency) and summarise the repetition."""
    concurrency = len(prompts)
    before = await read_counters(backend) if concurrency == 1 else None
    async with LoopLag() as lag:
        outcomes = await asyncio.gather(
            *(complete_one(backend, p, scenario, force) for p in prompts), return_exceptions=True
        )
    after = await read_counters(backend) if before else None
    for outcome in outcomes:
        if isinstance(outcome, ContextTooSmall):
            raise outcome
    done = [(o, p) for o, p in zip(outcomes, prompts, strict=True) if isinstance(o, tuple)]
    errors = [
        f"{getattr(o, 'kind', type(o).__name__)}: {o}"
        for o in outcomes
        if isinstance(o, BaseException)
    ]
    if not done:  # every request failed: the row cannot be measured (the engine decides)
        raise outcomes[0]  # type: ignore[misc]
    streams = [stream_figures(o[0], p) for o, p in done]
    run: dict[str, Any] = {
        "concurrency": concurrency,
        "requests": concurrency,
        "completed": len(done),
        "errors": errors,
    }
    if concurrency == 1 and streams:
        run.update(streams[0])
    else:
        for key in (
            *FIGURES,
            "server_prefill_tok_s",
            "prompt_tokens",
            "cached_prompt_tokens",
            "ttft_byte_s",
            "duration_s",
        ):
            run[key] = _median([s[key] for s in streams])
        run["tokens_method"] = sorted({s["tokens_method"] for s in streams})
        run["finish_reason"] = sorted({str(s["finish_reason"]) for s in streams})
    totals = [s["output_tokens"] for s in streams]
    run["total_output_tokens"] = sum(totals) if streams and None not in totals else None
    if done and run["total_output_tokens"] is not None:
        wall = max(o[2] for o, _ in done) - min(o[1] for o, _ in done)
        run["aggregate_output_tok_s"] = run["total_output_tokens"] / wall if wall > 0 else None
    else:
        run["aggregate_output_tok_s"] = None
    run["output_forced"] = force.enabled
    run["spec_decode"] = repetition_acceptance(before, after, [o[0] for o, _ in done])
    if run.get("server_decode_tok_s") is None and concurrency == 1:
        rate = server_decode_rate(before, after)
        if rate is not None:
            run["server_decode_tok_s"] = rate
            run["server_decode_method"] = (
                "vLLM /metrics: Δ(generation_tokens_total − 1) / Δrequest_decode_time_seconds_sum "
                "around this one request"
            )
    run["nonces"] = [p.nonce for p in prompts]
    run["client_loop_lag_max_s"] = lag.max_s
    return run
