"""Measured timing against the reference server's known schedule (DESIGN.md definitions).

Schedules are slow enough (>= 250 ms TTFT) that 5% is several milliseconds: the server runs in a
thread of this process, sharing the interpreter with the client on a shared 2-core machine. The
millisecond-level fidelity figures come from benchmarks/fidelity.py, not from a timed unit test.
"""

import pytest

from agentbench.backends.base import ChatRequest
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.refserver.schedule import Schedule

LONG = "word " * 150  # the echo policy repeats it: ~150 output tokens


@pytest.mark.parametrize(
    "schedule",
    [
        Schedule(ttft_s=0.3, rate_tok_s=50.0, chunks=(1,)),
        Schedule(ttft_s=0.25, rate_tok_s=100.0, chunks=(1, 3, 2, 4)),
        Schedule(ttft_s=0.3, rate_tok_s=80.0, chunks=(2,), reasoning_tokens=30),
    ],
    ids=["single-token-chunks", "spec-decode-bursts", "thinking"],
)
async def test_ttft_and_decode_match_schedule_within_5_percent(refserver_factory, schedule):
    server = refserver_factory(schedule)
    backend = OpenAICompatBackend(server.base_url, "echo")
    try:
        await backend.complete(ChatRequest(messages=[{"role": "user", "content": "warm up"}]))
        c = await backend.complete(ChatRequest(messages=[{"role": "user", "content": LONG}]))
    finally:
        await backend.aclose()
    assert c.tokens_method == "usage"
    assert c.ttft_s == pytest.approx(schedule.ttft_s, rel=0.05)
    assert c.decode_tok_s == pytest.approx(schedule.rate_tok_s, rel=0.05)
    assert c.ttft_byte_s < c.ttft_s
    if schedule.reasoning_tokens:
        assert c.reasoning_tokens == schedule.reasoning_tokens
        assert c.ttfa_s == pytest.approx(
            schedule.ttft_s + schedule.reasoning_tokens / schedule.rate_tok_s, rel=0.05
        )
    if len(schedule.chunks) > 1:
        assert c.token_events < c.output_tokens / 2  # bursts: far fewer events than tokens
