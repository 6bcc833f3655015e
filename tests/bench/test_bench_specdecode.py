"""Speculative-decoding acceptance of a repetition: vLLM counters, llama.cpp timings."""

from __future__ import annotations

from agentbench.backends.vllm import parse_spec_metrics
from agentbench.bench.specdecode import repetition_acceptance
from agentbench.records import Completion
from agentbench.refserver.schedule import SpecCounters


def test_acceptance_from_vllm_counters_diffed_around_a_repetition() -> None:
    spec = SpecCounters()
    before = parse_spec_metrics(spec.render("m"))
    for size in (1, 3, 2, 4):  # accepted 0, 2, 1, 3 of 3 drafted each
        spec.record(size)
    result = repetition_acceptance(before, parse_spec_metrics(spec.render("m")), [])
    assert result is not None
    assert result["acceptance_rate"] == 6 / 12
    assert result["mean_accepted_per_draft"] == 1.5
    assert result["scope"] == "repetition" and "concurrency 1" in result["description"]


def test_llamacpp_timings_pooled_over_requests() -> None:
    completions = [
        Completion(
            model="m",
            requested_model="m",
            server_counters={"timings": {"draft_n": 10, "draft_n_accepted": n}},
        )
        for n in (6, 8)
    ]
    result = repetition_acceptance(None, None, completions)
    assert result is not None
    assert result["acceptance_rate"] == 14 / 20 and result["source"] == "llamacpp_timings"


def test_no_drafting_means_no_figure() -> None:
    same = parse_spec_metrics(SpecCounters().render("m"))
    assert repetition_acceptance(same, same, []) is None
    assert repetition_acceptance(None, None, [Completion(model="m", requested_model="m")]) is None
