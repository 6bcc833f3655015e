"""`agentbench bench compare A B`: B / A ratios of per-scenario medians, with bootstrap CIs.

For each scenario (matched on name, depth, concurrency and shape) and each of decode_tok_s,
prefill_tok_s, ttft_s (and the aggregate rate when concurrency > 1), the ratio is
median(B runs) / median(A runs) with a 95% percentile bootstrap interval resampling each side's
repetitions independently (stats.ratio_ci). "resolved" only when the interval excludes 1
(stats.verdict); otherwise "unresolved at this sample size". For ttft_s a ratio below 1 means
B is faster; for the rates, above 1.
"""

from __future__ import annotations

from typing import Any

from agentbench.metrics.stats import median, ratio_ci, verdict

METRICS = ("decode_tok_s", "prefill_tok_s", "ttft_s", "aggregate_output_tok_s")
BETTER = {
    "decode_tok_s": "higher",
    "prefill_tok_s": "higher",
    "ttft_s": "lower",
    "aggregate_output_tok_s": "higher",
}


def _key(cell: dict[str, Any]) -> tuple[Any, ...]:
    return (
        cell.get("scenario"),
        cell.get("depth", 0),
        cell.get("concurrency", 1),
        cell.get("prompt_tokens"),
        cell.get("max_tokens"),
    )


def _values(cell: dict[str, Any], metric: str) -> list[float]:
    return [float(r[metric]) for r in cell.get("runs") or [] if r.get(metric) is not None]


def compare_results(
    a: dict[str, Any], b: dict[str, Any], *, resamples: int = 2000
) -> list[dict[str, Any]]:
    """One row per (scenario, metric) present in both; unmatched scenarios get a note row."""
    a_cells = {_key(c): c for c in a.get("results") or []}
    b_cells = {_key(c): c for c in b.get("results") or []}
    rows: list[dict[str, Any]] = []
    for key in [*a_cells, *(k for k in b_cells if k not in a_cells)]:
        base = {"scenario": key[0], "depth": key[1], "concurrency": key[2]}
        if key not in a_cells or key not in b_cells:
            side = "A" if key in a_cells else "B"
            rows.append({**base, "metric": None, "verdict": f"only in {side}"})
            continue
        for metric in METRICS:
            va, vb = _values(a_cells[key], metric), _values(b_cells[key], metric)
            if metric == "aggregate_output_tok_s" and key[2] == 1:
                continue
            row = {
                **base,
                "metric": metric,
                "better": BETTER[metric],
                "a_median": median(va),
                "b_median": median(vb),
                "n_a": len(va),
                "n_b": len(vb),
                "ratio": None,
                "ci_low": None,
                "ci_high": None,
            }
            if not va or not vb:
                row["verdict"] = "not measured on both sides"
            elif median(va) == 0:
                row["verdict"] = "A median is 0: no ratio"
            else:
                interval = ratio_ci(va, vb, resamples=resamples)
                assert interval is not None
                row.update(
                    ratio=interval.value,
                    ci_low=interval.low,
                    ci_high=interval.high,
                    verdict=verdict(interval, null=1.0),
                )
                if interval.n < 2:
                    row["verdict"] += " (one run on a side: never rank on one run)"
            rows.append(row)
    return rows


def compare_json(
    a: dict[str, Any], b: dict[str, Any], rows: list[dict[str, Any]], a_name: str, b_name: str
) -> dict[str, Any]:
    return {
        "a": {
            "source": a_name,
            "run_id": a.get("run_id"),
            "model": a.get("model"),
            "server": a.get("server"),
        },
        "b": {
            "source": b_name,
            "run_id": b.get("run_id"),
            "model": b.get("model"),
            "server": b.get("server"),
        },
        "method": "ratio = median(B) / median(A) over repetitions; 95% percentile bootstrap "
        "CI, each side resampled independently; resolved iff the CI excludes 1",
        "rows": rows,
    }
