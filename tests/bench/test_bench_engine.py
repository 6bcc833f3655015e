"""The bench procedure end to end on the reference server: contract keys, forced output, context."""

from __future__ import annotations

from agentbench.bench.engine import BenchConfig, run_bench
from agentbench.bench.measure import FIGURES
from agentbench.bench.scenarios import BUILTIN, custom
from agentbench.refserver.schedule import Schedule, SpecCounters

from .conftest import RecordingBackend


async def test_runs_figures_and_summary(refserver_factory) -> None:
    server = refserver_factory(
        Schedule(ttft_s=0.02, rate_tok_s=250.0, chunks=(1, 3, 2, 4)), spec=SpecCounters()
    )
    backend = RecordingBackend(server.base_url, "echo")
    try:
        outcome = await run_bench(
            backend, BenchConfig(scenarios=[custom(80, 40)], runs=3, skip_gate=True)
        )
    finally:
        await backend.aclose()
    (cell,) = outcome.results
    assert cell.status == "ok" and cell.n_runs == 3
    assert len(backend.sent) == 4  # one warm-up + three counted
    for request in backend.sent:
        assert request.extra_body == {"ignore_eos": True, "min_tokens": 40}
        assert request.max_tokens == 40
    for run in cell.runs:
        assert run.output_tokens == 40  # echo of an 80-token prompt, cut at max_tokens
        assert run.server_decode_tok_s is None  # refserver has no such counter: null, not 0
        assert run.spec_decode and run.spec_decode.acceptance_rate > 0
        # Plumbing, not fidelity (benchmarks/fidelity.py measures that): loose on a busy host.
        assert run.decode_tok_s and abs(run.decode_tok_s - 250.0) / 250.0 < 0.2
        assert run.ttft_s and 0.02 <= run.ttft_s < 0.1
        (stream,) = run.streams
        assert stream.itl_s and len(stream.itl_s) == 39  # one latency per token after the first
        assert stream.tpot_s and abs(stream.tpot_s - 1 / 250.0) < 0.002
    for figure in FIGURES:
        assert getattr(cell.median, figure) is not None or figure == "server_decode_tok_s"
    assert cell.spread.decode_tok_s is not None
    req = cell.requests
    assert req.ttft_s.n == 3 and req.itl_s.n == 3 * 39
    assert req.itl_s.p50 and req.itl_s.p99 and req.itl_s.p50 <= req.itl_s.p99
    assert req.chunk_gap_s.n == 3 * (len(stream.chunk_gaps_s or []))
    assert outcome.prompt_counting == "server_tokenizer"


async def test_concurrency_reports_aggregate_rate(refserver_factory) -> None:
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=400.0))
    backend = RecordingBackend(server.base_url, "echo")
    try:
        outcome = await run_bench(
            backend,
            BenchConfig(scenarios=[custom(60, 30)], concurrencies=[1, 4], runs=2, skip_gate=True),
        )
    finally:
        await backend.aclose()
    single, multi = outcome.results
    assert (single.concurrency, multi.concurrency) == (1, 4)
    assert multi.runs[0].completed == 4 and len(multi.runs[0].streams) == 4
    assert multi.runs[0].spec_decode is None  # server-wide counters: concurrency 1 only
    aggregate = multi.median.aggregate_output_tok_s
    assert aggregate and single.median.aggregate_output_tok_s
    assert aggregate > 1.5 * single.median.aggregate_output_tok_s
    assert len({n for r in multi.runs for n in r.nonces}) == 8
    assert multi.requests.ttft_s.n == 8


async def test_context_too_small_known_from_server_info(refserver_factory) -> None:
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=2000.0, max_context=1000))
    backend = RecordingBackend(server.base_url, "echo")
    try:
        outcome = await run_bench(
            backend,
            BenchConfig(
                scenarios=[BUILTIN["chat_long_context"], custom(50, 10)], runs=1, skip_gate=True
            ),
        )
    finally:
        await backend.aclose()
    too_big, fits = outcome.results
    assert too_big.status == "context_too_small" and too_big.runs == []
    assert "max context of 1000" in (too_big.message or "")
    assert too_big.median.decode_tok_s is None
    assert fits.status == "ok" and fits.n_runs == 1


async def test_context_too_small_from_http_400(refserver_factory) -> None:
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=2000.0, max_context=1000))
    backend = RecordingBackend(server.base_url, "echo", hide_context=True)
    try:
        outcome = await run_bench(
            backend,
            BenchConfig(scenarios=[custom(1500, 10), custom(50, 10)], runs=1, skip_gate=True),
        )
    finally:
        await backend.aclose()
    too_big, fits = outcome.results
    assert too_big.status == "context_too_small"
    assert "context is too small" in (too_big.message or "")
    assert "maximum context length is 1000" in (too_big.message or "")
    assert fits.status == "ok"


def test_client_lag_beyond_five_percent_of_the_decode_window_flags_the_row() -> None:
    from agentbench.bench.engine import flag_client_lag, new_row
    from agentbench.bench.records import RepetitionRecord, StreamRecord

    def repetition(lag: float) -> RepetitionRecord:
        stream = StreamRecord(e2e_latency_s=1.1, ttft_s=0.1)
        return RepetitionRecord(
            run=1,
            concurrency=64,
            requests=1,
            completed=1,
            streams=[stream],
            client_loop_lag_max_s=lag,
        )

    row = new_row(custom(10, 10), 0, 64)
    row.runs = [repetition(0.002)]
    flag_client_lag(row)
    assert row.client_limited is False and row.message is None
    row.runs.append(repetition(0.08))
    flag_client_lag(row)
    assert row.client_limited is True
    assert "lagged up to 80 ms during a 1000 ms decode" in (row.message or "")


async def test_metrics_are_read_once_per_row_unless_asked(refserver_factory) -> None:
    """Default: /metrics read before and after the row's repetitions, one figure for the row;
    --metrics-per-repetition: one figure per repetition, as before."""
    server = refserver_factory(
        Schedule(ttft_s=0.01, rate_tok_s=300.0, chunks=(1, 3, 2, 4)), spec=SpecCounters()
    )
    backend = RecordingBackend(server.base_url, "echo")
    try:
        scopes = []
        for each in (False, True):
            config = BenchConfig(
                scenarios=[custom(40, 24)], runs=3, skip_gate=True, metrics_per_repetition=each
            )
            (row,) = (await run_bench(backend, config)).results
            specs = [r.spec_decode for r in row.runs]
            assert all(s is not None and s.acceptance_rate > 0 for s in specs)
            scopes.append({s.scope for s in specs if s})
            drafted = [s.draft_tokens for s in specs if s]
            if not each:  # the row's counters: the same figure on every repetition
                assert len(set(drafted)) == 1
    finally:
        await backend.aclose()
    assert scopes == [{"row"}, {"repetition"}]
