"""Speculative-decoding acceptance from vLLM's Prometheus counters (`/metrics`).

The counters are server-wide. We diff them around one measured repetition and attribute the
delta to it only at concurrency 1 (nothing else of ours in flight; the user is told that other
clients of the same server would pollute it). Acceptance rate = Δaccepted / Δdrafted tokens;
mean accepted per verification step = Δaccepted / Δdrafts.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from agentbench.backends.base import Backend

DRAFT_TOKENS = "vllm:spec_decode_num_draft_tokens_total"
ACCEPTED = "vllm:spec_decode_num_accepted_tokens_total"
DRAFTS = "vllm:spec_decode_num_drafts_total"
_LINE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+([0-9.eE+-]+|NaN|\+Inf|-Inf)")

METHOD = (
    "server /metrics counters diffed around one repetition at concurrency 1 "
    "(server-wide: valid only if no other client used the server meanwhile)"
)


def parse_counters(
    text: str, names: tuple[str, ...] = (DRAFT_TOKENS, ACCEPTED, DRAFTS)
) -> dict[str, float]:
    """Sum of each named counter over its label sets (all models, all engines)."""
    totals: dict[str, float] = {}
    for line in text.splitlines():
        match = _LINE.match(line)
        if match and match.group(1) in names:
            try:
                totals[match.group(1)] = totals.get(match.group(1), 0.0) + float(match.group(3))
            except ValueError:
                continue
    return totals


def metrics_url(backend: Backend) -> str:
    base = backend.base_url
    return (base[:-3] if base.endswith("/v1") else base) + "/metrics"


async def read_counters(backend: Backend) -> dict[str, float] | None:
    """The counters now, or None when the server has no /metrics or no drafter counters."""
    client = getattr(backend, "client", None)
    if not isinstance(client, httpx.AsyncClient):
        return None
    try:
        response = await client.get(metrics_url(backend), timeout=5.0)
    except httpx.HTTPError:
        return None
    if response.status_code != 200:
        return None
    counters = parse_counters(response.text)
    return counters if DRAFT_TOKENS in counters and ACCEPTED in counters else None


def acceptance(
    before: dict[str, float] | None, after: dict[str, float] | None
) -> dict[str, Any] | None:
    if not before or not after:
        return None
    drafted = after[DRAFT_TOKENS] - before[DRAFT_TOKENS]
    accepted = after[ACCEPTED] - before[ACCEPTED]
    if drafted <= 0:
        return None
    steps = after.get(DRAFTS, 0.0) - before.get(DRAFTS, 0.0)
    return {
        "acceptance_rate": accepted / drafted,
        "draft_tokens": drafted,
        "accepted_tokens": accepted,
        "mean_accepted_per_step": accepted / steps if steps > 0 else None,
        "method": METHOD,
    }
