"""Bench result records: a JSON written before the records (no schema_version) still loads and
compares; a result round-trips through its one JSON export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentbench.bench.compare import compare_results
from agentbench.bench.records import BenchResult
from agentbench.bench.results import load_bench
from agentbench.errors import ConfigError

OLD_RUN = {
    "run": 1, "concurrency": 1, "requests": 1, "completed": 1, "errors": [],
    "ttft_s": 0.1, "decode_tok_s": 50.0, "prefill_tok_s": 900.0, "output_tokens": 20,
    "server_decode_tok_s": None, "tokens_method": "usage", "finish_reason": "length",
    "nonces": [None], "spec_decode": None, "aggregate_output_tok_s": 40.0,
}  # fmt: skip
OLD = {
    "run_id": "old", "created_at": "2026-11-29T18:00:00Z", "kind": "bench", "status": "complete",
    "server": None, "model": "m", "config": {},
    "gate": {"passed": True, "skipped": True, "checks": [], "summary": "skipped"},
    "figures": {"spread": {"unit": "fraction", "method": "(max − min) / median"}},
    "results": [{
        "scenario": "chat_short", "prompt_tokens": 128, "max_tokens": 256, "depth": 0,
        "concurrency": 1, "runs": [OLD_RUN, {**OLD_RUN, "run": 2, "decode_tok_s": 52.0}],
        "median": {"decode_tok_s": 51.0}, "spread": {"decode_tok_s": 0.04}, "n_runs": 2,
        "status": "ok", "message": None,
    }],
}  # fmt: skip


def test_a_result_from_before_the_records_loads_and_compares(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps(OLD))
    old = load_bench(str(path), None)
    assert old.schema_version == 1 and old.results[0].runs[0].tokens_method == ["usage"]
    assert old.results[0].runs[0].nonces == []
    (decode,) = [r for r in compare_results(old, old) if r.metric == "decode_tok_s"]
    assert decode.ratio == 1.0 and decode.n_a == 2


def test_json_export_round_trips_and_bad_files_are_one_line(tmp_path: Path) -> None:
    result = BenchResult.model_validate(OLD)
    again = BenchResult.model_validate_json(result.to_json())
    assert again == result
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**OLD, "results": [{"scenario": "x"}]}))
    with pytest.raises(ConfigError, match=r"bad.json: results.0.prompt_tokens: Field required"):
        load_bench(str(bad), None)
