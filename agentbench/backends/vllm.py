"""vLLM's own view of a run: speculative-decoding acceptance from `/metrics`, and server facts.

vLLM's drafter counters (`vllm:spec_decode_num_drafts_total`, `…_num_draft_tokens_total`,
`…_num_accepted_tokens_total`, `…_num_accepted_tokens_per_pos_total{position}`) are server-wide:
a difference taken around an episode belongs to that episode only if nothing else ran on the
server meanwhile. So `SpecDecodeMonitor` (the runner's hook) diffs them around each episode when
the run goes one episode at a time (concurrency 1) and around the whole run otherwise, and every
figure says which: `scope` is "episode" or "run", with a sentence on what it may include.

llama.cpp reports drafting per request instead (`timings.draft_n` / `draft_n_accepted`): exact
at any concurrency, summed from the steps' recorded timings.

Acceptance rate = Δaccepted / Δdrafted tokens; mean accepted per draft = Δaccepted / Δdrafts;
per-position rate = Δaccepted at position i / Δdrafts (the share of drafts whose i-th token held).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import httpx

from agentbench.backends.base import Backend
from agentbench.backends.http import HttpBackend
from agentbench.backends.providers import api_root
from agentbench.records import EpisodeResult, RunRecord

DRAFTS = "vllm:spec_decode_num_drafts_total"
DRAFT_TOKENS = "vllm:spec_decode_num_draft_tokens_total"
ACCEPTED = "vllm:spec_decode_num_accepted_tokens_total"
PER_POS = "vllm:spec_decode_num_accepted_tokens_per_pos_total"
DECODE_SUM = "vllm:request_decode_time_seconds_sum"
DECODE_COUNT = "vllm:request_decode_time_seconds_count"
GENERATED = "vllm:generation_tokens_total"
_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)")
_POSITION = re.compile(r'position="(\d+)"')

SCOPE_EPISODE = (
    "vLLM /metrics diffed around this episode; it ran alone (concurrency 1), so "
    "only another client of the same server could have added to it"
)
SCOPE_RUN = (
    "vLLM /metrics diffed around the whole run (concurrency {n}: server-wide counters "
    "cannot be split between episodes that overlap)"
)
SCOPE_LLAMACPP = "llama.cpp per-request timings (draft_n, draft_n_accepted), summed over steps"


@dataclass
class SpecSnapshot:
    """The drafter counters at one instant (summed over engines and label sets)."""

    drafts: float = 0.0
    draft_tokens: float = 0.0
    accepted: float = 0.0
    per_position: dict[int, float] = field(default_factory=dict)
    decode_time_s: float = 0.0  # vLLM's per-request decode-phase histogram: sum and count
    decode_requests: float = 0.0
    generated_tokens: float = 0.0


def parse_spec_metrics(text: str) -> SpecSnapshot | None:
    """The drafter counters in a Prometheus text page; None when the server has no drafter."""
    snap, seen = SpecSnapshot(), False
    for line in text.splitlines():
        match = _SAMPLE.match(line)
        if not match:
            continue
        name, labels, raw = match.groups()
        if name not in (
            DRAFTS,
            DRAFT_TOKENS,
            ACCEPTED,
            PER_POS,
            DECODE_SUM,
            DECODE_COUNT,
            GENERATED,
        ):
            continue
        try:
            value = float(raw)
        except ValueError:
            continue
        if name in (DECODE_SUM, DECODE_COUNT, GENERATED):
            if name == DECODE_SUM:
                snap.decode_time_s += value
            elif name == DECODE_COUNT:
                snap.decode_requests += value
            else:
                snap.generated_tokens += value
            continue
        seen = True
        if name == DRAFTS:
            snap.drafts += value
        elif name == DRAFT_TOKENS:
            snap.draft_tokens += value
        elif name == ACCEPTED:
            snap.accepted += value
        else:
            pos = _POSITION.search(labels or "")
            if pos:
                key = int(pos.group(1))
                snap.per_position[key] = snap.per_position.get(key, 0.0) + value
    return snap if seen else None


def acceptance(
    before: SpecSnapshot | None, after: SpecSnapshot | None, scope: str, description: str
) -> dict[str, Any] | None:
    """Acceptance figures of the counters' difference; None when nothing was drafted."""
    if before is None or after is None:
        return None
    drafted = after.draft_tokens - before.draft_tokens
    accepted = after.accepted - before.accepted
    drafts = after.drafts - before.drafts
    if drafted <= 0:
        return None
    per_pos = {
        str(pos): (after.per_position.get(pos, 0.0) - before.per_position.get(pos, 0.0)) / drafts
        for pos in sorted(after.per_position)
        if drafts > 0
    }
    return {
        "source": "vllm_metrics",
        "scope": scope,
        "description": description,
        "draft_tokens": int(drafted),
        "accepted_tokens": int(accepted),
        "drafts": int(drafts),
        "acceptance_rate": accepted / drafted,
        "mean_accepted_per_draft": accepted / drafts if drafts > 0 else None,
        "per_position_acceptance": per_pos or None,
    }


def server_decode_rate(before: SpecSnapshot | None, after: SpecSnapshot | None) -> float | None:
    """vLLM's own decode rate for exactly one request finished between two snapshots:
    (generated tokens - 1) / decode-phase time, the same definition as the client's."""
    if before is None or after is None:
        return None
    requests = after.decode_requests - before.decode_requests
    seconds = after.decode_time_s - before.decode_time_s
    tokens = after.generated_tokens - before.generated_tokens
    if requests != 1 or seconds <= 0 or tokens < 2:
        return None
    return (tokens - 1) / seconds


def llamacpp_acceptance(steps: Iterable[Any]) -> dict[str, Any] | None:
    """Drafting figures from llama.cpp's per-request `timings`, when its server drafts."""
    drafted = accepted = 0
    seen = False
    for step in steps:
        timings = (getattr(step, "server_counters", None) or {}).get("timings") or {}
        n, ok = timings.get("draft_n"), timings.get("draft_n_accepted")
        if isinstance(n, int | float) and isinstance(ok, int | float):
            seen = True
            drafted += int(n)
            accepted += int(ok)
    if not seen or drafted <= 0:
        return None
    return {
        "source": "llamacpp_timings",
        "scope": "episode",
        "description": SCOPE_LLAMACPP,
        "draft_tokens": drafted,
        "accepted_tokens": accepted,
        "drafts": None,
        "acceptance_rate": accepted / drafted,
        "mean_accepted_per_draft": None,
        "per_position_acceptance": None,
    }


def combine(figures: Iterable[dict[str, Any] | None]) -> dict[str, Any] | None:
    """Pool several acceptance figures (e.g. the episodes of one category): Σaccepted / Σdrafted."""
    items = [f for f in figures if f and f.get("draft_tokens")]
    if not items:
        return None
    drafted = sum(f["draft_tokens"] for f in items)
    accepted = sum(f["accepted_tokens"] for f in items)
    return {
        "acceptance_rate": accepted / drafted,
        "draft_tokens": drafted,
        "accepted_tokens": accepted,
        "episodes": len(items),
        "sources": sorted({f.get("source", "?") for f in items}),
    }


def by_category(episodes: Iterable[EpisodeResult]) -> dict[str, dict[str, Any]]:
    """Pooled acceptance per task category, from episodes that carry their own figures."""
    groups: dict[str, list[dict[str, Any] | None]] = defaultdict(list)
    for e in episodes:
        groups[e.category].append(e.spec_decode)
    out = {}
    for category, figures in sorted(groups.items()):
        pooled = combine(figures)
        if pooled:
            out[category] = pooled
    return out


async def read_spec_metrics(
    client: httpx.AsyncClient, metrics_url: str, headers: dict[str, str] | None = None
) -> SpecSnapshot | None:
    try:
        response = await client.get(metrics_url, headers=headers or {}, timeout=5.0)
    except httpx.HTTPError:
        return None
    if response.status_code != 200:
        return None
    return parse_spec_metrics(response.text)


def metrics_url_for(backend: Backend) -> str:
    return api_root(backend.base_url) + "/metrics"


def metrics_access(backend: Backend | None) -> tuple[httpx.AsyncClient, dict[str, str]] | None:
    """The client and the authorization header to read a backend's /metrics with."""
    if not isinstance(backend, HttpBackend):
        return None
    auth = {k: v for k, v in backend.auth_headers().items() if k.lower() == "authorization"}
    return backend.client, auth


class SpecDecodeMonitor:
    """The runner's hook: speculative-decoding acceptance around episodes and around the run.

    Inactive (no requests beyond one probe) when the local server shows no drafter counters.
    """

    def __init__(self, backend: Backend | None, concurrency: int = 1) -> None:
        self.backend = backend
        self.concurrency = max(1, concurrency)
        self.active = False
        self._run_before: SpecSnapshot | None = None
        self._episode_before: SpecSnapshot | None = None
        self.run_figures: dict[str, Any] | None = None

    async def _read(self) -> SpecSnapshot | None:
        access = metrics_access(self.backend)
        if self.backend is None or access is None:
            return None
        return await read_spec_metrics(access[0], metrics_url_for(self.backend), access[1])

    async def before_run(self, run: RunRecord) -> None:
        if isinstance(run.config.get("concurrency"), int):  # a resumed run keeps its own
            self.concurrency = max(1, run.config["concurrency"])
        self._run_before = await self._read()
        self.active = self._run_before is not None

    async def before_episode(self) -> None:
        if self.active and self.concurrency == 1:
            self._episode_before = await self._read()

    async def after_episode(self, episode: EpisodeResult) -> None:
        figures = llamacpp_acceptance(episode.steps)
        if figures is None and self.active and self.concurrency == 1:
            after = await self._read()
            figures = acceptance(self._episode_before, after, "episode", SCOPE_EPISODE)
        if figures is not None:
            episode.spec_decode = figures

    async def after_run(self, run: RunRecord) -> None:
        if not self.active:
            return
        after = await self._read()
        description = (
            SCOPE_EPISODE.replace("this episode", "the whole run") + " (run total)"
            if self.concurrency == 1
            else SCOPE_RUN.format(n=self.concurrency)
        )
        self.run_figures = acceptance(self._run_before, after, "run", description)

    def summary(self, episodes: Iterable[EpisodeResult]) -> dict[str, Any] | None:
        """What goes into the run summary under `spec_decode`."""
        eps = list(episodes)
        categories = by_category(eps)
        overall = self.run_figures
        if overall is None:
            pooled = combine(e.spec_decode for e in eps)
            if pooled:
                overall = {**pooled, "scope": "episodes", "description": SCOPE_LLAMACPP}
        if not overall and not categories:
            return None
        return {
            "run": overall,
            "by_category": categories,
            "attributed_per_episode": bool(categories),
        }
