"""`agentbench report` and `agentbench runs`: read the store, render records."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from agentbench.cli import options as opt
from agentbench.runner import results_json
from agentbench.store import ResultStore
from agentbench.store.db import short_ids


class CsvLevel(StrEnum):
    run = "run"
    episode = "episode"
    step = "step"


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("runs")(runs)


def report(
    run_id: Annotated[
        str, typer.Argument(help="RUN_ID (or a unique prefix or short id) or latest.")
    ] = "latest",
    db: opt.DbOption = opt.DEFAULT_DB,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the results contract here.")
    ] = None,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", help="Write CSV here (see --csv-level).")
    ] = None,
    csv_level: Annotated[
        CsvLevel, typer.Option("--csv-level", help="CSV rows.")
    ] = CsvLevel.episode,
    html_out: Annotated[
        Path | None, typer.Option("--html", help="Write a self-contained HTML report.")
    ] = None,
    with_transcripts: Annotated[
        bool,
        typer.Option(
            "--transcripts", help="--json: also each step's request and raw stream parts."
        ),
    ] = False,
    jsonl_out: Annotated[
        Path | None,
        typer.Option("--jsonl", help="Write transcripts as JSONL, OpenAI messages format."),
    ] = None,
) -> None:
    """Summary of a stored run."""
    from agentbench.report.terminal import print_run

    outputs = (
        (json_out, "--json"),
        (csv_out, "--csv"),
        (html_out, "--html"),
        (jsonl_out, "--jsonl"),
    )
    opt.check_outputs(db, *outputs)
    opt.check_db_exists(db)
    with ResultStore(db) as store:
        run = store.run(store.resolve(run_id))
        full = bool(with_transcripts or jsonl_out or html_out)
        episodes = store.episodes(run.run_id, transcripts=full)
    print_run(run, episodes)
    if json_out:
        contract = results_json(run, episodes, transcripts=with_transcripts)
        opt.write_text(json_out, json.dumps(contract, indent=2), "--json")
        opt.written(json_out, "results JSON" + (" with transcripts" if with_transcripts else ""))
    if jsonl_out:
        from agentbench.report.transcripts import write_jsonl

        written = write_jsonl(jsonl_out, episodes)
        opt.written(jsonl_out, f"transcripts JSONL: {written} of {len(episodes)} episodes")
    if csv_out:
        from agentbench.report.export import write_csv

        with opt.writing(csv_out, "--csv"):
            write_csv(csv_out, run, episodes, level=csv_level.value)
        opt.written(csv_out, f"CSV, {csv_level.value} level")
    if html_out:
        from agentbench.report.html import write_html

        with opt.writing(html_out, "--html"):
            write_html(html_out, run, episodes)
        opt.written(html_out, "HTML report")


def runs(
    db: opt.DbOption = opt.DEFAULT_DB,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write every run (full ids) here.")
    ] = None,
) -> None:
    """Stored runs: short id, date, kind, status, model, router, success, note."""
    opt.check_outputs(db, (json_out, "--json"))
    opt.check_db_exists(db)
    with ResultStore(db) as store:
        records = store.runs()
    short = short_ids([r.run_id for r in records])
    table = Table(
        title=f"runs in {db}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        caption="id: short id, accepted by every command (`runs --json` has full ids); "
        "ok: success rate",
        caption_justify="left",
    )
    table.add_column("id", no_wrap=True)
    table.add_column("created", no_wrap=True)
    table.add_column("status", overflow="fold")
    table.add_column("model (router)", overflow="fold", ratio=1)
    table.add_column("ok", justify="right", no_wrap=True)
    table.add_column("note", overflow="fold", ratio=1)
    for r in records:
        rate = (r.summary or {}).get("success_rate")
        model = r.server.model if r.server else str(r.config.get("model", "?"))
        router = str(r.config.get("router", "always-local"))
        table.add_row(
            short[r.run_id],
            r.created_at[5:16].replace("T", " "),
            r.status + (" (bench)" if r.kind == "bench" else ""),
            model + ("" if router == "always-local" else f" ({router})"),
            f"{rate:.0%}" if isinstance(rate, float) else "n/a",
            (r.server.note if r.server and r.server.note else r.config.get("note")) or "",
        )
    Console().print(table)
    if json_out:
        data = [{"short_id": short[r.run_id], **r.model_dump()} for r in records]
        opt.write_text(json_out, json.dumps(data, indent=2), "--json")
        opt.written(json_out, "runs JSON")
