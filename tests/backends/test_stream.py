from agentbench.backends.stream import StreamAccumulator, ThinkSplitter, decode_rate


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
    acc.add_reasoning("thinking", 5_000_000)
    acc.add_content("Answer", 9_000_000)
    acc.add_tool_fragment(0, 12_000_000, id="c1", name="run_command", arguments='{"cmd":')
    acc.add_tool_fragment(0, 13_000_000, id=None, name=None, arguments=' "ls"}')
    acc.finish(14_000_000)
    assert acc.seconds(acc.t_first_event_ns) == 0.001
    assert acc.seconds(acc.t_first_token_ns) == 0.005
    assert acc.seconds(acc.t_first_answer_ns) == 0.009
    assert acc.seconds(acc.t_last_token_ns) == 0.013
    assert acc.token_events == 4
    (call,) = acc.tool_calls()
    assert call.parsed == {"cmd": "ls"}


def test_decode_rate_definition() -> None:
    assert decode_rate(101, 0, 1_000_000_000) == 100.0
    assert decode_rate(1, 0, 10) is None
    assert decode_rate(None, 0, 10) is None
