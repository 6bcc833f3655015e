"""Tiers: which tasks a run, a validation or a listing is over.

    default   the hand-written tasks under TASKS_DIR/<category>/ (what `run tasks/` always ran)
    full      those plus every variant of every family under TASKS_DIR/families/<category>/

The full tier is a function of the task files, the seed and the per-family cap only, so a run
that stores those three (RunConfig.suite, task_seed, variants) is regenerated exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from agentbench.errors import TaskFileError
from agentbench.tasks.families.generate import Family, parse_family
from agentbench.tasks.loader import (
    FAMILIES_DIR,
    TaskSuite,
    check_cluster,
    check_tools,
    load_suite,
    read_yaml,
)

Tier = Literal["default", "full"]
TIERS: tuple[Tier, ...] = ("default", "full")
DEFAULT_SEED = 1
MAX_FAMILIES = 500  # family files under one task directory
MAX_TIER_VALUES = 2_000_000  # values of all families' variants together (~14x the tier today)


def load_families(root: Path) -> list[Family]:
    """Every family file under TASKS_DIR/families/<category>/, parsed (not yet drawn)."""
    base = root / FAMILIES_DIR
    if not base.is_dir():
        return []
    files = sorted(p for p in base.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    if len(files) > MAX_FAMILIES:
        raise TaskFileError(str(base), "-", f"over {MAX_FAMILIES} family files")
    families: list[Family] = []
    seen: dict[str, Path] = {}
    inside = root.resolve()  # a family is generated input: no link reads a host file
    for path in files:
        rel = path.relative_to(base)
        if len(rel.parts) != 2:
            raise TaskFileError(
                str(path), "-", f"a family file lives at {base}/<category>/<family>.yaml"
            )
        if not path.resolve().is_relative_to(inside):
            raise TaskFileError(
                str(path), "-", "links to a file outside the task directory; copy the file in"
            )
        data, _ = read_yaml(path)
        family = parse_family(data, path, rel.parts[0])
        if family.family in seen:
            raise TaskFileError(
                str(path),
                "family",
                f"'{family.family}' is also the family of {seen[family.family]}",
            )
        seen[family.family] = path
        families.append(family)
    return families


def load_tier(
    root: str | Path,
    suite: Tier = "default",
    seed: int = DEFAULT_SEED,
    variants: int | None = None,
) -> TaskSuite:
    """The tier's tasks: the hand-written ones, then (full tier) each family's variants, drawn
    with `seed` and at most `variants` per family."""
    if suite not in TIERS:
        raise TaskFileError(str(root), "-", f"unknown suite {suite!r}; one of {', '.join(TIERS)}")
    hand = load_suite(root)
    if suite == "default":
        return hand
    tasks, paths, generated = list(hand.tasks), dict(hand.paths), set()
    room = MAX_TIER_VALUES
    for family in load_families(hand.root):
        drawn, size = family.generate_sized(seed, variants, room, MAX_TIER_VALUES)
        room -= size
        for task in drawn:
            check_tools(task, hand.tools, hand.root, family.path)
            check_cluster(task, family.path)
            if task.id in paths:
                raise TaskFileError(
                    str(family.path), "family", f"variant id {task.id} is also {paths[task.id]}"
                )
            paths[task.id] = family.path
            generated.add(task.id)
            tasks.append(task)
    return TaskSuite(
        hand.root, tasks, hand.tools, hand.grammar, hand.system_prompt, paths, generated
    )
