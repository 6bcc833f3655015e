"""vLLM's own decode rate from real /metrics captured around one request."""

from pathlib import Path

from agentbench.backends.vllm import parse_spec_metrics, server_decode_rate

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "vllm"


def test_server_decode_rate_from_real_metrics() -> None:
    before = parse_spec_metrics((FIXTURES / "metrics_before.txt").read_text())
    after = parse_spec_metrics((FIXTURES / "metrics_after.txt").read_text())
    # 14 generated tokens, 1.2101505 s of decode phase, one request
    assert server_decode_rate(before, after) == (14 - 1) / 1.2101505460000226
    assert server_decode_rate(after, after) is None  # no request in between
