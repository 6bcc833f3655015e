"""`agentbench tasks validate|list|coverage`, over the default or the full tier."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from agentbench.cli.tiers import (
    Suite,
    SuiteOption,
    TasksSeedOption,
    VariantsOption,
    given,
    open_tier,
)
from agentbench.tasks.families import DEFAULT_SEED
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.validate import STRICT_DEFAULT, validate_suite

TasksDir = Annotated[Path, typer.Argument(help="Task directory.")]

app = typer.Typer(help="Inspect and validate task suites.", no_args_is_help=True)


def _tier(
    ctx: typer.Context, tasks_dir: Path, suite: Suite, seed: int, variants: int | None
) -> TaskSuite:
    return open_tier(tasks_dir, suite, seed, variants, seed_given=given(ctx, "seed"))


@app.command("list")
def list_tasks(
    ctx: typer.Context,
    tasks_dir: TasksDir,
    suite: SuiteOption = Suite.default,
    seed: TasksSeedOption = DEFAULT_SEED,
    variants: VariantsOption = None,
) -> None:
    """One task a line: id, category, difficulty, step kind, description."""
    for t in _tier(ctx, tasks_dir, suite, seed, variants).tasks:
        typer.echo(f"{t.id}\t{t.category}\t{t.difficulty}\t{t.step_kind}\t{t.description}")


@app.command("validate")
def validate(
    ctx: typer.Context,
    tasks_dir: TasksDir,
    strict: bool = typer.Option(
        STRICT_DEFAULT,
        "--strict/--lenient",
        help="Strict: also require >= 2 alternates and planted mistakes per task, a checked "
        "final answer, and no off-script call in the reference or alternates.",
    ),
    suite: SuiteOption = Suite.default,
    seed: TasksSeedOption = DEFAULT_SEED,
    variants: VariantsOption = None,
) -> None:
    """Run the reference and alternates (must score 1.0) and planted mistakes (below 1.0)."""
    started = time.perf_counter()
    tier = _tier(ctx, tasks_dir, suite, seed, variants)
    problems = validate_suite(tier, strict)
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    wrong = sum(len(t.wrong) for t in tier.tasks)
    alternates = sum(len(t.alternates) for t in tier.tasks)
    if problems:
        typer.echo(f"{len(problems)} problem(s) in {len(tier.tasks)} tasks", err=True)
        raise typer.Exit(1)
    generated = f" ({len(tier.generated)} generated, seed {seed})" if suite is Suite.full else ""
    typer.echo(
        f"ok: {len(tier.tasks)} tasks{generated}; every reference and all {alternates} "
        f"alternates score 1.0 and all {wrong} planted mistakes score below 1.0"
        + ("" if strict else " (lenient: alternates, answer checks and off-script not required)")
        + f" [{time.perf_counter() - started:.1f} s]"
    )


@app.command("coverage")
def coverage(
    ctx: typer.Context,
    tasks_dir: TasksDir,
    suite: SuiteOption = Suite.default,
    seed: TasksSeedOption = DEFAULT_SEED,
    variants: VariantsOption = None,
) -> None:
    """A Markdown table: tasks per category and difficulty, reference steps per task."""
    from agentbench.tasks.coverage import coverage_markdown

    typer.echo(coverage_markdown(_tier(ctx, tasks_dir, suite, seed, variants)))
