"""Terminal rendering of run results (rich). Renders records; computes no metric of its own."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from agentbench.metrics.summary import RunSummary, by_category, summarize
from agentbench.records import EpisodeResult, RunRecord


def fmt(value: float | None, spec: str = ".2f", unit: str = "") -> str:
    if value is None:
        return "n/a"
    return f"{value:{spec}}{unit}"


def fmt_ci(ci: list[float] | None, spec: str = ".0%") -> str:
    return f"[{ci[0]:{spec}}, {ci[1]:{spec}}]" if ci else ""


def category_table(title: str, rows: dict[str, RunSummary], total: RunSummary) -> Table:
    table = Table(title=title, title_justify="left", caption="medians; CI = 95% bootstrap",
                  caption_justify="left")
    table.add_column("category", no_wrap=True)
    for column in ("tasks", "eps", "success [CI]", "score", "think tok/step", "done s",
                   "decode tok/s"):
        table.add_column(column, justify="right", no_wrap=column != "success [CI]")
    for name, s in [*rows.items(), ("all", total)]:
        table.add_row(
            f"[bold]{name}[/bold]" if name == "all" else name,
            str(s.tasks), str(s.episodes),
            f"{fmt(s.success_rate, '.0%')} {fmt_ci(s.success_rate_ci)}",
            fmt(s.mean_score, ".2f"),
            fmt(s.thinking_tokens_per_step, ".1f"),
            fmt(s.time_to_done_s_median, ".2f"),
            fmt(s.decode_tok_s_median, ".1f"),
        )
    return table


def print_run(run: RunRecord, episodes: list[EpisodeResult], console: Console | None = None
              ) -> None:
    console = console or Console()
    total = summarize(episodes)
    server = run.server
    if server:
        console.print(
            f"[bold]run {run.run_id}[/bold] ({run.status}) — {server.kind} "
            f"{server.version or ''} at {server.base_url}, model {server.model}"
            + (f", context {server.max_context}" if server.max_context else "")
        )
    console.print(category_table("Results by category", by_category(episodes), total))
    methods = ", ".join(f"{m}: {n} steps" for m, n in total.tokens_method.items())
    console.print(
        f"statuses: {total.statuses}; steps: {total.steps}; "
        f"pass^k: {', '.join(f'k={k} {v:.2f}' for k, v in total.pass_k.items()) or 'n/a'}"
    )
    console.print(
        f"Figures: success = share of scored episodes with every check passed (95% bootstrap CI, "
        f"n={total.scored_episodes}); time-to-done = first request to last stream end, tools "
        f"included; decode tok/s = (output tokens - 1) / (last - first token), client clock, "
        f"over {total.decode_steps} steps; token counts by method — {methods or 'none'}."
    )
    if total.tokens_method.get("estimated"):
        console.print("[yellow]Some token counts are tiktoken estimates, not the server's "
                      "tokenizer.[/yellow]")
