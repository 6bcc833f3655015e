"""Terminal rendering of bench results and comparisons (rich). Computes no figure of its own."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

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


def results_table(results: list[dict[str, Any]], title: str = "bench results") -> Table:
    """Medians per scenario; columns nobody measured (server decode, spec accept) are left out."""
    ok = [c for c in results if c.get("status") in ("ok", None)]

    def has(key: str) -> bool:
        return any((c.get("median") or {}).get(key) is not None for c in ok)

    optional = [
        (key, head, spec)
        for key, head, spec in (
            ("server_decode_tok_s", "server decode tok/s", ".2f"),
            ("aggregate_output_tok_s", "aggr. tok/s", ".1f"),
            ("spec_decode_acceptance", "spec accept", "%"),
        )
        if has(key)
    ]
    if not any(c["concurrency"] > 1 for c in ok):
        optional = [o for o in optional if o[0] != "aggregate_output_tok_s"]
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for column in (
        "scenario",
        "pp/tg",
        "depth",
        "conc",
        "runs",
        "TTFT s",
        "decode tok/s",
        "spread",
        "prefill tok/s",
        "out tok",
        *(o[1] for o in optional),
    ):
        table.add_column(column, justify="left" if column == "scenario" else "right",
                         no_wrap=column in ("scenario", "pp/tg", "spread"),
                         min_width=max(len(word) for word in column.split()))
    for cell in results:
        med, spr = cell.get("median") or {}, cell.get("spread") or {}
        head = [
            cell["scenario"],
            f"{cell['prompt_tokens']}/{cell['max_tokens']}",
            str(cell["depth"]),
            str(cell["concurrency"]),
            str(cell.get("n_runs", 0)),
        ]
        if cell.get("status") not in ("ok", None):
            status = STATUS_LABELS.get(cell["status"], cell["status"])
            table.add_row(*head, f"[yellow]{status}[/yellow]", *[""] * (4 + len(optional)))
            continue
        extra = [
            pct(med.get(k)) if spec == "%" else fmt(med.get(k), spec) for k, _, spec in optional
        ]
        table.add_row(
            *head,
            fmt(med.get("ttft_s"), ".3f"),
            fmt(med.get("decode_tok_s")),
            pct(spr.get("decode_tok_s")),
            fmt(med.get("prefill_tok_s"), ".0f"),
            fmt(med.get("output_tokens"), ".0f"),
            *extra,
        )
    return table


LEGEND = (
    "Figures: medians over the measured repetitions (runs = sample size; a warm-up run precedes "
    "each row and is not counted). TTFT = first token-bearing delta − send, client clock. decode "
    "= (output tokens − 1) / (last − first token) per stream. spread = (max − min) / median of "
    "decode over runs. prefill = uncached prompt tokens (server usage: context + template "
    "included) / TTFT, client view. out tok = output tokens (counting method below). "
    "aggregate = all output tokens / "
    "wall time of a repetition, at the row's concurrency (conc); per-stream figures are "
    "medians over streams. spec accept = Δaccepted / Δdrafted tokens (vLLM /metrics at "
    "concurrency 1 only, or llama.cpp per-request timings). n/a = not measured (never 0)."
)


def _as_list(value: Any) -> list[str]:
    """A run's counting method: one name, or one per stream at concurrency > 1."""
    if isinstance(value, list):
        return [str(v) for v in value if v]
    return [str(value)] if value else []


def print_results(data: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console()
    server = ServerInfo.model_validate(data["server"]) if data.get("server") else None
    console.print(
        f"[bold]bench {data.get('run_id', '')}[/bold] — {server_line(server, data.get('model'))}"
    )
    gate = data.get("gate") or {}
    if gate:
        console.print(gate.get("summary", ""))
    if gate and not gate.get("passed"):
        for check in gate.get("checks") or []:
            mark = "ok " if check["passed"] else "BAD"
            console.print(
                f"  {mark} {check['prompt']} expected {check['expected']!r}, got "
                f"{check['answer']!r}" + (f" ({check['error']})" if check.get("error") else "")
            )
        console.print(
            "[red]The model failed the coherence gate: no throughput figures are reported.[/red]"
        )
        return
    console.print(results_table(data["results"]))
    methods = sorted({m for c in data["results"] for r in c.get("runs") or []
                      for m in _as_list(r.get("tokens_method"))})
    if methods:
        console.print(f"output tokens counted by: {', '.join(methods)} (usage = the server's own "
                      "count; server_tokenizer = its /tokenize; estimated = tiktoken)")
    shown: set[str] = set()
    for cell in data["results"]:
        if cell.get("message") and cell["message"] not in shown:
            shown.add(cell["message"])
            console.print(f"[yellow]{cell['message']}[/yellow]")
        failed = sum(len(r.get("errors") or []) for r in cell.get("runs") or [])
        if failed:
            sent = sum(r.get("requests", 1) for r in cell["runs"])
            first = next(e for r in cell["runs"] for e in r.get("errors") or [])
            console.print(
                f"[yellow]{cell['scenario']} (depth {cell['depth']}, concurrency "
                f"{cell['concurrency']}): {failed} of {sent} requests failed and are not in "
                f"the figures; first: {first[:160]}[/yellow]"
            )
        short = [
            r
            for r in cell.get("runs") or []
            if r.get("output_tokens") is not None and r["output_tokens"] < cell["max_tokens"]
        ]
        if short:
            console.print(
                f"[yellow]{cell['scenario']} (depth {cell['depth']}, concurrency "
                f"{cell['concurrency']}): {len(short)} of {len(cell['runs'])} runs "
                f"produced fewer than {cell['max_tokens']} output tokens (the server "
                "did not force the length); decode rates stand, lengths differ."
                "[/yellow]"
            )
    for note in data.get("notes") or []:
        console.print(f"[dim]{note}[/dim]")
    console.print(f"[dim]{LEGEND}[/dim]")


def compare_table(rows: list[dict[str, Any]], a_name: str, b_name: str) -> Table:
    table = Table(title=f"B / A — A: {a_name}, B: {b_name}", title_justify="left")
    for column in (
        "scenario",
        "depth",
        "conc",
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
        if row.get("metric") is None:
            table.add_row(
                str(row["scenario"]),
                str(row["depth"]),
                str(row["concurrency"]),
                "",
                "",
                "",
                "",
                "",
                "",
                row["verdict"],
            )
            continue
        ci = (
            f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
            if row.get("ci_low") is not None
            else "n/a"
        )
        table.add_row(
            str(row["scenario"]),
            str(row["depth"]),
            str(row["concurrency"]),
            f"{row['metric']} ({row['better']} better)",
            fmt(row["a_median"], ".3f"),
            fmt(row["b_median"], ".3f"),
            fmt(row["ratio"], ".3f"),
            ci,
            f"{row['n_a']}/{row['n_b']}",
            row["verdict"],
        )
    return table
