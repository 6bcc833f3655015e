"""HTML of one episode and its steps: expandable <details>, every record text escaped.

Each step shows what it sent (the messages its request added, from the stored transcript;
agentbench.report.conversation), its timing bar, timing and tokens by method, the router's
decision and cost, the reasoning (folded), the answer text, tool calls and their simulated
results. The static report and `agentbench view` both render episodes here.
"""

from __future__ import annotations

import re

from agentbench.figures import fmt
from agentbench.records import EpisodeResult, StepRecord, ToolResultRecord
from agentbench.report.conversation import scale_of, sent, timing_bar
from agentbench.report.page import esc, kv, table

MAX_TEXT_CHARS = 20_000
_YES = '<span class="ok">yes</span>'
_NO = '<span class="bad">no</span>'


def anchor(task_id: str, repeat: int) -> str:
    """A stable, HTML-safe id for an episode."""
    return "ep-" + re.sub(r"[^A-Za-z0-9_-]", "_", task_id) + f"-{repeat}"


def _pre(text: str, label: str) -> str:
    if not text:
        return ""
    shown = text
    cut = ""
    if len(text) > MAX_TEXT_CHARS:
        shown = text[:MAX_TEXT_CHARS]
        cut = (
            f'<p class="note">{len(text) - MAX_TEXT_CHARS} more characters not shown; '
            "`agentbench report --json` has the full text.</p>"
        )
    head = f"<h4>{esc(label)}</h4>" if label else ""
    return f"{head}<pre>{esc(shown)}</pre>{cut}"


def _status(status: str) -> str:
    cls = "ok" if status == "ok" else "bad"
    return f'<span class="{cls}">{esc(status)}</span>'


def step_id(task_id: str, repeat: int, index: int) -> str:
    """A step's HTML id (deep links: `#<id>` opens the step)."""
    return f"{anchor(task_id, repeat)}-step-{index}"


def render_step(
    step: StepRecord, previous: StepRecord | None, scale_s: float, ident: str, open_: bool = True
) -> str:
    """One step: what it sent, its timing bar and figures, and what came back (reasoning
    folded; `open_`: the step unfolded)."""
    tokens = (
        f"{fmt(step.output_tokens, 'd')} out, {fmt(step.reasoning_tokens, 'd')} thinking "
        f"({esc(step.tokens_method)}/{esc(step.reasoning_method)}), "
        f"{fmt(step.prompt_tokens, 'd')} prompt"
        + (f" ({fmt(step.cached_prompt_tokens, 'd')} cached)" if step.cached_prompt_tokens else "")
    )
    facts = [
        ("target / model", f"{esc(step.target)} / {esc(step.model)}"),
        ("started at", fmt(step.t_start_s, ".3f", " s")),
        (
            "TTFT byte / token / answer",
            f"{fmt(step.ttft_byte_s, '.3f')} / {fmt(step.ttft_s, '.3f')}"
            f" / {fmt(step.ttfa_s, '.3f')} s",
        ),
        ("duration", fmt(step.duration_s, ".3f", " s")),
        (
            "decode (client / server)",
            f"{fmt(step.decode_tok_s, '.1f')} / {fmt(step.server_decode_tok_s, '.1f')} tok/s",
        ),
        (
            "prefill (client / server)",
            f"{fmt(step.prefill_tok_s, '.1f')} / {fmt(step.server_prefill_tok_s, '.1f')} tok/s",
        ),
        ("tokens", tokens),
        (
            "finish",
            esc(step.finish_reason)
            + (
                f' <span class="bad">truncated: {esc(step.truncation_reason)}</span>'
                if step.truncated
                else ""
            ),
        ),
        ("tool time", fmt(step.tool_time_s, ".3f", " s")),
        ("cost", fmt(step.cost_usd, ".6f", " USD") if step.cost_usd is not None else "unpriced"),
    ]
    if step.router:
        r = step.router
        facts.append(
            (
                "router",
                f"{esc(r.policy)} → {esc(r.target)}: {esc(r.reason)} "
                f"({fmt(r.decision_s * 1000, '.2f')} ms)",
            )
        )
    if step.discarded:
        facts.append(("discarded", '<span class="bad">answer discarded (escalated)</span>'))
    if step.invalid_tool_call:
        facts.append(
            ("invalid tool call", f'<span class="bad">{esc(step.invalid_tool_call)}</span>')
        )
    if step.error:
        facts.append(("error", f'<span class="bad">{esc(step.error)}</span>'))
    if step.retries:
        facts.append(("retries", f"{step.retries}: {esc('; '.join(step.retry_errors))}"))
    calls = ""
    if step.tool_calls:
        how = f" (read from the text: {esc(step.tool_call_method)})" if step.raw_content else ""
        calls = f"<h4>Tool calls{how}</h4>" + "".join(
            f"<pre>{esc(c.name)}({esc(c.arguments)})</pre>" for c in step.tool_calls
        )
    if step.raw_content is not None:
        calls = _pre(step.raw_content, "Model text as written") + calls
    results = "".join(
        f"<h4>Tool result: {esc(r.name)} — {'ok' if r.ok else 'error'} ({esc(r.kind)}, "
        f"{fmt(r.latency_s, '.3f')} s)</h4><pre>{esc(r.output)}</pre>{_attempts(r)}"
        for r in step.tool_results
    )
    what = ", ".join(c.name for c in step.tool_calls) or ("answer" if step.content else "—")
    summary = (
        f"step {step.index} · {esc(step.target)} · {esc(what)} · "
        f"{fmt(step.duration_s, '.2f')} s · {fmt(step.reasoning_tokens, 'd')} thinking "
        "tokens"
    )
    reasoning = ""
    if step.reasoning:
        reasoning = (
            f'<details class="reasoning"><summary>Reasoning ({fmt(step.reasoning_tokens, "d")}'
            f" tokens, {esc(step.reasoning_method)})</summary>{_pre(step.reasoning, '')}</details>"
        )
    return (
        f'<details class="step" id="{esc(ident)}"{" open" if open_ else ""}>'
        f"<summary>{summary}</summary>"
        f"{sent(step, previous)}{timing_bar(step, scale_s)}{kv(facts)}"
        f"{reasoning}{_pre(step.content, 'Answer text')}{calls}{results}</details>"
    )


def _attempts(result: ToolResultRecord) -> str:
    """The writes a call attempted (classified before it ran), carried out or not."""
    if not result.attempted_writes:
        return ""
    items = "".join(
        f"<li>{esc(w.program)} {esc(w.target)} ({esc(w.why)})</li>" for w in result.attempted_writes
    )
    return f'<p class="bad">Attempted writes:</p><ul>{items}</ul>'


def episode(e: EpisodeResult, open_: bool = False) -> str:
    """An episode: status, checks with why, final answer and every step (`open_`: the
    episode and its steps unfolded, as on the viewer's episode page)."""
    checks = (
        table(
            [("check", False), ("passed", False), ("detail", False)],
            (
                f"<tr><td>{esc(c.name)}</td><td>{_YES if c.passed else _NO}</td>"
                f"<td>{esc(c.detail)}</td></tr>"
                for c in e.checks
            ),
        )
        if e.checks
        else ""
    )
    facts = [
        ("status / score", f"{_status(e.status)} / {fmt(e.score, '.2f')}"),
        ("explanation", esc(e.explanation or "—")),
        (
            "time-to-done",
            f"{fmt(e.time_to_done_s, '.3f', ' s')} (model "
            f"{fmt(e.model_time_s, '.3f')} s, tools {fmt(e.tool_time_s, '.3f')} s, "
            f"router {fmt(e.router_time_s, '.3f')} s)",
        ),
        (
            "tokens",
            f"{fmt(e.output_tokens, 'd')} output, {fmt(e.reasoning_tokens, 'd')} thinking,"
            f" {fmt(e.thinking_tokens_per_step, '.1f')} thinking per step",
        ),
        ("tool mode / started", f"{esc(e.tool_mode)} / {esc(e.started_at)}"),
        ("cost", fmt(e.cost_usd, ".6f", " USD") if e.cost_usd is not None else "unpriced"),
    ]
    if e.spec_decode:
        facts.append(("speculative decoding", esc(e.spec_decode)))
    final = _pre(e.final_answer or "", "Final answer")
    scale = scale_of(e.steps)
    steps = "".join(
        render_step(s, e.steps[i - 1] if i else None, scale, step_id(e.task_id, e.repeat, i), open_)
        for i, s in enumerate(e.steps)
    )
    summary = (
        f"{esc(e.task_id)} · repeat {e.repeat} · {_status(e.status)} · score "
        f"{fmt(e.score, '.2f')} · {len(e.steps)} steps · {fmt(e.time_to_done_s, '.2f')} s"
    )
    return (
        f'<details class="episode" id="{anchor(e.task_id, e.repeat)}"{" open" if open_ else ""}>'
        f"<summary>{summary}"
        f"</summary>{kv(facts)}{checks}{final}{steps}</details>"
    )
