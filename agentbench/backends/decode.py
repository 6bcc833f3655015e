"""When arrival times time a decode, and what they say: the one place a decode rate, TPOT and
per-token ITL are computed from a stream's token events (docs/design.md#timing-and-tokens).

Decode figures exist only when the tokens arrived spread over time (`decode_figures`): a burst
gives None and the reason, never an absurd rate.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

# A decode window shorter than this cannot be timed on a client clock shared with other work
# (scheduling jitter is ~1 ms), and no served model decodes a long answer in it.
MIN_WINDOW_S = 0.005
# Tokens arriving this soon after the previous event came out of one buffer (a burst the server
# or this client's reads bunched), not out of separate decode steps: 0.1 ms is 10,000 tok/s.
BURST_GAP_S = 0.0001
# A stream whose decode events are mostly burst gaps has no measurable decode rate.
MAX_BURST_SHARE = 0.5
# Nor one where a single event of several tokens (more than a drafter's usual chunk) brought
# most of the tokens after the first: one late read can make such a burst look spread.
MIN_HEAVY_EVENT = 4
MAX_EVENT_SHARE = 0.5


@dataclass(frozen=True)
class DecodeFigures:
    """Decode figures of one stream, or None for each with the reason."""

    rate_tok_s: float | None = None
    tpot_s: float | None = None
    itl_s: list[float] | None = None
    itl_method: str | None = None
    chunk_gaps_s: list[float] | None = None
    reason: str | None = None


def decode_figures(
    output_tokens: int | None, events: list[tuple[int, int]], t_end_ns: int | None
) -> DecodeFigures:
    """decode_tok_s = (output_tokens − 1) / (t_last − t_first): the first token starts the clock.

    tpot_s = (stream end − first token) / (output_tokens − 1), as vLLM's bench serve (TPOT) and
    AIPerf (its per-request ITL) define it. itl_s lists one gap per token after the first: an
    event carrying k tokens arrived g after the previous one gives k gaps of g / k (tokens, not
    chunks). chunk_gaps_s lists the gap per event, the figure vLLM's bench serve calls ITL.
    None with a reason unless at least two events spread over MIN_WINDOW_S brought the tokens,
    most events were not bursts (BURST_GAP_S), and no single event of several tokens brought
    most of them (MAX_EVENT_SHARE).
    """
    if output_tokens is None or output_tokens < 2:
        return DecodeFigures(reason=f"{output_tokens or 0} output tokens: a rate needs 2")
    if len(events) < 2:
        return DecodeFigures(
            reason=f"all {output_tokens} tokens arrived in {len(events)} event: no decode "
            "timeline (a burst)"
        )
    times = [t for t, _ in events]
    window_s = (times[-1] - times[0]) / 1e9
    gaps = [(b - a) / 1e9 for a, b in itertools.pairwise(times)]
    if window_s < MIN_WINDOW_S:
        return DecodeFigures(
            reason=f"{output_tokens} tokens arrived within {window_s * 1000:.3f} ms "
            f"({len(events)} events): a burst, not a decode; under "
            f"{MIN_WINDOW_S * 1000:.0f} ms no rate is measurable"
        )
    bursts = sum(1 for g in gaps if g < BURST_GAP_S)
    if bursts > MAX_BURST_SHARE * len(gaps):
        return DecodeFigures(
            reason=f"{bursts} of {len(gaps)} token events came less than "
            f"{BURST_GAP_S * 1e3:.1f} ms after the previous one: the tokens were released "
            "in bursts, so their arrival does not time the decode"
        )
    decoded = output_tokens - 1
    heaviest = max(apportion([c for _, c in events[1:]], decoded))
    if heaviest >= MIN_HEAVY_EVENT and heaviest > MAX_EVENT_SHARE * decoded:
        return DecodeFigures(
            reason=f"one event carried {heaviest} of the {decoded} tokens after the first: "
            "most of the answer arrived at once (a burst the client may have read late), so "
            "its arrival does not time the decode"
        )
    tpot = None
    if t_end_ns is not None:
        tpot = (t_end_ns - times[0]) / 1e9 / decoded
    itl, method = token_gaps(gaps, [c for _, c in events[1:]], decoded)
    return DecodeFigures(
        rate_tok_s=decoded / window_s,
        tpot_s=tpot,
        itl_s=itl,
        itl_method=method,
        chunk_gaps_s=gaps,
    )


def apportion(chars: list[int], tokens: int) -> list[int]:
    """Tokens per event: one each when the counts match; otherwise `tokens` shared by text
    length (largest remainder; every event with text gets at least one when there are enough;
    the last event, which closes the window, always carries one)."""
    if tokens == len(chars):
        return [1] * len(chars)
    total = sum(chars) or len(chars)
    weights = [c if sum(chars) else 1 for c in chars]
    floor_min = 1 if tokens >= len(chars) else 0
    shares = [max(floor_min, int(tokens * w / total)) for w in weights]
    while sum(shares) > tokens:  # the floor of 1 overshot: take back from the largest
        shares[shares.index(max(shares))] -= 1
    order = sorted(range(len(weights)), key=lambda i: tokens * weights[i] / total - shares[i])
    for i in reversed(order[-(tokens - sum(shares)) :] if tokens > sum(shares) else []):
        shares[i] += 1
    if shares[-1] == 0:
        shares[shares.index(max(shares))] -= 1
        shares[-1] = 1
    return shares


def token_gaps(gaps: list[float], chars: list[int], tokens: int) -> tuple[list[float], str]:
    """Per-token gaps: each event's gap shared by the tokens it carried (`apportion`); an event
    given no token passes its gap on to the next one."""
    shares = apportion(chars, tokens)
    out: list[float] = []
    carried = 0.0
    for gap, k in zip(gaps, shares, strict=True):
        carried += gap
        if k:
            out += [carried / k] * k
            carried = 0.0
    method = "one_token_per_event" if tokens == len(gaps) else "apportioned_by_text_length"
    return out, method
