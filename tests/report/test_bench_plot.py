"""Sweep curves: over loads (one curve per depth) or over depths (one curve per load)."""

from __future__ import annotations

from pathlib import Path

from agentbench.bench.records import BenchResult, BenchRow, Percentiles
from agentbench.report.bench_plot import curves, write_sweep


def row(depth: int, concurrency: int, aggregate: float, ttft: float) -> BenchRow:
    r = BenchRow(scenario="chat_short", prompt_tokens=128, max_tokens=256, depth=depth,
                 concurrency=concurrency)  # fmt: skip
    r.median.aggregate_output_tok_s = aggregate
    r.requests.ttft_s = Percentiles(n=3, p50=ttft)
    r.requests.tpot_s = Percentiles(n=3, p50=0.01 * concurrency)
    return r


def result(*rows: BenchRow) -> BenchResult:
    return BenchResult(run_id="r", created_at="", status="complete", model="m", results=[*rows])


def test_a_load_sweep_gives_a_curve_per_depth_in_load_order() -> None:
    got = curves(result(row(0, 4, 90.0, 0.3), row(0, 1, 30.0, 0.1), row(0, 2, 55.0, 0.2)))
    assert list(got) == ["chat_short depth 0"]
    assert [name for name, _ in got["chat_short depth 0"]] == ["c=1", "c=2", "c=4"]


def test_a_depth_sweep_gives_a_curve_over_depths(tmp_path: Path) -> None:
    data = result(row(0, 1, 30.0, 0.1), row(4096, 1, 20.0, 0.9))
    got = curves(data)
    assert list(got) == ["chat_short c=1"]
    assert [name for name, _ in got["chat_short c=1"]] == ["d=0", "d=4096"]
    png = write_sweep(data, tmp_path / "depth.html")
    assert png is not None and png.read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (tmp_path / "depth.html").read_text()


def test_one_point_per_curve_draws_nothing(tmp_path: Path) -> None:
    assert write_sweep(result(row(0, 1, 30.0, 0.1)), tmp_path / "none.html") is None
    assert not (tmp_path / "none.html").exists()
