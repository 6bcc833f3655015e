"""Terminal rendering of run results (rich). Renders records; computes no metric of its own."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from agentbench.figures import fmt
from agentbench.metrics.summary import RunSummary, by_category, summarize
from agentbench.records import EpisodeResult, RunRecord


def category_table(title: str, rows: dict[str, RunSummary], total: RunSummary) -> Table:
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        caption="eps: episodes (tasks x repeats); success: share of episodes with every check "
        "passed [95% Wilson interval, clustered by task with repeats; * n < 10 episodes: "
        "indicative only]; think: reasoning tokens per step; done: time-to-done median "
        "(s); decode c/s: median tok/s, client clock / the server's own figure (- where it "
        "reports none); off: share of tool calls no simulator or rule answered",
        caption_justify="left",
    )
    table.add_column("category", no_wrap=True)
    for column in ("eps", "success", "score", "think", "done", "decode c/s", "off"):
        # success may wrap its interval onto a second line; every other cell stays whole
        table.add_column(
            column,
            justify="right",
            no_wrap=column != "success",
            overflow="fold" if column == "success" else "ellipsis",
            min_width=max(len(column), {"off": 4, "success": 8}.get(column, 0)),
        )
    for name, s in [*rows.items(), ("all", total)]:
        ci = s.success_rate_ci
        interval = f" [{ci[0] * 100:.0f}–{ci[1] * 100:.0f}]" if ci else ""
        interval += "*" if s.interval_note else ""
        server = s.server_decode_tok_s_median
        table.add_row(
            f"[bold]{name}[/bold]" if name == "all" else name,
            str(s.episodes),
            f"{fmt(s.success_rate, '.0%')}{interval}",
            fmt(s.mean_score, ".2f"),
            fmt(s.thinking_tokens_per_step, ".1f"),
            fmt(s.time_to_done_s_median, ".2f"),
            f"{fmt(s.decode_tok_s_median, '.1f')}/{fmt(server, '.1f') if server else '-'}",
            fmt(s.off_script_share, ".0%"),
        )
    return table


def print_run(
    run: RunRecord, episodes: list[EpisodeResult], console: Console | None = None
) -> None:
    console = console or Console()
    total = summarize(episodes)
    server = run.server
    if server:
        console.print(
            f"[bold]run {run.run_id}[/bold] ({run.status}) — {server.kind}"
            + (f" {server.version}" if server.version else "")
            + f" at {server.base_url}, model {server.model}"
            + (f", context {server.max_context}" if server.max_context else "")
        )
    console.print(category_table("Results by category", by_category(episodes), total))
    methods = ", ".join(f"{m}: {n} steps" for m, n in total.tokens_method.items())
    console.print(
        f"statuses: {total.statuses}; steps: {total.steps}; "
        f"pass^k: {', '.join(f'k={k} {v:.2f}' for k, v in total.pass_k.items()) or 'n/a'}"
    )
    console.print(
        f"Figures: success = share of scored episodes with every check passed (95% Wilson "
        f"interval, n={total.scored_episodes}); time-to-done = first request to last stream "
        f"end, tools included; decode tok/s = (output tokens - 1) / (last - first token), "
        f"client clock, over {total.decode_steps} steps; token counts by method — "
        f"{methods or 'none'}."
    )
    if total.tool_call_methods:
        console.print(
            "Tool calls read: "
            + ", ".join(
                f"{m.replace('_', '-')} {n} steps" for m, n in total.tool_call_methods.items()
            )
            + (
                " (text-parsed: the server left the call as text; --no-text-tool-calls turns "
                "this off)"
                if total.tool_call_methods.get("text_parsed")
                else ""
            )
        )
    if total.tokens_method.get("estimated"):
        console.print(
            "[yellow]Some token counts are tiktoken estimates, not the server's tokenizer.[/yellow]"
        )
    if total.off_script_by_task:
        worst = sorted(total.off_script_by_task.items(), key=lambda kv: -kv[1])
        console.print(
            f"[yellow]Off-script: {total.off_script_calls} of {total.tool_calls} tool calls got "
            "the tool's fallback text (no simulator or rule covers them), so the environment, "
            "not the model, may have limited these tasks: "
            + ", ".join(f"{t} {share:.0%}" for t, share in worst)
            + "[/yellow]"
        )
    if total.simulator_errors:
        kinds = total.simulator_errors_by_kind
        console.print(
            f"[yellow]Simulator: {total.simulator_errors} tool calls it could not answer "
            "(off-script): "
            + "; ".join(f"{kind} ×{n}" for kind, n in list(kinds.items())[:8])
            + (f"; {len(kinds) - 8} more kinds" if len(kinds) > 8 else "")
            + "[/yellow]"
        )
    serving_notes(run, episodes, total, console)


def serving_notes(
    run: RunRecord, episodes: list[EpisodeResult], total: RunSummary, console: Console
) -> None:
    """Server-side facts: speculative-decoding acceptance, truncation, how tokens were counted."""
    spec = (run.summary or {}).get("spec_decode")
    if spec:
        whole = spec.get("run") or {}
        cats = spec.get("by_category") or {}
        if cats:
            console.print(
                "Speculative decoding acceptance by category: "
                + "; ".join(
                    f"{c} {f['acceptance_rate']:.0%} ({f['accepted_tokens']}/{f['draft_tokens']} "
                    f"drafted tokens, {f['episodes']} episodes)"
                    for c, f in cats.items()
                )
            )
        if whole.get("acceptance_rate") is not None:
            console.print(
                f"Speculative decoding, whole run: {whole['acceptance_rate']:.0%} of "
                f"{whole['draft_tokens']} drafted tokens accepted — "
                f"{whole.get('description', '')}."
            )
    if total.truncated_steps:
        reason = next(
            (
                s.truncation_reason
                for e in episodes
                for s in e.steps
                if s.truncated and s.truncation_reason
            ),
            None,
        )
        console.print(
            f"[yellow]{total.truncated_steps} steps were truncated (counted apart from "
            f"wrong answers){': ' + reason if reason else ''}.[/yellow]"
        )
    if total.tokens_method.get("server_tokenizer"):
        kind = run.server.kind if run.server else "the server"
        console.print(
            f"{kind} sent no token usage in its stream; output tokens of "
            f"{total.tokens_method['server_tokenizer']} steps were counted with the "
            "server's own tokenizer endpoint (/tokenize or /extras/tokenize)."
        )
