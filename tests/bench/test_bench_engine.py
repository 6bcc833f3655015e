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
    assert cell["status"] == "ok" and cell["n_runs"] == 3
    assert len(backend.sent) == 4  # one warm-up + three counted
    for request in backend.sent:
        assert request.extra_body == {"ignore_eos": True, "min_tokens": 40}
        assert request.max_tokens == 40
    for run in cell["runs"]:
        assert set(FIGURES) <= set(run)
        assert run["output_tokens"] == 40  # echo of an 80-token prompt, cut at max_tokens
        assert run["server_decode_tok_s"] is None  # refserver has no such counter: null, not 0
        assert run["spec_decode"]["acceptance_rate"] > 0
        # Plumbing, not fidelity (benchmarks/fidelity.py measures that): loose on a busy host.
        assert abs(run["decode_tok_s"] - 250.0) / 250.0 < 0.2
        assert 0.02 <= run["ttft_s"] < 0.1
    assert set(cell["median"]) >= set(FIGURES)
    assert cell["spread"]["decode_tok_s"] is not None
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
    assert (single["concurrency"], multi["concurrency"]) == (1, 4)
    assert multi["runs"][0]["completed"] == 4
    assert multi["runs"][0]["spec_decode"] is None  # server-wide counters: concurrency 1 only
    aggregate = multi["median"]["aggregate_output_tok_s"]
    assert aggregate > 1.5 * single["median"]["aggregate_output_tok_s"]
    assert len({n for r in multi["runs"] for n in r["nonces"]}) == 8


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
    assert too_big["status"] == "context_too_small" and too_big["runs"] == []
    assert "max context of 1000" in too_big["message"]
    assert too_big["median"]["decode_tok_s"] is None
    assert fits["status"] == "ok" and fits["n_runs"] == 1


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
    assert too_big["status"] == "context_too_small"
    assert "context is too small" in too_big["message"]
    assert "maximum context length is 1000" in too_big["message"]
    assert fits["status"] == "ok"


def test_client_lag_beyond_five_percent_of_the_decode_window_flags_the_row() -> None:
    from agentbench.bench.engine import flag_client_lag, new_cell

    cell = new_cell(custom(10, 10), 0, 64)
    cell["runs"] = [{"client_loop_lag_max_s": 0.002, "duration_s": 1.1, "ttft_s": 0.1}]
    flag_client_lag(cell)
    assert cell["client_limited"] is False and cell["message"] is None
    cell["runs"].append({"client_loop_lag_max_s": 0.08, "duration_s": 1.1, "ttft_s": 0.1})
    flag_client_lag(cell)
    assert cell["client_limited"] is True
    assert "lagged up to 80 ms during a 1000 ms decode" in cell["message"]
