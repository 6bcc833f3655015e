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
