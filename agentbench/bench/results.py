"""Row summaries (over repetitions and over requests), goodput, and the bench result's CSV,
store and load. The records and the JSON contract are in bench.records.

Spread is (max − min) / median over the repetitions, a fraction (0.06 = 6 %); percentiles are
over requests (ITL: over tokens), linearly interpolated. Missing figures are null, never 0.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from agentbench.bench.records import (
    BenchResult,
    BenchRow,
    FigureDoc,
    FigureSet,
    GateRecord,
    GoodputRecord,
    Percentiles,
    SloRecord,
)
from agentbench.metrics.stats import median, percentile, spread
from agentbench.records import RunRecord
from agentbench.store.db import ResultStore

FIGURES: dict[str, dict[str, str]] = {
    "ttft_s": {
        "unit": "s",
        "method": "client clock: first delta carrying reasoning, answer or "
        "tool-call text − t_send, the moment the request's first byte was written (after "
        "connect, TLS and pool wait; per stream; median over streams when concurrency > 1)",
    },
    "connect_s": {
        "unit": "s",
        "method": "client clock: pool wait + TCP connect + TLS before t_send, per request; "
        "near 0 on a kept-alive connection (config.connection says which policy ran)",
    },
    "decode_tok_s": {
        "unit": "tok/s",
        "method": "single stream, client clock: (output_tokens − 1) / (t_last − t_first_token) "
        "per stream; null with decode_unmeasured_reason when the tokens arrived in a burst",
    },
    "tpot_s": {
        "unit": "s",
        "method": "time per output token after the first, per request: (stream end − "
        "t_first_token) / (output_tokens − 1) — vLLM bench serve's TPOT, AIPerf's ITL",
    },
    "itl_s": {
        "unit": "s",
        "method": "inter-token latency per token after the first: an event carrying k tokens "
        "that arrived g after the previous one gives k latencies of g / k (tokens, not chunks); "
        "percentiles pooled over all tokens of the row",
    },
    "chunk_gap_s": {
        "unit": "s",
        "method": "gap between token-bearing events (chunks): what vLLM bench serve calls ITL "
        "and AIPerf inter-chunk latency",
    },
    "e2e_latency_s": {"unit": "s", "method": "stream end − t_send, per request"},
    "goodput_req_s": {
        "unit": "requests/s",
        "method": "requests meeting every --slo / summed repetition wall time",
    },
    "prefill_tok_s": {
        "unit": "tok/s",
        "method": "client view: uncached prompt tokens (server "
        "usage, depth and chat template included) / ttft_s; includes request "
        "overhead and the first decode step",
    },
    "output_tokens": {
        "unit": "tokens",
        "method": "server usage.completion_tokens, else server "
        "tokenizer, else tiktoken estimate (see tokens_method)",
    },
    "server_decode_tok_s": {
        "unit": "tok/s",
        "method": "the server's own counter (llama.cpp "
        "timings.predicted_per_second); null where the server has none",
    },
    "aggregate_output_tok_s": {
        "unit": "tok/s",
        "method": "aggregate over streams: all output tokens of a repetition / (last stream "
        "end − first send), labelled with its concurrency or request rate",
    },
    "spec_decode_acceptance": {
        "unit": "fraction",
        "method": "Δaccepted / Δdrafted tokens: vLLM /metrics diffed around each repetition at "
        "concurrency 1 only (server-wide counters), or llama.cpp per-request timings",
    },
    "spread": {"unit": "fraction", "method": "(max − min) / median over the measured repetitions"},
}


SUMMARY_KEYS = tuple(k for k in FigureSet.model_fields if k != "spec_decode_acceptance")


def summarize_row(row: BenchRow) -> None:
    """Fill the row's summaries: median, min, max, spread and n of each figure over the
    repetitions (nulls left out), and percentiles over all its requests."""
    for key in SUMMARY_KEYS:
        values = [v for r in row.runs if (v := getattr(r, key)) is not None]
        setattr(row.median, key, median(values))
        setattr(row.min, key, min(values) if values else None)
        setattr(row.max, key, max(values) if values else None)
        setattr(row.spread, key, spread(values))
        row.n[key] = len(values)
    rates = [r.spec_decode.acceptance_rate for r in row.runs if r.spec_decode]
    row.median.spec_decode_acceptance = median(rates)
    row.spread.spec_decode_acceptance = spread(rates)
    row.n["spec_decode_acceptance"] = len(rates)
    row.n_runs = len(row.runs)
    streams = [s for r in row.runs for s in r.streams]
    req = row.requests
    for key in ("ttft_s", "connect_s", "tpot_s", "e2e_latency_s", "decode_tok_s"):
        setattr(req, key, percentiles([v for s in streams if (v := getattr(s, key)) is not None]))
    req.itl_s = percentiles([g for s in streams for g in s.itl_s or []])
    req.chunk_gap_s = percentiles([g for s in streams for g in s.chunk_gaps_s or []])


def percentiles(values: list[float]) -> Percentiles:
    if not values:
        return Percentiles()
    return Percentiles(
        n=len(values),
        mean=sum(values) / len(values),
        p50=percentile(values, 50),
        p90=percentile(values, 90),
        p99=percentile(values, 99),
        min=min(values),
        max=max(values),
    )


def apply_slo(row: BenchRow, slo: SloRecord) -> None:
    """Goodput: requests meeting every SLO given / summed repetition wall time. A request whose
    figure is None (failed decode timing, no output) cannot be shown to meet it: it misses."""
    limits = {k: v for k, v in slo.model_dump().items() if v is not None}
    if not limits:
        return
    streams = [s for r in row.runs for s in r.streams]
    within = unverifiable = 0
    for s in streams:
        values = {k: getattr(s, k) for k in limits}
        if any(v is None for v in values.values()):
            unverifiable += 1
            s.within_slo = False
            continue
        s.within_slo = all(values[k] <= limits[k] for k in limits)
        within += s.within_slo
    wall = sum(r.wall_s or 0.0 for r in row.runs)
    row.goodput = GoodputRecord(
        slo=slo,
        requests=len(streams),
        requests_within_slo=within,
        share_within_slo=within / len(streams) if streams else None,
        goodput_req_s=within / wall if wall > 0 else None,
        request_throughput_req_s=len(streams) / wall if wall > 0 else None,
        unverifiable=unverifiable,
    )


def bench_result(
    record: RunRecord, results: list[BenchRow], gate: GateRecord | None, notes: list[str]
) -> BenchResult:
    return BenchResult(
        run_id=record.run_id,
        created_at=record.created_at,
        status=record.status,
        server=record.server,
        model=record.server.model if record.server else record.config.get("model"),
        config=record.config,
        gate=gate,
        figures={k: FigureDoc(**v) for k, v in FIGURES.items()},
        results=results,
        notes=notes,
    )


CSV_COLUMNS = (
    "scenario",
    "prompt_tokens",
    "max_tokens",
    "depth",
    "concurrency",
    "request_rate_req_s",
    "row",
    "ttft_s",
    "decode_tok_s",
    "prefill_tok_s",
    "output_tokens",
    "server_decode_tok_s",
    "aggregate_output_tok_s",
    "tpot_s",
    "e2e_latency_s",
    "spec_decode_acceptance",
    "usage_prompt_tokens",
    "tokens_method",
    "output_forced",
    "status",
)


def bench_csv(results: list[BenchRow]) -> str:
    """One row per repetition, then `median` and `spread` rows per scenario; blanks are null."""
    buffer = io.StringIO()
    writer = csv.DictWriter(
        buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n"
    )
    writer.writeheader()
    for row in results:
        base = {
            "scenario": row.scenario,
            "prompt_tokens": row.prompt_tokens,
            "max_tokens": row.max_tokens,
            "depth": row.depth,
            "concurrency": row.concurrency,
            "request_rate_req_s": row.request_rate_req_s,
            "status": row.status,
        }
        for i, run in enumerate(row.runs, start=1):
            figures = run.model_dump(exclude={"streams", "spec_decode", "errors", "nonces"})
            writer.writerow(
                {
                    **figures,
                    **base,
                    "row": f"run{i}",
                    "usage_prompt_tokens": run.prompt_tokens,
                    "spec_decode_acceptance": run.spec_decode.acceptance_rate
                    if run.spec_decode
                    else None,
                    "tokens_method": "+".join(run.tokens_method),
                }
            )
        for name, figure_set in (("median", row.median), ("spread", row.spread)):
            writer.writerow({**base, **figure_set.model_dump(), "row": name})
    return buffer.getvalue()


def write_outputs(result: BenchResult, json_path: Path | None, csv_path: Path | None) -> None:
    if json_path:
        json_path.write_text(result.to_json())
    if csv_path:
        csv_path.write_text(bench_csv(result.results))


def store_bench(store: ResultStore, record: RunRecord, results: list[BenchRow]) -> None:
    store.save_run(record)
    for seq, row in enumerate(results):
        store.add_bench_result(record.run_id, seq, row.model_dump(mode="json"))


def load_bench(source: str, db: Path | None) -> BenchResult:
    """A bench result by JSON file path or by stored run id (`latest` = newest bench run)."""
    import json

    from pydantic import ValidationError

    from agentbench.errors import ConfigError

    path = Path(source)
    if path.suffix == ".json" or path.exists():
        if not path.exists():
            raise ConfigError(f"{source}: no such file")
        try:
            data = json.loads(path.read_text())
        except OSError as exc:
            raise ConfigError(f"{source}: cannot read it ({exc.strerror})") from exc
        except ValueError as exc:
            raise ConfigError(f"{source}: not a JSON file ({exc})") from exc
        if not isinstance(data, dict) or not isinstance(data.get("results"), list):
            raise ConfigError(f"{source}: not an `agentbench bench --json` file (no results)")
        try:
            return BenchResult.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ConfigError(f"{source}: {where}: {first['msg']}") from None
    if db is None or not Path(db).exists():
        raise ConfigError(f"{source}: neither a JSON file nor a run in a database ({db})")
    with ResultStore(db) as store:
        run_id = store.resolve(source, kind="bench" if source == "latest" else None)
        record = store.run(run_id)
        if record.kind != "bench":
            raise ConfigError(f"run {run_id} is an `agentbench run`, not a bench run")
        try:
            rows = [BenchRow.model_validate(r) for r in store.bench_results(run_id)]
        except ValidationError as exc:
            raise ConfigError(f"run {run_id}: a stored bench row does not read: {exc}") from None
    gate = (record.summary or {}).get("gate")
    return bench_result(record, rows, GateRecord.model_validate(gate) if gate else None, [])
