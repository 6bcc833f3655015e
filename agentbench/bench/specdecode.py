"""Speculative-decoding acceptance for one bench repetition.

vLLM: the drafter counters of `/metrics` (read and parsed by agentbench.backends.vllm, shared with
the runner) are server-wide, so we diff them around a repetition only at concurrency 1 and say
that another client of the same server would pollute them. llama.cpp: per-request
`timings.draft_n` / `draft_n_accepted`, exact at any concurrency, pooled over the repetition's
requests. Acceptance rate = Δaccepted / Δdrafted tokens.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agentbench.backends.base import Backend
from agentbench.backends.vllm import (
    SpecSnapshot,
    acceptance,
    combine,
    llamacpp_acceptance,
    metrics_access,
    metrics_url_for,
    read_spec_metrics,
)
from agentbench.records import Completion

METHOD = (
    "vLLM /metrics counters diffed around one repetition at concurrency 1 (server-wide: valid "
    "only if no other client used the server meanwhile)"
)


ROW_METHOD = (
    "vLLM /metrics counters read once before and once after the sweep point's measured "
    "repetitions at concurrency 1 (server-wide: valid only if no other client used the server "
    "meanwhile)"
)


async def read_counters(backend: Backend) -> SpecSnapshot | None:
    """The drafter counters now, or None when the server has no /metrics or no drafter."""
    access = metrics_access(backend)
    if access is None:
        return None
    return await read_spec_metrics(access[0], metrics_url_for(backend), access[1])


def repetition_acceptance(
    before: SpecSnapshot | None, after: SpecSnapshot | None, completions: Iterable[Completion]
) -> dict[str, Any] | None:
    """vLLM counters when read (concurrency 1), else llama.cpp's per-request drafting figures."""
    figures = acceptance(before, after, "repetition", METHOD)
    if figures is not None:
        return figures
    pooled = combine(llamacpp_acceptance([c]) for c in completions)
    if pooled is None:
        return None
    return {
        **pooled,
        "source": "llamacpp_timings",
        "scope": "repetition",
        "description": "llama.cpp per-request timings (draft_n, draft_n_accepted), pooled "
        "over the repetition's requests",
    }


def row_figures(
    before: SpecSnapshot | None, after: SpecSnapshot | None, requests: int
) -> tuple[dict[str, Any] | None, float | None]:
    """Acceptance and vLLM's own decode rate over a sweep point's `requests` sequential
    requests, from one /metrics read before and one after them: (Δgenerated − requests) /
    Δdecode time, the client's (tokens − 1) / window summed over the requests. The rate is None
    unless exactly `requests` requests finished in between."""
    spec = acceptance(before, after, "row", ROW_METHOD)
    if before is None or after is None:
        return spec, None
    finished = after.decode_requests - before.decode_requests
    seconds = after.decode_time_s - before.decode_time_s
    tokens = after.generated_tokens - before.generated_tokens
    if finished != requests or seconds <= 0 or tokens < 2 * requests:
        return spec, None
    return spec, (tokens - requests) / seconds
