"""The bench procedure: describe the server, pass the gate, then per scenario × depth × load
(a concurrency, or a request rate) a warm-up (not counted) and R measured repetitions.

A scenario that does not fit the server's context (known max_context, or an HTTP 400
context_length answer) is reported as such and the others go on. A failed gate ends the bench
with no throughput figures at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentbench.backends.base import Backend
from agentbench.backends.vllm import SpecSnapshot
from agentbench.bench.arrivals import RateMode
from agentbench.bench.gate import FATAL, SKIPPED, run_gate
from agentbench.bench.measure import ContextTooSmall, ForceOutput, measure_run
from agentbench.bench.prompts import PromptBuilder
from agentbench.bench.records import BenchRow, GateRecord, SloRecord, SpecDecodeRecord
from agentbench.bench.results import apply_slo, summarize_row
from agentbench.bench.scenarios import Scenario
from agentbench.bench.specdecode import read_counters, row_figures
from agentbench.bench.workers import WorkerPool
from agentbench.errors import BackendError
from agentbench.records import ServerInfo

# Chat-template and turn overhead we allow for when checking a known max_context up front.
TEMPLATE_ALLOWANCE = 64


@dataclass
class BenchConfig:
    scenarios: list[Scenario]
    depths: list[int] = field(default_factory=lambda: [0])
    concurrencies: list[int] = field(default_factory=lambda: [1])
    runs: int = 3
    warmup: int = 1
    skip_gate: bool = False
    measure_prefix_cache: bool = False
    force_output: bool = True
    rates: list[RateMode] = field(default_factory=list)  # request-rate mode when not empty
    slo: SloRecord | None = None
    # Read the server's /metrics around every repetition instead of once per sweep point.
    metrics_per_repetition: bool = False
    new_connection_per_request: bool = False  # stored as `connection`; the backend applies it
    workers: int = 1  # client processes for fixed-concurrency rows above 1 (bench.workers)

    def as_dict(self) -> dict[str, Any]:
        return {
            "request_rates_req_s": [r.rate_req_s for r in self.rates],
            "arrival": self.rates[0].arrival if self.rates else "concurrency",
            "burstiness": self.rates[0].burstiness if self.rates else None,
            "requests_per_run": self.rates[0].requests if self.rates else None,
            "seed": self.rates[0].seed if self.rates else None,
            "slo": self.slo.model_dump() if self.slo else None,
            "scenarios": [s.name for s in self.scenarios],
            "depths": self.depths,
            "concurrencies": self.concurrencies,
            "runs": self.runs,
            "warmup": self.warmup,
            "skip_gate": self.skip_gate,
            "measure_prefix_cache": self.measure_prefix_cache,
            "force_output": self.force_output,
            "metrics_per_repetition": self.metrics_per_repetition,
            "connection": "new" if self.new_connection_per_request else "reused",
            "workers": self.workers,
        }


@dataclass
class BenchOutcome:
    server: ServerInfo
    gate: GateRecord
    results: list[BenchRow]
    force_rejected: str | None = None
    prompt_counting: str = "none"


Progress = Callable[[str, BenchRow], None]  # (event, row): "start" | "run" | "done"


def _quiet(event: str, row: BenchRow) -> None:
    return None


def new_row(s: Scenario, depth: int, load: int | RateMode) -> BenchRow:
    row = BenchRow(
        scenario=s.name, prompt_tokens=s.prompt_tokens, max_tokens=s.max_tokens, depth=depth
    )
    if isinstance(load, RateMode):
        row.concurrency = None
        row.arrival = "poisson" if load.arrival == "poisson" else "constant"
        row.request_rate_req_s = load.rate_req_s
        row.burstiness = load.burstiness if load.arrival == "poisson" else None
        row.requests_per_run = load.requests
    else:
        row.concurrency = row.requests_per_run = load
    return row


def too_small_message(
    s: Scenario, depth: int, need: int, max_context: int | None, server_said: str | None = None
) -> str:
    shape = f"{s.prompt_tokens} prompt + {s.max_tokens} output"
    if depth:
        shape = f"{depth} context + " + shape
    if server_said:
        return (
            f"{s.name}: the server's context is too small for {shape} tokens; it answered: "
            f"{server_said[:160]}"
        )
    return (
        f"{s.name}: needs about {need} tokens ({shape} + template), more than the server's "
        f"max context of {max_context}; skipped"
    )


async def run_row(
    backend: Backend,
    builder: PromptBuilder,
    row: BenchRow,
    scenario: Scenario,
    config: BenchConfig,
    force: ForceOutput,
    progress: Progress,
    rate: RateMode | None,
    pool: WorkerPool | None = None,
) -> None:
    counted: list[int] = []
    each = config.metrics_per_repetition
    around_row = not each and rate is None and row.requests_per_run == 1
    before = None
    for index in range(config.warmup + config.runs):
        prompts = [await builder.build(scenario, row.depth) for _ in range(row.requests_per_run)]
        counted += [p.prompt_tokens for p in prompts]
        row.prompt_tokens_method = prompts[0].method
        offsets = rate.offsets_s(index) if rate else None
        if around_row and index == config.warmup:
            before = await read_counters(backend)
        run = await measure_run(backend, prompts, scenario, force, offsets, each, pool)
        if index < config.warmup:
            continue
        run.run = index - config.warmup + 1
        run.request_rate_req_s = rate.rate_req_s if rate else None
        row.runs.append(run)
        progress("run", row)
    row.prompt_tokens_counted = sorted(set(counted))
    if before is not None:
        spread_row_counters(row, before, await read_counters(backend))


def spread_row_counters(row: BenchRow, before: SpecSnapshot, after: SpecSnapshot | None) -> None:
    """The sweep point's /metrics figures (one read before, one after its repetitions) on each
    repetition, marked as the row's: acceptance and the server's decode rate."""
    spec, rate = row_figures(before, after, len(row.runs))
    for run in row.runs:
        if spec and run.spec_decode is None:
            run.spec_decode = SpecDecodeRecord.model_validate(spec)
        if rate is not None and run.server_decode_tok_s is None:
            run.server_decode_tok_s = rate
            run.server_decode_method = (
                "vLLM /metrics: (Δgeneration_tokens_total − requests) / "
                "Δrequest_decode_time_seconds_sum over the sweep point's measured repetitions"
            )


def flag_client_lag(row: BenchRow, share: float = 0.05) -> None:
    """Mark a row whose client event loop lagged by more than `share` of the decode window:
    its chunks may have been read late and bunched, so TTFT and decode figures are limited by
    this machine, not the server's."""
    lags = [r.client_loop_lag_max_s for r in row.runs if r.client_loop_lag_max_s]
    row.client_loop_lag_max_s = max(lags) if lags else None
    windows = [
        s.e2e_latency_s - s.ttft_s
        for r in row.runs
        for s in r.streams
        if s.e2e_latency_s is not None and s.ttft_s is not None
    ]
    window = min(windows) if windows else None
    row.client_limited = bool(lags and window is not None and max(lags) > share * window)
    if row.client_limited and window is not None:
        row.message = (
            f"{row.scenario} (depth {row.depth}, {row.load_label}): this client's event loop "
            f"lagged up to {max(lags) * 1000:.0f} ms during a {window * 1000:.0f} ms decode: "
            "chunks may have been read late and bunched, so TTFT and decode figures here are "
            "limited by the client machine (see benchmarks/README.md)"
        )


async def run_bench(
    backend: Backend, config: BenchConfig, progress: Progress = _quiet
) -> BenchOutcome:
    server = await backend.server_info()
    gate = SKIPPED if config.skip_gate else await run_gate(backend)
    outcome = BenchOutcome(server, gate, [])
    if not gate.passed:
        return outcome
    builder = PromptBuilder(backend.count_tokens, measure_prefix_cache=config.measure_prefix_cache)
    force = ForceOutput(enabled=config.force_output and "api.openai.com" not in backend.base_url)
    loads: list[int | RateMode] = [*config.rates] if config.rates else [*config.concurrencies]
    several = config.workers > 1 and not config.rates and max(config.concurrencies) > 1
    pool = WorkerPool(backend, config.workers) if several else None
    try:
        for scenario in config.scenarios:
            for depth in config.depths:
                for load in loads:
                    row = new_row(scenario, depth, load)
                    outcome.results.append(row)
                    progress("start", row)
                    await _measure_row(
                        backend, builder, row, scenario, config, force, progress,
                        server.max_context, pool,
                    )  # fmt: skip
                    summarize_row(row)
                    if config.slo:
                        apply_slo(row, config.slo)
                    flag_client_lag(row)
                    if row.status == "ok" and not row.runs:
                        row.status = "no_runs"
                    progress("done", row)
    finally:
        if pool is not None:
            pool.close()
    outcome.force_rejected = force.rejected
    outcome.prompt_counting = builder.cutter.method
    return outcome


async def _measure_row(
    backend: Backend,
    builder: PromptBuilder,
    row: BenchRow,
    scenario: Scenario,
    config: BenchConfig,
    force: ForceOutput,
    progress: Progress,
    max_context: int | None,
    pool: WorkerPool | None = None,
) -> None:
    need = scenario.context_needed(row.depth, TEMPLATE_ALLOWANCE)
    if max_context and need > max_context:
        row.status = "context_too_small"
        row.message = too_small_message(scenario, row.depth, need, max_context)
        return
    rate = next((r for r in config.rates if r.rate_req_s == row.request_rate_req_s), None)
    try:
        await run_row(backend, builder, row, scenario, config, force, progress, rate, pool)
    except ContextTooSmall as exc:
        row.status = "context_too_small"
        row.message = too_small_message(scenario, row.depth, need, None, str(exc))
    except BackendError as exc:
        if exc.kind in FATAL:
            raise  # no server to measure: the bench cannot be done
        row.status = f"error:{exc.kind}"
        row.message = f"{scenario.name}: {exc}"
