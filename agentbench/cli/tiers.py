"""`--suite`, `--task-seed` and `--variants`: which tier of tasks a command is over.

`agentbench run`, `serve` and `tasks validate|list|coverage` take the same three; `run` stores
them in its run config, and `run --resume` regenerates the same tasks from the stored values.
On `run` and `serve`, `--seed` is already the sampling / noise seed, so the family seed is
`--task-seed` everywhere (the `tasks` commands also accept `--seed` for it).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from agentbench.errors import ConfigError
from agentbench.tasks.families import DEFAULT_SEED, MAX_VARIANTS, load_tier
from agentbench.tasks.loader import TaskSuite

MAX_SEED = 2**63 - 1


class Suite(StrEnum):
    default = "default"
    full = "full"


SuiteOption = Annotated[
    Suite,
    typer.Option(
        "--suite",
        help="default: the hand-written tasks; full: those plus every family's variants "
        "(tasks/families/).",
    ),
]
TaskSeedOption = Annotated[
    int,
    typer.Option(
        "--task-seed", min=0, max=MAX_SEED, help="Seed the family variants are drawn from."
    ),
]
TasksSeedOption = Annotated[  # the `tasks` commands, which have no sampling seed
    int,
    typer.Option(
        "--task-seed",
        "--seed",
        min=0,
        max=MAX_SEED,
        help="Seed the family variants are drawn from (--suite full).",
    ),
]
VariantsOption = Annotated[
    int | None,
    typer.Option(
        "--variants", min=1, max=MAX_VARIANTS, help="At most N variants per family (--suite full)."
    ),
]


def given(ctx: typer.Context, name: str) -> bool:
    """Whether the user set the option (command line or environment), not its default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")


def open_tier(
    tasks_dir: Path,
    suite: Suite | str,
    task_seed: int = DEFAULT_SEED,
    variants: int | None = None,
    seed_given: bool = False,
) -> TaskSuite:
    """The tier's tasks; a family flag without `--suite full` is refused (it would do nothing)."""
    tier = Suite(suite)
    if tier is Suite.default and (variants is not None or seed_given):
        flag = "--variants" if variants is not None else "--task-seed"
        raise ConfigError(
            f"{flag} draws family variants, which only the full tier has; add --suite full"
        )
    return load_tier(tasks_dir, tier.value, task_seed, variants)
