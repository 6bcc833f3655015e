"""What the model saw, step by step: the messages each request added, a timing bar, and two
episodes of one task side by side. The static report and `agentbench view` both render
episodes through here (and agentbench.report.episodes), so an episode has one rendering.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from agentbench.figures import fmt
from agentbench.records import EpisodeResult, StepRecord
from agentbench.report.page import esc

# Timing-bar segments: (css class, label). Widths are seconds on the scale the caller gives.
SEGMENTS = (
    ("tb-ttft", "TTFT"),
    ("tb-think", "reasoning"),
    ("tb-answer", "answer"),
    ("tb-tool", "tools"),
)


def new_messages(step: StepRecord, previous: StepRecord | None) -> list[dict[str, Any]]:
    """The messages this step's request added to the previous request's (all of them first)."""
    if step.request is None:
        return []
    sent = step.request.messages
    before = previous.request.messages if previous and previous.request else []
    n = 0
    for x, y in zip(before, sent, strict=False):
        if x != y:
            break
        n += 1
    return sent[n:]


def _turn(message: dict[str, Any]) -> str:
    role = str(message.get("role", "?"))
    content = message.get("content")
    text = content if isinstance(content, str) else json.dumps(content, indent=1)
    if role == "system":
        return (
            f'<details class="turn system"><summary>system prompt ({len(text or "")} chars)'
            f"</summary><pre>{esc(text)}</pre></details>"
        )
    if role == "assistant":
        return (
            '<div class="turn echo"><span class="role">assistant</span> <span class="muted">'
            "the previous answer, sent back</span></div>"
        )
    label = role
    if role == "tool":
        label = f"tool output → {message.get('tool_call_id', '')}"
    return (
        f'<div class="turn {esc(role)}"><span class="role">{esc(label)}</span>'
        f"<pre>{esc(text)}</pre></div>"
    )


def sent(step: StepRecord, previous: StepRecord | None) -> str:
    """The request's new messages as turns; the tools offered once, on the first request."""
    if step.request is None:
        return '<p class="note">No transcript stored for this step (an older run).</p>'
    parts = [_turn(m) for m in new_messages(step, previous)]
    if previous is None or previous.request is None:
        tools = step.request.tools or []
        names = ", ".join(str(t.get("function", {}).get("name", "?")) for t in tools)
        params = (
            f"tool mode {esc(step.request.tool_mode)} · max tokens {esc(step.request.max_tokens)}"
            f" · temperature {esc(step.request.temperature)}"
        )
        parts.insert(
            0,
            f'<details class="turn tools"><summary>request: {len(tools)} tools offered '
            f"({esc(names) or 'none'}) · {params}</summary><pre>"
            f"{esc(json.dumps(tools, indent=1))}</pre></details>",
        )
    return '<div class="sent"><h4>Sent</h4>' + "".join(parts) + "</div>"


def segments(step: StepRecord) -> list[tuple[str, float | None]]:
    """(segment, seconds) of a step: TTFT, reasoning (first token to first answer token),
    answer (first answer token to stream end), tools (simulated tool time)."""
    ttft, ttfa, end = step.ttft_s, step.ttfa_s, step.duration_s
    think = ttfa - ttft if ttfa is not None and ttft is not None else None
    answer = end - (ttfa if ttfa is not None else (ttft or 0.0)) if end is not None else None
    return [("ttft", ttft), ("think", think), ("answer", answer), ("tool", step.tool_time_s)]


def timing_bar(step: StepRecord, scale_s: float) -> str:
    """A horizontal bar of the step's time; widths are shares of `scale_s` (same for every step
    drawn together, so bars compare)."""
    parts, legend = [], []
    for (cls, label), (_, seconds) in zip(SEGMENTS, segments(step), strict=True):
        legend.append(f'<span class="k {cls}">{label} {fmt(seconds, ".3f", " s")}</span>')
        if seconds and scale_s > 0:
            width = max(0.0, min(100.0, 100.0 * seconds / scale_s))
            parts.append(
                f'<span class="seg {cls}" style="width:{width:.2f}%" '
                f'title="{label}: {seconds:.3f} s"></span>'
            )
    return (
        f'<div class="tbar" role="img" aria-label="step timing">{"".join(parts)}</div>'
        f'<div class="tlegend">{" ".join(legend)}</div>'
    )


def scale_of(steps: Sequence[StepRecord]) -> float:
    """The longest step (model call + tool time), seconds: the timing bars' full width."""
    return max(((s.duration_s or 0.0) + s.tool_time_s for s in steps), default=0.0)


def side_by_side(pair: Sequence[tuple[str, EpisodeResult]], step_html: Any) -> str:
    """Two (or more) episodes of one task next to each other, one row per step index.
    `step_html(step, previous, scale_s, ident)` renders one step (episodes.render_step)."""
    scale = max(scale_of(e.steps) for _, e in pair)
    head = "".join(
        f'<th scope="col">{esc(label)}<div class="muted">{esc(e.status)} · score '
        f"{fmt(e.score, '.2f')} · {len(e.steps)} steps · {fmt(e.reasoning_tokens, 'd')} "
        f"thinking tokens · {fmt(e.time_to_done_s, '.2f', ' s')} to done</div></th>"
        for label, e in pair
    )
    rows = []
    for i in range(max(len(e.steps) for _, e in pair)):
        cells = []
        for n, (_, e) in enumerate(pair):
            if i < len(e.steps):
                previous = e.steps[i - 1] if i else None
                cells.append(f"<td>{step_html(e.steps[i], previous, scale, f's{n}-step-{i}')}</td>")
            else:
                cells.append('<td class="muted">—</td>')
        rows.append(f'<tr><th scope="row">step {i}</th>{"".join(cells)}</tr>')
    finals = "".join(f"<td><pre>{esc(e.final_answer or '—')}</pre></td>" for _, e in pair)
    rows.append(f'<tr><th scope="row">final answer</th>{finals}</tr>')
    return (
        f'<div class="wrap"><table class="side"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
