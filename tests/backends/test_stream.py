import pytest

from agentbench.backends.decode import MIN_WINDOW_S, decode_figures, token_gaps
from agentbench.backends.stream import Delta, StreamAccumulator, ToolDelta
from agentbench.backends.think import ThinkSplitter


def test_think_splitter_handles_tags_split_across_deltas() -> None:
    splitter = ThinkSplitter()
    pieces = ["<th", "ink>Let me", " check.</thi", "nk>\nThe answer", " is 42"]
    reasoning = answer = ""
    for p in pieces:
        r, a = splitter.feed(p)
        reasoning, answer = reasoning + r, answer + a
    r, a = splitter.flush()
    assert (reasoning + r, answer + a) == ("Let me check.", "The answer is 42")


def test_text_without_think_is_all_answer() -> None:
    splitter = ThinkSplitter()
    assert splitter.feed("<b>bold</b>") == ("", "<b>bold</b>")


def test_accumulator_times_reasoning_then_answer() -> None:
    acc = StreamAccumulator(t_send_ns=0)
    acc.event(1_000_000)  # role-only event: first byte, not a token
    acc.feed(Delta(reasoning="thinking"), 5_000_000)
    acc.feed(Delta(content="Answer"), 9_000_000)
    acc.feed(Delta(tool_calls=(ToolDelta(0, "c1", "run_command", '{"cmd":'),)), 12_000_000)
    acc.feed(Delta(tool_calls=(ToolDelta(0, arguments=' "ls"}'),)), 13_000_000)
    acc.finish(14_000_000)
    assert acc.seconds(acc.t_first_event_ns) == 0.001
    assert acc.seconds(acc.t_first_token_ns) == 0.005
    assert acc.seconds(acc.t_first_answer_ns) == 0.009
    assert acc.seconds(acc.t_last_token_ns) == 0.013
    assert acc.token_events == 4
    (call,) = acc.tool_calls()
    assert call.parsed == {"cmd": "ls"}


MS = 1_000_000  # ns


def test_decode_rate_definition() -> None:
    events = [(i * 10 * MS, 4) for i in range(101)]  # 101 tokens, one every 10 ms
    d = decode_figures(101, events, t_end_ns=1000 * MS + 5 * MS)
    assert d.rate_tok_s == pytest.approx(100.0) and d.reason is None
    assert d.tpot_s == pytest.approx(1.005 / 100)  # to the stream's end, as vLLM's TPOT
    assert d.itl_s == pytest.approx([0.01] * 100) and d.itl_method == "one_token_per_event"
    assert d.chunk_gaps_s == pytest.approx([0.01] * 100)
    assert decode_figures(1, events[:1], 0).rate_tok_s is None
    assert decode_figures(None, events, 0).reason


def test_one_event_or_a_burst_has_no_rate_but_a_reason() -> None:
    one = decode_figures(40, [(3 * MS, 160)], 4 * MS)
    assert one.rate_tok_s is None and one.tpot_s is None and one.itl_s is None
    assert "1 event" in (one.reason or "")
    # The bug seen on a real server: a tool call of 40 tokens in two events 20 µs apart
    # made (40 - 1) / 20 µs ≈ 2,000,000 tok/s.
    burst = decode_figures(40, [(3 * MS, 4), (3 * MS + 20_000, 150)], 4 * MS)
    assert burst.rate_tok_s is None and "burst" in (burst.reason or "")
    just_over = decode_figures(2, [(0, 4), (int(MIN_WINDOW_S * 1e9) + 1, 4)], None)
    assert just_over.rate_tok_s == pytest.approx(1 / MIN_WINDOW_S, rel=1e-6)


def test_bunched_events_over_a_long_window_have_no_rate() -> None:
    # 2 spread events, then 30 more read within microseconds of each other: most tokens bunched.
    events = [(0, 4), (50 * MS, 4)] + [(50 * MS + 10_000 * (i + 1), 4) for i in range(30)]
    d = decode_figures(32, events, 60 * MS)
    assert d.rate_tok_s is None and "30 of 31" in (d.reason or "")


def test_tokens_packed_in_chunks_share_their_gap() -> None:
    # Chunks of 3 and 1 tokens (text 12 and 4 chars) after the first token, 40 and 10 ms apart.
    gaps, method = token_gaps([0.04, 0.01], [12, 4], 4)
    assert method == "apportioned_by_text_length"
    assert gaps == pytest.approx([0.04 / 3] * 3 + [0.01])
    assert sum(token_gaps([0.02, 0.03, 0.05], [1, 50, 1], 10)[0]) == pytest.approx(0.10)
    # Fewer tokens than events (an estimated count): a gap with no token passes to the next.
    few, _ = token_gaps([0.01, 0.02, 0.03], [1, 1, 1], 2)
    assert len(few) == 2 and sum(few) == pytest.approx(0.06)


def test_a_burst_read_late_is_still_a_burst() -> None:
    # The first token, then the other 30 in one event that this client read 6 ms later: spread
    # enough for the window rule, but one event brought nearly all tokens.
    d = decode_figures(31, [(0, 4), (6 * MS, 120)], 7 * MS)
    assert d.rate_tok_s is None and "one event carried 30 of the 30" in (d.reason or "")
    # A drafter's chunks of up to 3 tokens over a spread stream keep their rate.
    events = [(0, 4)] + [(i * 10 * MS, 12 if i % 2 else 4) for i in range(1, 11)]
    assert decode_figures(21, events, 101 * MS).rate_tok_s == pytest.approx(200.0)
