"""`agentbench compare RUN_A RUN_B ...`: runs side by side on the same tasks, paired by task."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from agentbench.cli import options as opt
from agentbench.errors import ConfigError
from agentbench.store import ResultStore


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)


def compare(
    run_ids: Annotated[
        list[str],
        typer.Argument(
            help="Two or more RUN_IDs (or unique prefixes, or latest); the first is the baseline A."
        ),
    ],
    db: opt.DbOption = opt.DEFAULT_DB,
    html_out: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained HTML page here.")
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the comparison as JSON here.")
    ] = None,
    effect: Annotated[
        str | None,
        typer.Option(
            "--effect",
            help="Plan for a success-rate difference of this size (e.g. 5pp): how many tasks "
            "and repeats resolve it, from these runs' own discordance.",
        ),
    ] = None,
) -> None:
    """Accuracy, tokens, time-to-done, decode speed and cost of runs on their common tasks, with
    paired bootstrap CIs and a verdict on every difference."""
    from agentbench.metrics.compare import compare_runs
    from agentbench.metrics.power import parse_effect
    from agentbench.report.compare_terminal import print_comparison
    from agentbench.report.compare_view import write_compare_html

    target = None
    if effect is not None:
        try:
            target = parse_effect(effect)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--effect") from None
    if len(run_ids) < 2:
        raise typer.BadParameter("give at least two runs", param_hint="RUN_IDS")
    opt.check_outputs(db, (html_out, "--html"), (json_out, "--json"))
    opt.check_db_exists(db)
    with ResultStore(db) as store:
        ids = [store.resolve(r) for r in run_ids]
        if len(set(ids)) < len(ids):
            raise ConfigError("the same run is named twice; compare different runs")
        runs = [(store.run(i), store.episodes(i)) for i in ids]
    for run, episodes in runs:
        if not episodes:
            raise ConfigError(f"run {run.run_id} has no finished episode to compare")
    comparison = compare_runs(runs, effect=target)
    print_comparison(comparison)
    if json_out:
        opt.write_text(json_out, comparison.model_dump_json(indent=2), "--json")
        opt.written(json_out, "comparison JSON")
    if html_out:
        with opt.writing(html_out, "--html"):
            write_compare_html(html_out, comparison)
        opt.written(html_out, "comparison HTML")
