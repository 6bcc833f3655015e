"""`agentbench bench compare A B`: B / A ratios of per-scenario medians, with bootstrap CIs.

For each row (matched on scenario, depth, concurrency or request rate, and shape) and each of
decode_tok_s, prefill_tok_s, ttft_s, tpot_s (and the aggregate rate when concurrency > 1), the
ratio is
median(B runs) / median(A runs) with a 95% percentile bootstrap interval resampling each side's
repetitions independently (stats.ratio_ci). "resolved" only when the interval excludes 1
(stats.verdict); otherwise "unresolved at this sample size". For ttft_s a ratio below 1 means
B is faster; for the rates, above 1.
"""

from __future__ import annotations

from pydantic import BaseModel

from agentbench.bench.records import BenchResult, BenchRow
from agentbench.metrics.stats import median, ratio_ci, verdict

METRICS = ("decode_tok_s", "prefill_tok_s", "ttft_s", "tpot_s", "aggregate_output_tok_s")
BETTER = {
    "decode_tok_s": "higher",
    "prefill_tok_s": "higher",
    "ttft_s": "lower",
    "tpot_s": "lower",
    "aggregate_output_tok_s": "higher",
}
METHOD = (
    "ratio = median(B) / median(A) over repetitions; 95% percentile bootstrap CI, each side "
    "resampled independently; resolved iff the CI excludes 1"
)


class CompareRow(BaseModel):
    """One (row, metric) of a comparison; `metric` None marks a row found on one side only."""

    scenario: str
    depth: int
    concurrency: int | None
    request_rate_req_s: float | None = None
    metric: str | None = None
    better: str | None = None
    a_median: float | None = None
    b_median: float | None = None
    n_a: int = 0
    n_b: int = 0
    ratio: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    verdict: str


class CompareSide(BaseModel):
    source: str
    run_id: str
    model: str | None


class Comparison(BaseModel):
    a: CompareSide
    b: CompareSide
    method: str = METHOD
    rows: list[CompareRow]


def _values(row: BenchRow, metric: str) -> list[float]:
    return [float(v) for r in row.runs if (v := getattr(r, metric)) is not None]


def compare_results(a: BenchResult, b: BenchResult, *, resamples: int = 2000) -> list[CompareRow]:
    """One row per (bench row, metric) present in both; unmatched rows get a note row."""
    a_rows = {r.key: r for r in a.results}
    b_rows = {r.key: r for r in b.results}
    out: list[CompareRow] = []
    for key in [*a_rows, *(k for k in b_rows if k not in a_rows)]:
        ref = a_rows.get(key) or b_rows[key]
        base = CompareRow(
            scenario=ref.scenario,
            depth=ref.depth,
            concurrency=ref.concurrency,
            request_rate_req_s=ref.request_rate_req_s,
            verdict="",
        )
        if key not in a_rows or key not in b_rows:
            side = "A" if key in a_rows else "B"
            out.append(base.model_copy(update={"verdict": f"only in {side}"}))
            continue
        for metric in METRICS:
            if metric == "aggregate_output_tok_s" and ref.concurrency == 1:
                continue
            va, vb = _values(a_rows[key], metric), _values(b_rows[key], metric)
            row = base.model_copy(
                update={
                    "metric": metric,
                    "better": BETTER[metric],
                    "a_median": median(va),
                    "b_median": median(vb),
                    "n_a": len(va),
                    "n_b": len(vb),
                }
            )
            if not va or not vb:
                row.verdict = "not measured on both sides"
            elif median(va) == 0:
                row.verdict = "A median is 0: no ratio"
            else:
                interval = ratio_ci(va, vb, resamples=resamples)
                assert interval is not None
                row.ratio, row.ci_low, row.ci_high = interval.value, interval.low, interval.high
                row.verdict = verdict(interval, null=1.0)
                if interval.n < 2:
                    row.verdict += " (one run on a side: never rank on one run)"
            out.append(row)
    return out


def comparison(
    a: BenchResult, b: BenchResult, rows: list[CompareRow], a_name: str, b_name: str
) -> Comparison:
    return Comparison(
        a=CompareSide(source=a_name, run_id=a.run_id, model=a.model),
        b=CompareSide(source=b_name, run_id=b.run_id, model=b.model),
        rows=rows,
    )
