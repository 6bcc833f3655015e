"""Coherence gate: an echoing server fails it; a coherent model passes; failure means no figures."""

from __future__ import annotations

from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.bench.engine import BenchConfig, run_bench
from agentbench.bench.gate import QUESTIONS, check_answer, run_gate

from .conftest import CoherentBackend


def test_expected_answers_never_appear_in_their_questions() -> None:
    for q in QUESTIONS:
        assert not check_answer(q, q.prompt), q.prompt
        assert check_answer(q, f"The answer is {q.expected}.")


async def test_echo_model_fails_the_gate(refserver) -> None:
    backend = OpenAICompatBackend(refserver.base_url, "echo")
    try:
        result = await run_gate(backend)
    finally:
        await backend.aclose()
    assert not result.passed
    first = result.checks[0]
    assert "France" in first.prompt and not first.passed
    assert "France" in first.answer  # the echo, shown to the user


async def test_failed_gate_gives_no_throughput_figures(refserver, tiny) -> None:
    backend = OpenAICompatBackend(refserver.base_url, "echo")
    try:
        outcome = await run_bench(backend, BenchConfig(scenarios=[tiny], runs=1))
    finally:
        await backend.aclose()
    assert not outcome.gate.passed
    assert outcome.results == []
    assert "FAILED" in outcome.gate.summary


async def test_coherent_model_passes_the_gate() -> None:
    result = await run_gate(CoherentBackend())
    assert result.passed
    assert [c.passed for c in result.checks] == [True] * len(QUESTIONS)
