"""Terminal rendering of bench results and comparisons (rich). Computes no figure of its own."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from agentbench.bench.compare import CompareRow
from agentbench.bench.records import BenchResult, BenchRow, Percentiles
from agentbench.records import ServerInfo


def fmt(value: Any, spec: str = ".1f") -> str:
    if value is None:
        return "n/a"
    return f"{value:{spec}}"


def pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def server_line(server: ServerInfo | None, model: str | None) -> str:
    if server is None:
        return f"model {model}"
    parts = [
        f"{server.kind} {server.version or ''}".strip(),
        f"at {server.base_url}",
        f"model {server.model}",
    ]
    if server.max_context:
        parts.append(f"context {server.max_context}")
    if server.spec_decode_seen is not None:
        parts.append("spec-decode metrics " + ("present" if server.spec_decode_seen else "absent"))
    return ", ".join(parts)


STATUS_LABELS = {"context_too_small": "no fit", "no_runs": "no runs"}


def load_cell(row: BenchRow) -> str:
    if row.request_rate_req_s is not None:
        return f"{row.request_rate_req_s:g}/s"
    return str(row.concurrency)


def _table(title: str, columns: list[str], rows: list[list[str]]) -> Table:
    """A compact table whose number columns are never cut: each is as wide as its widest cell
    (headers wrap by word), one space apart, so a sweep fits an 80-column terminal; the
    scenario name folds instead."""
    table = Table(
        title=title,
        title_justify="left",
        box=None,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        header_style="bold",
    )
    for i, column in enumerate(columns):
        words = [len(w) for w in column.split()]
        if column == "scenario":
            table.add_column(column, min_width=10, overflow="fold")
            continue
        widest = max(words + [len(r[i]) for r in rows if i < len(r)])
        table.add_column(
            column,
            justify="left" if column == "figure" else "right",
            min_width=widest,
            max_width=widest,
        )
    for r in rows:
        table.add_row(*r)
    return table


def spread_pct(value: float | None) -> str:
    """A run-to-run spread: one decimal below 10 %, none above (it only has to be read)."""
    if value is None:
        return "n/a"
    return f"{value * 100:.1f}%" if value < 0.1 else f"{value * 100:.0f}%"


def results_table(rows: list[BenchRow], title: str = "bench results") -> Table:
    """Medians over repetitions per row; columns nobody measured are left out."""
    ok = [r for r in rows if r.status == "ok"]
    optional = [
        (key, head, spec)
        for key, head, spec in (
            ("aggregate_output_tok_s", "aggregate tok/s", ".1f"),
            ("server_decode_tok_s", "server tok/s", ".2f"),
            ("spec_decode_acceptance", "spec accept", "%"),
        )
        if any(getattr(r.median, key) is not None for r in ok)
    ]
    if not any(r.requests_per_run > 1 for r in ok):
        optional = [o for o in optional if o[0] != "aggregate_output_tok_s"]
    heads = [
        "scenario",
        "depth",
        "load",
        "runs",
        "TTFT s",
        "decode tok/s stream",
        "spread",
        "prefill tok/s",
        "out tok",
    ]
    cells: list[list[str]] = []
    for row in rows:
        med = row.median
        head = [row.scenario, str(row.depth), load_cell(row), str(row.n_runs)]
        if row.status != "ok":
            cells.append([*head, STATUS_LABELS.get(row.status, row.status)])
            continue
        extra = [
            pct(getattr(med, k)) if spec == "%" else fmt(getattr(med, k), spec)
            for k, _, spec in optional
        ]
        cells.append(
            [
                *head,
                fmt(med.ttft_s, ".3f"),
                fmt(med.decode_tok_s),
                spread_pct(row.spread.decode_tok_s),
                fmt(med.prefill_tok_s, ".0f"),
                fmt(med.output_tokens, ".0f"),
                *extra,
            ]
        )
    return _table(title, [*heads, *(o[1] for o in optional)], cells)


PERCENTILE_FIGURES = (
    ("TTFT s", "ttft_s", 1.0, ".3f"),
    ("connect ms", "connect_s", 1000.0, ".2f"),
    ("TPOT ms", "tpot_s", 1000.0, ".1f"),
    ("ITL ms/token", "itl_s", 1000.0, ".1f"),
    ("E2E s", "e2e_latency_s", 1.0, ".2f"),
    ("decode tok/s", "decode_tok_s", 1.0, ".1f"),
)


def percentiles_table(rows: list[BenchRow]) -> Table:
    """p50 / p90 / p99 over requests (ITL: over tokens) per row, and goodput when SLOs given."""
    cells: list[list[str]] = []
    for row in rows:
        if row.status != "ok":
            continue
        head = [row.scenario, str(row.depth), load_cell(row)]
        for label, key, scale, spec in PERCENTILE_FIGURES:
            p: Percentiles = getattr(row.requests, key)
            values = [fmt(None if v is None else v * scale, spec) for v in (p.p50, p.p90, p.p99)]
            cells.append([*head, label, str(p.n), *values])
            head = ["", "", ""]
        if row.goodput:
            g = row.goodput
            cells.append(
                [
                    *head,
                    "goodput req/s",
                    f"{g.requests_within_slo}/{g.requests}",
                    fmt(g.goodput_req_s, ".2f"),
                    "",
                    "",
                ]
            )
    columns = ["scenario", "depth", "load", "figure", "n", "p50", "p90", "p99"]
    return _table("per request: p50 / p90 / p99 (ITL: per token)", columns, cells)


LEGEND = (
    "Figures: medians over the measured repetitions (runs = sample size; a warm-up run precedes "
    "each row and is not counted). TTFT = first token-bearing delta − send, client clock. decode "
    "= (output tokens − 1) / (last − first token), single stream (median over streams). spread "
    "= (max − min) / median of decode over runs. TPOT = (stream end − first token) / (output "
    "tokens − 1). ITL = gap per token (a chunk of k tokens shares its gap k ways). prefill = "
    "uncached prompt tokens / TTFT, client view. aggregate = all output tokens of a repetition "
    "/ its wall time, summed over its streams at the row's concurrency or rate. spec accept = "
    "Δaccepted / Δdrafted tokens. n/a = not measured (never 0); a burst has no decode figure."
)


def print_results(result: BenchResult, console: Console | None = None) -> None:
    console = console or Console()
    setup = server_line(result.server, result.model)
    console.print(f"[bold]bench {result.run_id}[/bold] — {setup}")
    gate = result.gate
    if gate:
        console.print(gate.summary)
    if gate and not gate.passed:
        for check in gate.checks:
            mark = "ok " if check.passed else "BAD"
            console.print(
                f"  {mark} {check.prompt} expected {check.expected!r}, got "
                f"{check.answer!r}" + (f" ({check.error})" if check.error else "")
            )
        console.print(
            "[red]The model failed the coherence gate: no throughput figures are reported.[/red]"
        )
        return
    console.print(results_table(result.results))
    console.print()
    console.print(percentiles_table(result.results))
    console.print()
    methods = sorted({m for row in result.results for r in row.runs for m in r.tokens_method})
    if methods:
        console.print(
            f"output tokens counted by: {', '.join(methods)} (usage = the server's own "
            "count; server_tokenizer = its /tokenize; estimated = tiktoken)"
        )
    for line in row_warnings(result.results):
        console.print(f"[yellow]{line}[/yellow]")
    for note in result.notes:
        console.print(f"[dim]{note}[/dim]")
    console.print(f"[dim]{LEGEND}[/dim]")


def row_warnings(rows: list[BenchRow]) -> list[str]:
    """Messages, failed requests, bursts without a decode figure and unforced lengths."""
    out: list[str] = []
    for row in rows:
        where = f"{row.scenario} (depth {row.depth}, {row.load_label})"
        if row.message and row.message not in out:
            out.append(row.message)
        errors = [e for r in row.runs for e in r.errors]
        if errors:
            sent = sum(r.requests for r in row.runs)
            out.append(
                f"{where}: {len(errors)} of {sent} requests failed and are not in the "
                f"figures; first: {errors[0][:160]}"
            )
        reasons = sorted({x for r in row.runs for x in r.decode_unmeasured_reasons})
        if reasons:
            out.append(f"{where}: no decode figure for some requests: {reasons[0]}")
        short = [
            r for r in row.runs if r.output_tokens is not None and r.output_tokens < row.max_tokens
        ]
        if short:
            out.append(
                f"{where}: {len(short)} of {len(row.runs)} runs produced fewer than "
                f"{row.max_tokens} output tokens (the server did not force the length); "
                "decode rates stand, lengths differ."
            )
        slow = [r.arrival_error_max_s for r in row.runs if r.arrival_error_max_s is not None]
        if slow and max(slow) > 0.01:
            out.append(
                f"{where}: a request was sent up to {max(slow) * 1000:.0f} ms after its "
                "scheduled arrival (client busy)"
            )
    return out


def compare_table(rows: list[CompareRow], a_name: str, b_name: str) -> Table:
    table = Table(title=f"B / A — A: {a_name}, B: {b_name}", title_justify="left")
    for column in (
        "scenario",
        "depth",
        "conc / rate",
        "metric",
        "A median",
        "B median",
        "B/A",
        "95% CI",
        "runs A/B",
        "verdict",
    ):
        table.add_column(
            column, justify="left" if column in ("scenario", "metric", "verdict") else "right"
        )
    for row in rows:
        load = f"{row.request_rate_req_s:g}/s" if row.request_rate_req_s else str(row.concurrency)
        head = [row.scenario, str(row.depth), load]
        if row.metric is None:
            table.add_row(*head, "", "", "", "", "", "", row.verdict)
            continue
        ci = f"[{row.ci_low:.3f}, {row.ci_high:.3f}]" if row.ci_low is not None else "n/a"
        table.add_row(
            *head,
            f"{row.metric} ({row.better} better)",
            fmt(row.a_median, ".3f"),
            fmt(row.b_median, ".3f"),
            fmt(row.ratio, ".3f"),
            ci,
            f"{row.n_a}/{row.n_b}",
            row.verdict,
        )
    return table
