"""vLLM speculative-decoding counters: parsing and the acceptance figure."""

from __future__ import annotations

from agentbench.bench.specdecode import ACCEPTED, DRAFT_TOKENS, acceptance, parse_counters
from agentbench.refserver.schedule import SpecCounters

VLLM_TEXT = """\
# HELP vllm:spec_decode_num_draft_tokens_total Number of draft tokens.
# TYPE vllm:spec_decode_num_draft_tokens_total counter
vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="m"} 300.0
vllm:spec_decode_num_draft_tokens_total{engine="1",model_name="m"} 30.0
vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} 120.0
vllm:spec_decode_num_accepted_tokens_total_created{engine="0",model_name="m"} 1.7e9
vllm:num_requests_running{model_name="m"} 1.0
"""


def test_parse_sums_label_sets_and_ignores_other_series() -> None:
    counters = parse_counters(VLLM_TEXT)
    assert counters == {DRAFT_TOKENS: 330.0, ACCEPTED: 120.0}


def test_acceptance_from_refserver_counters() -> None:
    spec = SpecCounters()
    before = parse_counters(spec.render("m"))
    for size in (1, 3, 2, 4):  # accepted 0, 2, 1, 3 of 3 drafted each
        spec.record(size)
    result = acceptance(before, parse_counters(spec.render("m")))
    assert result is not None
    assert result["acceptance_rate"] == 6 / 12
    assert result["mean_accepted_per_step"] == 1.5
    assert "concurrency 1" in result["method"]


def test_no_drafting_means_no_figure() -> None:
    same = {DRAFT_TOKENS: 10.0, ACCEPTED: 5.0}
    assert acceptance(same, same) is None
    assert acceptance(None, same) is None
