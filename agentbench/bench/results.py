"""Per-scenario summaries and the bench results contract (docs/bench.md): JSON, CSV and the store.

JSON: `server`, `model`, `results` [{`scenario`, `prompt_tokens`, `max_tokens`, `depth`,
`concurrency`, `runs` [...], `median` {...}, `spread` {...}}], plus (added freely) `min`, `max`,
`n_runs`, `status`, `message`, the gate outcome and `figures`: the unit and method of every key.
Spread is (max − min) / median over the repetitions, a fraction (0.06 = 6 %). Missing figures are
null, never 0.
"""

from __future__ import annotations

import csv
import io
import statistics
from pathlib import Path
from typing import Any

from agentbench.metrics.stats import median, spread
from agentbench.records import RunRecord
from agentbench.store.db import ResultStore

SUMMARY_KEYS = (
    "ttft_s",
    "decode_tok_s",
    "prefill_tok_s",
    "output_tokens",
    "server_decode_tok_s",
    "aggregate_output_tok_s",
)

FIGURES: dict[str, dict[str, str]] = {
    "ttft_s": {
        "unit": "s",
        "method": "client clock: first delta carrying reasoning, answer or "
        "tool-call text − t_send (per stream; median over streams when concurrency > 1)",
    },
    "decode_tok_s": {
        "unit": "tok/s",
        "method": "client clock: (output_tokens − 1) / (t_last − t_first_token), per stream",
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
        "method": "all output tokens of a repetition / "
        "(last stream end − first send), labelled with its concurrency",
    },
    "spec_decode_acceptance": {
        "unit": "fraction",
        "method": "Δaccepted / Δdrafted tokens: vLLM /metrics diffed around each repetition at "
        "concurrency 1 only (server-wide counters), or llama.cpp per-request timings",
    },
    "spread": {"unit": "fraction", "method": "(max − min) / median over the measured repetitions"},
}


def summarize_runs(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """median, min, max and spread of each figure over the repetitions (nulls left out)."""
    out: dict[str, dict[str, Any]] = {"median": {}, "min": {}, "max": {}, "spread": {}, "n": {}}
    for key in SUMMARY_KEYS:
        values = [r[key] for r in runs if r.get(key) is not None]
        out["median"][key] = median(values)
        out["min"][key] = min(values) if values else None
        out["max"][key] = max(values) if values else None
        out["spread"][key] = spread(values)
        out["n"][key] = len(values)
    rates = [r["spec_decode"]["acceptance_rate"] for r in runs if r.get("spec_decode")]
    out["median"]["spec_decode_acceptance"] = statistics.median(rates) if rates else None
    out["spread"]["spec_decode_acceptance"] = spread(rates)
    out["n"]["spec_decode_acceptance"] = len(rates)
    return out


def bench_json(
    record: RunRecord, results: list[dict[str, Any]], gate: dict[str, Any] | None
) -> dict[str, Any]:
    server = record.server.model_dump() if record.server else None
    return {
        "run_id": record.run_id,
        "created_at": record.created_at,
        "kind": "bench",
        "status": record.status,
        "server": server,
        "model": record.server.model if record.server else record.config.get("model"),
        "config": record.config,
        "gate": gate,
        "figures": FIGURES,
        "results": results,
    }


CSV_COLUMNS = (
    "scenario",
    "prompt_tokens",
    "max_tokens",
    "depth",
    "concurrency",
    "row",
    "ttft_s",
    "decode_tok_s",
    "prefill_tok_s",
    "output_tokens",
    "server_decode_tok_s",
    "aggregate_output_tok_s",
    "spec_decode_acceptance",
    "usage_prompt_tokens",
    "tokens_method",
    "output_forced",
    "status",
)


def bench_csv(results: list[dict[str, Any]]) -> str:
    """One row per repetition, then `median` and `spread` rows per scenario; blanks are null."""
    buffer = io.StringIO()
    writer = csv.DictWriter(
        buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n"
    )
    writer.writeheader()
    for cell in results:
        base = {
            k: cell.get(k)
            for k in ("scenario", "prompt_tokens", "max_tokens", "depth", "concurrency", "status")
        }
        for i, run in enumerate(cell.get("runs") or [], start=1):
            spec = run.get("spec_decode") or {}
            method = run.get("tokens_method")
            writer.writerow(
                {
                    **base,
                    **run,
                    "row": f"run{i}",
                    "usage_prompt_tokens": run.get("prompt_tokens"),
                    "prompt_tokens": cell["prompt_tokens"],
                    "spec_decode_acceptance": spec.get("acceptance_rate"),
                    "tokens_method": "+".join(method) if isinstance(method, list) else method,
                }
            )
        for row in ("median", "spread"):
            writer.writerow({**base, **(cell.get(row) or {}), "row": row})
    return buffer.getvalue()


def write_outputs(data: dict[str, Any], json_path: Path | None, csv_path: Path | None) -> None:
    import json

    if json_path:
        json_path.write_text(json.dumps(data, indent=2))
    if csv_path:
        csv_path.write_text(bench_csv(data["results"]))


def store_bench(store: ResultStore, record: RunRecord, results: list[dict[str, Any]]) -> None:
    store.save_run(record)
    for seq, cell in enumerate(results):
        store.add_bench_result(record.run_id, seq, cell)


def load_bench(source: str, db: Path | None) -> dict[str, Any]:
    """A bench result by JSON file path or by stored run id (`latest` = newest bench run)."""
    import json

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
        return data
    if db is None or not Path(db).exists():
        raise ConfigError(f"{source}: neither a JSON file nor a run in a database ({db})")
    with ResultStore(db) as store:
        run_id = store.resolve(source, kind="bench" if source == "latest" else None)
        record = store.run(run_id)
        if record.kind != "bench":
            raise ConfigError(f"run {run_id} is an `agentbench run`, not a bench run")
        results = store.bench_results(run_id)
    return bench_json(record, results, (record.summary or {}).get("gate"))
