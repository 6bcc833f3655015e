"""Bench results as typed records: a request, a repetition, a row (scenario × depth × load), the
whole result. Units are in the field names; a figure that was not measured is None, never 0.

The JSON of `BenchResult` is the bench results contract (docs/bench.md): `server`, `model`,
`results` [{`scenario`, `prompt_tokens`, `max_tokens`, `depth`, `concurrency`, `runs` [...],
`median` {...}, `spread` {...}}] plus the keys added here, and `schema_version`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from agentbench.records import SCHEMA_VERSION, ServerInfo

Arrival = Literal["concurrency", "poisson", "constant"]


class SpecDecodeRecord(BaseModel):
    """Speculative-decoding acceptance over one repetition (bench.specdecode says how)."""

    source: str | None = None
    scope: str | None = None
    description: str | None = None
    draft_tokens: int | None = None
    accepted_tokens: int | None = None
    drafts: int | None = None
    acceptance_rate: float
    mean_accepted_per_draft: float | None = None
    per_position_acceptance: dict[str, float] | None = None


class StreamRecord(BaseModel):
    """One request of a repetition, as the streaming adapter timed it (backends.stream)."""

    connect_s: float | None = Field(
        default=None, description="Pool wait + connect + TLS before t_send; not in ttft_s."
    )
    connection_reused: bool | None = None
    ttft_s: float | None = None
    ttft_byte_s: float | None = None
    e2e_latency_s: float | None = Field(default=None, description="Stream end − t_send.")
    decode_tok_s: float | None = None
    decode_unmeasured_reason: str | None = None
    tpot_s: float | None = None
    itl_s: list[float] | None = Field(
        default=None, description="Per-token inter-token latencies after the first token."
    )
    itl_method: str | None = None
    chunk_gaps_s: list[float] | None = Field(
        default=None, description="Gap per token-bearing event: vLLM bench serve's ITL."
    )
    prefill_tok_s: float | None = None
    prefill_method: str = "none"
    output_tokens: int | None = None
    tokens_method: str = "none"
    server_decode_tok_s: float | None = None
    server_prefill_tok_s: float | None = None
    prompt_tokens: int | None = None
    prompt_tokens_method: str = "none"
    cached_prompt_tokens: int | None = None
    finish_reason: str | None = None
    token_events: int = 0
    retries: int = 0
    scheduled_send_s: float | None = Field(
        default=None, description="Request-rate mode: planned send, from the repetition start."
    )
    send_s: float | None = Field(default=None, description="Actual send, same origin.")
    within_slo: bool | None = None


class RepetitionRecord(BaseModel):
    """One measured repetition. Contract keys are medians over its streams (per-stream figures);
    `aggregate_output_tok_s` is the whole repetition's rate."""

    run: int
    concurrency: int | None = Field(description="Requests sent at once; None in rate mode.")
    request_rate_req_s: float | None = None
    requests: int
    completed: int
    errors: list[str] = Field(default_factory=list)
    streams: list[StreamRecord] = Field(default_factory=list)
    ttft_s: float | None = None
    decode_tok_s: float | None = None
    prefill_tok_s: float | None = None
    output_tokens: float | None = None
    server_decode_tok_s: float | None = None
    server_decode_method: str | None = None
    server_prefill_tok_s: float | None = None
    tpot_s: float | None = None
    e2e_latency_s: float | None = None
    prompt_tokens: float | None = None
    cached_prompt_tokens: float | None = None
    ttft_byte_s: float | None = None
    connect_s: float | None = None
    new_connections: int | None = Field(
        default=None, description="Streams that opened a connection (not a kept-alive one)."
    )
    tokens_method: list[str] = Field(default_factory=list)
    finish_reason: list[str] = Field(default_factory=list)
    decode_unmeasured_reasons: list[str] = Field(default_factory=list)
    total_output_tokens: int | None = None
    wall_s: float | None = Field(default=None, description="First send to last stream end.")
    aggregate_output_tok_s: float | None = None
    output_forced: bool = True
    spec_decode: SpecDecodeRecord | None = None
    nonces: list[str] = Field(default_factory=list)
    client_loop_lag_max_s: float | None = Field(
        default=None, description="Largest event-loop lag of the client (of any worker)."
    )
    workers: int = Field(default=1, description="Client processes that sent the requests.")
    arrival_error_median_s: float | None = Field(
        default=None, description="Rate mode: median |actual − scheduled send| of its requests."
    )
    arrival_error_max_s: float | None = None

    @field_validator("tokens_method", "finish_reason", "nonces", mode="before")
    @classmethod
    def _as_list(cls, value: Any) -> Any:
        """Results written before schema_version 1 held one string at concurrency 1 and null
        nonces under --measure-prefix-cache."""
        if isinstance(value, str):
            return [value]
        if isinstance(value, list):
            return [v for v in value if v is not None]
        return [] if value is None else value


class FigureSet(BaseModel):
    """One statistic (median, min, max, spread, …) of each row figure over the repetitions."""

    ttft_s: float | None = None
    decode_tok_s: float | None = None
    prefill_tok_s: float | None = None
    output_tokens: float | None = None
    server_decode_tok_s: float | None = None
    aggregate_output_tok_s: float | None = None
    tpot_s: float | None = None
    e2e_latency_s: float | None = None
    connect_s: float | None = None
    spec_decode_acceptance: float | None = None


class Percentiles(BaseModel):
    """A figure's distribution over requests (or, for ITL, over tokens), linear interpolation."""

    n: int = 0
    mean: float | None = None
    p50: float | None = None
    p90: float | None = None
    p99: float | None = None
    min: float | None = None
    max: float | None = None


class RequestPercentiles(BaseModel):
    """Percentiles over every request of the row's measured repetitions, as vLLM and AIPerf
    report them. itl_s pools per-token gaps; chunk_gap_s pools per-event gaps (vLLM's ITL)."""

    ttft_s: Percentiles = Field(default_factory=Percentiles)
    connect_s: Percentiles = Field(default_factory=Percentiles)
    tpot_s: Percentiles = Field(default_factory=Percentiles)
    itl_s: Percentiles = Field(default_factory=Percentiles)
    chunk_gap_s: Percentiles = Field(default_factory=Percentiles)
    e2e_latency_s: Percentiles = Field(default_factory=Percentiles)
    decode_tok_s: Percentiles = Field(default_factory=Percentiles)


class SloRecord(BaseModel):
    """Service-level objectives a request must all meet to count toward goodput."""

    ttft_s: float | None = None
    tpot_s: float | None = None
    e2e_latency_s: float | None = None


class GoodputRecord(BaseModel):
    slo: SloRecord
    requests: int
    requests_within_slo: int
    share_within_slo: float | None
    goodput_req_s: float | None = Field(
        description="Requests within every SLO / summed repetition wall time."
    )
    request_throughput_req_s: float | None = None
    unverifiable: int = Field(
        default=0, description="Requests whose figure was None (e.g. a burst): counted as missed."
    )


class BenchRow(BaseModel):
    """One scenario × depth × load (concurrency C, or request rate R)."""

    scenario: str
    prompt_tokens: int
    max_tokens: int
    depth: int = 0
    concurrency: int | None = 1
    arrival: Arrival = "concurrency"
    request_rate_req_s: float | None = None
    burstiness: float | None = None
    requests_per_run: int = 1
    runs: list[RepetitionRecord] = Field(default_factory=list)
    median: FigureSet = Field(default_factory=FigureSet)
    min: FigureSet = Field(default_factory=FigureSet)
    max: FigureSet = Field(default_factory=FigureSet)
    spread: FigureSet = Field(default_factory=FigureSet)
    n: dict[str, int] = Field(default_factory=dict)
    n_runs: int = 0
    requests: RequestPercentiles = Field(default_factory=RequestPercentiles)
    goodput: GoodputRecord | None = None
    status: str = "ok"
    message: str | None = None
    prompt_tokens_counted: list[int] | None = None
    prompt_tokens_method: str | None = None
    client_loop_lag_max_s: float | None = None
    client_limited: bool = False

    @property
    def load_label(self) -> str:
        if self.request_rate_req_s is not None:
            return f"{self.request_rate_req_s:g} req/s {self.arrival}"
        return f"concurrency {self.concurrency}"

    @property
    def key(self) -> tuple[Any, ...]:
        """What two results must share for their rows to be compared."""
        return (
            self.scenario,
            self.depth,
            self.concurrency,
            self.request_rate_req_s,
            self.prompt_tokens,
            self.max_tokens,
        )


class GateCheckRecord(BaseModel):
    prompt: str
    expected: str
    answer: str
    passed: bool
    error: str | None = None


class GateRecord(BaseModel):
    passed: bool
    skipped: bool = False
    checks: list[GateCheckRecord] = Field(default_factory=list)
    summary: str = ""


class FigureDoc(BaseModel):
    unit: str
    method: str


class BenchResult(BaseModel):
    """One bench invocation: the serving setup, the gate, and one row per measured shape."""

    schema_version: int = SCHEMA_VERSION
    run_id: str
    created_at: str
    kind: Literal["bench"] = "bench"
    status: str
    server: ServerInfo | None = None
    model: str | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    gate: GateRecord | None = None
    figures: dict[str, FigureDoc] = Field(default_factory=dict)
    results: list[BenchRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    def to_json(self) -> str:
        """The one JSON export of a bench result."""
        return self.model_dump_json(indent=2)
