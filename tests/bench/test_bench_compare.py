"""Compare: a 2x decode-rate difference resolves with several runs; the same result does not."""

from __future__ import annotations

from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.bench.compare import CompareRow, compare_results
from agentbench.bench.engine import BenchConfig, run_bench
from agentbench.bench.records import BenchResult, BenchRow, RepetitionRecord
from agentbench.bench.scenarios import custom
from agentbench.metrics.stats import RESOLVED, UNRESOLVED
from agentbench.refserver.schedule import Schedule


async def _bench(server_factory, rate: float, runs: int) -> BenchResult:
    server = server_factory(Schedule(ttft_s=0.01, rate_tok_s=rate))
    backend = OpenAICompatBackend(server.base_url, "echo")
    try:
        outcome = await run_bench(
            backend, BenchConfig(scenarios=[custom(60, 40)], runs=runs, skip_gate=True)
        )
    finally:
        await backend.aclose()
    return BenchResult(run_id="r", created_at="", status="complete", results=outcome.results)


def _row(rows: list[CompareRow], metric: str) -> CompareRow:
    return next(r for r in rows if r.metric == metric)


async def test_twice_the_decode_rate_is_resolved(refserver_factory) -> None:
    a = await _bench(refserver_factory, 200.0, runs=4)
    b = await _bench(refserver_factory, 400.0, runs=4)
    row = _row(compare_results(a, b), "decode_tok_s")
    assert row.verdict == RESOLVED
    assert row.ratio and 1.8 < row.ratio < 2.2 and row.ci_low and row.ci_low > 1.0
    assert row.n_a == row.n_b == 4
    tpot = _row(compare_results(a, b), "tpot_s")  # half the time per token: resolved, lower
    assert tpot.verdict == RESOLVED and tpot.ratio and 0.45 < tpot.ratio < 0.56


async def test_same_schedule_compared_with_itself_is_unresolved(refserver_factory) -> None:
    a = await _bench(refserver_factory, 300.0, runs=3)
    rows = compare_results(a, a)
    for metric in ("decode_tok_s", "prefill_tok_s", "ttft_s", "tpot_s"):
        row = _row(rows, metric)
        assert row.verdict == UNRESOLVED
        assert row.ci_low is not None and row.ci_high is not None
        assert row.ci_low <= 1.0 <= row.ci_high


def _synthetic(values: list[float], scenario: str = "chat_short") -> BenchResult:
    runs = [
        RepetitionRecord(run=i, concurrency=1, requests=1, completed=1, decode_tok_s=v, ttft_s=0.1)
        for i, v in enumerate(values, start=1)
    ]
    row = BenchRow(scenario=scenario, prompt_tokens=128, max_tokens=256, runs=runs)
    return BenchResult(run_id="s", created_at="", status="complete", results=[row])


def test_overlapping_noisy_runs_are_unresolved() -> None:
    # ~6% run-to-run spread (speculative decoding, seed 000) and a 3% gap: not resolvable.
    a = _synthetic([100.0, 106.0, 101.0, 104.5])
    b = _synthetic([103.0, 99.5, 107.0, 105.0])
    row = _row(compare_results(a, b), "decode_tok_s")
    assert row.verdict == UNRESOLVED


def test_one_run_each_is_never_resolved_and_missing_figures_are_said() -> None:
    rows = compare_results(_synthetic([100.0]), _synthetic([200.0]))
    assert _row(rows, "decode_tok_s").verdict.startswith(UNRESOLVED)
    assert _row(rows, "prefill_tok_s").verdict == "not measured on both sides"


def test_unmatched_scenarios_are_listed() -> None:
    a = _synthetic([100.0, 101.0])
    b = _synthetic([100.0, 101.0], scenario="summarization")
    verdicts = [r.verdict for r in compare_results(a, b)]
    assert verdicts == ["only in A", "only in B"]
