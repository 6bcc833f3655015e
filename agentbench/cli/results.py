"""`agentbench report` and `agentbench runs`: read the store, render records."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from agentbench.runner import results_json
from agentbench.store import ResultStore


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("runs")(runs)


def report(
    run_id: str = typer.Argument("latest", help="RUN_ID (or a unique prefix) or latest."),
    db: Path = typer.Option(Path("agentbench.db"), "--db"),
    json_out: Path = typer.Option(None, "--json", help="Write the results contract here."),
    csv_out: Path = typer.Option(None, "--csv", help="Write CSV here (see --csv-level)."),
    csv_level: str = typer.Option("episode", "--csv-level", help="CSV rows: run | episode | step."),
    html_out: Path = typer.Option(None, "--html", help="Write a self-contained HTML report."),
    with_transcripts: bool = typer.Option(
        False, "--transcripts", help="--json: also each step's request and raw stream parts."
    ),
    jsonl_out: Path = typer.Option(
        None, "--jsonl", help="Write transcripts as JSONL, OpenAI messages format."
    ),
) -> None:
    """Summary of a stored run."""
    from agentbench.report.export import LEVELS
    from agentbench.report.terminal import print_run

    if csv_level not in LEVELS:
        raise typer.BadParameter(f"use one of {', '.join(LEVELS)}", param_hint="--csv-level")

    with ResultStore(db) as store:
        run = store.run(store.resolve(run_id))
        full = bool(with_transcripts or jsonl_out or html_out)
        episodes = store.episodes(run.run_id, transcripts=full)
    print_run(run, episodes)
    if json_out:
        contract = results_json(run, episodes, transcripts=with_transcripts)
        json_out.write_text(json.dumps(contract, indent=2))
        typer.echo(f"json: {json_out}" + (" (with transcripts)" if with_transcripts else ""))
    if jsonl_out:
        from agentbench.report.transcripts import write_jsonl

        written = write_jsonl(jsonl_out, episodes)
        typer.echo(f"jsonl: {jsonl_out} ({written} of {len(episodes)} episodes had a transcript)")
    if csv_out:
        from agentbench.report.export import write_csv

        write_csv(csv_out, run, episodes, level=csv_level)
        typer.echo(f"csv ({csv_level} level): {csv_out}")
    if html_out:
        from agentbench.report.html import write_html

        write_html(html_out, run, episodes)
        typer.echo(f"html: {html_out}")


def runs(db: Path = typer.Option(Path("agentbench.db"), "--db")) -> None:
    """Stored runs: id, date, kind, model, server, router, tasks, success."""
    with ResultStore(db) as store:
        records = store.runs()
    table = Table(title=f"runs in {db}", title_justify="left")
    for column in (
        "run id",
        "created (UTC)",
        "kind",
        "status",
        "model",
        "server",
        "router",
        "tasks",
        "success",
    ):
        table.add_column(column)
    for r in records:
        summary = r.summary or {}
        rate = summary.get("success_rate")
        table.add_row(
            r.run_id,
            r.created_at,
            r.kind,
            r.status,
            r.server.model if r.server else "?",
            r.server.kind if r.server else "?",
            str(r.config.get("router", "")),
            str(summary.get("tasks", "")),
            f"{rate:.0%}" if isinstance(rate, float) else "n/a",
        )
    Console().print(table)
