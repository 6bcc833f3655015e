"""Request-rate mode: a seeded schedule, sent on time; goodput under SLOs; bursts in a bench."""

from __future__ import annotations

import itertools
import statistics

import pytest

from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.bench.arrivals import RateMode
from agentbench.bench.engine import BenchConfig, run_bench
from agentbench.bench.records import SloRecord
from agentbench.bench.scenarios import custom
from agentbench.errors import ConfigError
from agentbench.refserver.schedule import Schedule


def test_poisson_schedule_is_seeded_and_has_the_asked_rate() -> None:
    mode = RateMode(rate_req_s=20.0, requests=2001, seed=7)
    offsets = mode.offsets_s(0)
    assert offsets == RateMode(rate_req_s=20.0, requests=2001, seed=7).offsets_s(0)
    assert offsets != mode.offsets_s(1)  # each repetition its own draw
    assert offsets[0] == 0.0 and offsets == sorted(offsets)
    gaps = [b - a for a, b in itertools.pairwise(offsets)]
    assert statistics.mean(gaps) == pytest.approx(1 / 20.0, rel=0.08)
    # Exponential gaps: standard deviation equals the mean; gamma shape 4 is far more even.
    assert statistics.stdev(gaps) == pytest.approx(1 / 20.0, rel=0.12)
    even = RateMode(rate_req_s=20.0, requests=2001, burstiness=4.0, seed=7).offsets_s(0)
    even_gaps = [b - a for a, b in itertools.pairwise(even)]
    assert statistics.stdev(even_gaps) == pytest.approx(0.5 / 20.0, rel=0.12)


def test_constant_arrivals_and_bad_input() -> None:
    assert RateMode(4.0, requests=3, arrival="constant").offsets_s(5) == [0.0, 0.25, 0.5]
    with pytest.raises(ConfigError, match="--request-rate"):
        RateMode(0.0)
    with pytest.raises(ConfigError, match="--burstiness"):
        RateMode(1.0, burstiness=0.0)


async def test_rate_mode_sends_on_schedule_and_counts_goodput(refserver_factory) -> None:
    server = refserver_factory(Schedule(ttft_s=0.03, rate_tok_s=100.0))
    backend = OpenAICompatBackend(server.base_url, "echo")
    config = BenchConfig(
        scenarios=[custom(40, 10)],
        runs=2,
        skip_gate=True,
        rates=[RateMode(rate_req_s=25.0, requests=8, seed=3)],
        slo=SloRecord(ttft_s=0.5, tpot_s=0.5),
    )
    try:
        outcome = await run_bench(backend, config)
    finally:
        await backend.aclose()
    (row,) = outcome.results
    assert row.status == "ok" and row.concurrency is None and row.request_rate_req_s == 25.0
    assert row.arrival == "poisson" and row.requests_per_run == 8
    for index, run in enumerate(row.runs, start=1):
        planned = RateMode(rate_req_s=25.0, requests=8, seed=3).offsets_s(index)  # after warm-up
        assert [s.scheduled_send_s for s in run.streams] == planned
        # Sent when scheduled: a loose bound for a busy 2-core host (fidelity.py measures it).
        assert run.arrival_error_max_s is not None and run.arrival_error_max_s < 0.05
    assert row.goodput and row.goodput.requests == 16
    # 30 ms TTFT, 10 ms TPOT: well within. A stream whose tokens this busy client read in one
    # bunch has no TPOT (None, with its reason): it cannot be shown within the SLO.
    untimed = [s for r in row.runs for s in r.streams if s.tpot_s is None]
    assert all(s.decode_unmeasured_reason for s in untimed)
    assert row.goodput.unverifiable == len(untimed) < 16
    assert row.goodput.requests_within_slo == 16 - len(untimed)
    assert row.goodput.goodput_req_s and row.goodput.goodput_req_s > 0


async def test_tight_slo_counts_no_request(refserver_factory) -> None:
    server = refserver_factory(Schedule(ttft_s=0.03, rate_tok_s=300.0))
    backend = OpenAICompatBackend(server.base_url, "echo")
    config = BenchConfig(
        scenarios=[custom(40, 15)], runs=1, skip_gate=True, slo=SloRecord(ttft_s=0.01)
    )
    try:
        (row,) = (await run_bench(backend, config)).results
    finally:
        await backend.aclose()
    assert row.goodput and row.goodput.requests_within_slo == 0
    assert row.goodput.goodput_req_s == 0.0


async def test_a_burst_stream_gives_no_decode_figure_in_a_bench_row(refserver_factory) -> None:
    server = refserver_factory(Schedule(ttft_s=0.02, rate_tok_s=1e6, chunks=(1, 100_000)))
    backend = OpenAICompatBackend(server.base_url, "echo")
    try:
        outcome = await run_bench(
            backend, BenchConfig(scenarios=[custom(60, 40)], runs=2, skip_gate=True)
        )
    finally:
        await backend.aclose()
    (row,) = outcome.results
    assert row.median.decode_tok_s is None and row.median.tpot_s is None
    assert row.requests.decode_tok_s.n == 0 and row.requests.itl_s.n == 0
    assert row.median.ttft_s is not None and row.median.ttft_s >= 0.02
    for run in row.runs:
        assert run.decode_unmeasured_reasons and "burst" in run.decode_unmeasured_reasons[0]
        # The whole answer in ~40 µs would have read as ~1,000,000 tok/s; aggregate stays bound
        # by the wall time, which includes the TTFT.
        assert run.aggregate_output_tok_s and run.aggregate_output_tok_s < 40 / 0.02
