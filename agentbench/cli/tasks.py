"""`agentbench tasks validate|list`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from agentbench.tasks.loader import load_suite
from agentbench.tasks.validate import STRICT_DEFAULT, validate_suite

TasksDir = Annotated[Path, typer.Argument(help="Task directory.")]

app = typer.Typer(help="Inspect and validate task suites.", no_args_is_help=True)


@app.command("list")
def list_tasks(tasks_dir: TasksDir) -> None:
    """One task a line: id, category, difficulty, step kind, description."""
    for t in load_suite(tasks_dir).tasks:
        typer.echo(f"{t.id}\t{t.category}\t{t.difficulty}\t{t.step_kind}\t{t.description}")


@app.command("validate")
def validate(
    tasks_dir: TasksDir,
    strict: bool = typer.Option(
        STRICT_DEFAULT,
        "--strict/--lenient",
        help="Strict: also require >= 2 alternates and planted mistakes per task, a checked "
        "final answer, and no off-script call in the reference or alternates.",
    ),
) -> None:
    """Run the reference and alternates (must score 1.0) and planted mistakes (below 1.0)."""
    suite = load_suite(tasks_dir)
    problems = validate_suite(suite, strict)
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    wrong = sum(len(t.wrong) for t in suite.tasks)
    alternates = sum(len(t.alternates) for t in suite.tasks)
    if problems:
        typer.echo(f"{len(problems)} problem(s) in {len(suite.tasks)} tasks", err=True)
        raise typer.Exit(1)
    typer.echo(
        f"ok: {len(suite.tasks)} tasks; every reference and all {alternates} alternates score "
        f"1.0 and all {wrong} planted mistakes score below 1.0"
        + ("" if strict else " (lenient: alternates, answer checks and off-script not required)")
    )


@app.command("coverage")
def coverage(tasks_dir: TasksDir) -> None:
    """A Markdown table: tasks per category and difficulty, reference steps per task."""
    from agentbench.tasks.coverage import coverage_markdown

    typer.echo(coverage_markdown(load_suite(tasks_dir)))
