"""How small a difference a paired comparison can see, and how many tasks a given one needs.

For two runs paired by task, the difference of success rates is the mean over tasks of
d_i = rate_B,i - rate_A,i. Its standard error is sd(d) / sqrt(tasks). The minimum detectable
effect (MDE) at a two-sided 95% level with 80% power is (z_0.975 + z_0.80) x that standard
error: a true difference that size would be resolved four times in five.

Repeats shrink only the within-task part of var(d): var(d) = between + within / K, where the
within-task variance is estimated from the runs' own repeats (rate x (1 - rate) per task,
bias-corrected), so the planner can trade tasks against repeats. From single-repeat runs the
two parts cannot be told apart, and the plan says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from agentbench.metrics.intervals import z_value

POWER = 0.80
CONFIDENCE = 0.95


@dataclass(frozen=True)
class PairedVariance:
    """The spread of per-task differences, split where the repeats allow."""

    tasks: int
    repeats: int  # the smallest repeat count over both runs' paired tasks
    discordance: float  # share of tasks whose per-task rates differ between the runs
    var_diff: float  # var of d_i at the runs' own repeats
    within: float | None  # within-task variance of d_i per repeat; None without repeats
    floor_used: bool  # True when no task differed: one discordant task was assumed


def paired_variance(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> PairedVariance:
    """Per-task 0/1 outcomes of two runs, paired by position (tasks in both runs only)."""
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x and y]
    m = len(pairs)
    if m == 0:
        return PairedVariance(0, 0, 0.0, 0.0, None, True)
    diffs = [sum(y) / len(y) - sum(x) / len(x) for x, y in pairs]
    mean = sum(diffs) / m
    var = sum((d - mean) ** 2 for d in diffs) / (m - 1) if m > 1 else 0.0
    repeats = min(min(len(x), len(y)) for x, y in pairs)
    floor = var == 0
    if floor:  # nothing differed: assume one discordant task, the least the data cannot exclude
        var = 1.0 / m
    within = None
    if repeats > 1:
        per_task = []
        for x, y in pairs:
            terms = 0.0
            for g in (x, y):
                r = sum(g) / len(g)
                terms += r * (1 - r) * len(g) / (len(g) - 1)
            per_task.append(terms)
        within = sum(per_task) / m  # per single repeat of each run
    return PairedVariance(m, repeats, sum(1 for d in diffs if d != 0) / m, var, within, floor)


def mde(pv: PairedVariance, confidence: float = CONFIDENCE, power: float = POWER) -> float | None:
    """The smallest true difference (rate units) these runs would resolve with `power`."""
    if pv.tasks < 2:
        return None
    k = z_value(confidence) + z_value(2 * power - 1)
    return k * math.sqrt(pv.var_diff / pv.tasks)


@dataclass(frozen=True)
class Plan:
    effect: float
    repeats: int
    tasks_needed: int


def plan(
    pv: PairedVariance,
    effect: float,
    repeat_options: Sequence[int] = (1, 3, 5),
    confidence: float = CONFIDENCE,
    power: float = POWER,
) -> list[Plan]:
    """Tasks needed to resolve `effect` at each repeat count, from these runs' variance."""
    if effect <= 0:
        raise ValueError("effect must be positive")
    k = z_value(confidence) + z_value(2 * power - 1)
    out = []
    for reps in repeat_options:
        if pv.within is None:
            if reps != pv.repeats:
                continue
            var = pv.var_diff
        else:
            between = max(pv.var_diff - pv.within / pv.repeats, 0.0)
            var = between + pv.within / reps
        out.append(Plan(effect, reps, max(2, math.ceil(k * k * var / (effect * effect)))))
    return out


def parse_effect(text: str) -> float:
    """'5pp', '5%', '0.05' -> 0.05."""
    t = text.strip().lower()
    try:
        if t.endswith("pp") or t.endswith("%"):
            value = float(t.rstrip("p%").strip()) / 100
        else:
            value = float(t)
    except ValueError as exc:
        raise ValueError(f"{text!r} is not an effect size; give e.g. 5pp or 0.05") from exc
    if not 0 < value < 1:
        raise ValueError(f"{text!r}: an effect size lies between 0 and 100 pp")
    return value


class PowerFigures(BaseModel):
    """What this pair of runs could resolve in success rate, and what a target effect needs."""

    tasks: int
    repeats: int = Field(description="Fewest repeats of a paired task in either run.")
    discordance: float = Field(description="Share of paired tasks whose success rates differ.")
    min_detectable_effect: float | None = Field(
        description="Minimum detectable difference in success rate (rate units), two-sided 95%, "
        "80% power, from the spread of the per-task differences."
    )
    floor_used: bool = Field(
        description="No task differed: one discordant task was assumed (the MDE is a floor)."
    )
    effect: float | None = Field(default=None, description="The target effect asked for.")
    plan: list[dict[str, int]] = Field(
        default_factory=list, description="Tasks needed for `effect` at each repeat count."
    )
    note: str | None = None


def power_figures(
    a: dict[str, list[float]],
    b: dict[str, list[float]],
    common: list[str],
    effect: float | None,
) -> PowerFigures:
    """Power of the success-rate comparison: per-task 0/1 outcomes keyed by task id."""
    pv = paired_variance([a.get(t, []) for t in common], [b.get(t, []) for t in common])
    plans = [{"repeats": p.repeats, "tasks": p.tasks_needed} for p in plan(pv, effect or 1.0)]
    plans = plans if effect else []
    note = None
    if pv.within is None and effect:
        note = "single-repeat runs: the effect of more repeats cannot be estimated from them"
    return PowerFigures(
        tasks=pv.tasks,
        repeats=pv.repeats,
        discordance=pv.discordance,
        min_detectable_effect=mde(pv),
        floor_used=pv.floor_used,
        effect=effect,
        plan=plans,
        note=note,
    )
