"""`agentbench compare` on a terminal (rich): the runs, then each pair's metrics, power and the
tasks where the runs' thinking differed most (the full lists are in --html and --json).

Renders `metrics.compare.Comparison` records with the cell text of report.compare_view.
"""

from __future__ import annotations

import math

from rich import box
from rich.console import Console
from rich.table import Table

from agentbench.figures import fmt
from agentbench.metrics.compare import Comparison, RunOverview
from agentbench.metrics.power import PowerFigures
from agentbench.report.compare_view import better, effect, side
from agentbench.report.page import fmt_ci

TERMINAL_TASKS = 12


def _ratio(v: float | None) -> str:
    return "n/a" if v is None else f"×{v:.2f}"


RUN_FIELDS = (
    "run",
    "server",
    "router",
    "episodes",
    "success (95% CI)",
    "thinking tok/step",
    "tok/solved task",
    "time-to-done median s",
    "decode tok/s median",
    "cost USD",
)


def _run_cells(r: RunOverview) -> list[str]:
    s = r.summary
    return [
        r.label,
        str(r.server or "?"),
        str(r.router or ""),
        str(s.episodes),
        f"{fmt(s.success_rate, '.0%')} {fmt_ci(s.success_rate_ci)}",
        fmt(s.thinking_tokens_per_step, ".1f"),
        fmt(s.tokens_per_solved_task, ".0f"),
        fmt(s.time_to_done_s_median, ".2f"),
        fmt(s.decode_tok_s_median, ".1f"),
        fmt(s.cost_usd, ".4f") if s.cost_usd is not None else "unpriced",
    ]


def _runs_table(runs: list[RunOverview], width: int = 200) -> Table:
    """One row per run; on a terminal narrower than the row, one column per run instead."""
    names = ["A" if i == 0 else f"B{i}" if len(runs) > 2 else "B" for i in range(len(runs))]
    t = Table(
        title="Runs (the first is A, the baseline)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    if width < 150:
        t.add_column("", no_wrap=True)
        for name in names:
            t.add_column(name, overflow="fold")
        columns = [_run_cells(r) for r in runs]
        for i, field in enumerate(RUN_FIELDS):
            t.add_row(field, *(c[i] for c in columns))
        return t
    t.add_column("")
    for col in RUN_FIELDS:
        t.add_column(col, justify="left" if col in ("run", "server", "router") else "right")
    for name, r in zip(names, runs, strict=True):
        t.add_row(name, *_run_cells(r))
    return t


def power_lines(power: PowerFigures) -> str:
    """What this pair could resolve, and the plan for a target effect, in words."""
    at_least = "at least " if power.floor_used else ""
    detectable = power.min_detectable_effect
    smallest = fmt(detectable * 100 if detectable is not None else None, ".1f")
    lines = [
        f"Power: with {power.tasks} paired tasks x {power.repeats} repeat(s) and "
        f"{power.discordance:.0%} of tasks discordant, the smallest success-rate difference "
        f"this pair could resolve (95%, 80% power) is {at_least}{smallest} pp"
        + (" (no task differed: one discordant task assumed)" if power.floor_used else "")
    ]
    if power.effect is not None:
        needs = ", ".join(f"{x['tasks']} tasks x {x['repeats']} repeat(s)" for x in power.plan)
        lines.append(f"To resolve {power.effect * 100:.1f} pp: {needs or 'no plan'}")
    if power.note:
        lines.append(f"({power.note})")
    return "\n".join(lines)


def print_comparison(comp: Comparison, console: Console | None = None) -> None:
    console = console or Console()
    console.print(_runs_table(comp.runs, console.width))
    for pair in comp.pairs:
        t = Table(
            title=f"B = {pair.label_b} vs A = {pair.label_a} — {pair.common_tasks} common "
            "tasks, paired by task (repeats averaged)",
            title_justify="left",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
        )
        for col in ("metric", "A", "B", "B vs A [95% CI]", "tasks", "verdict", "better"):
            t.add_column(
                col, justify="left" if col in ("metric", "verdict") else "right", overflow="fold"
            )
        for m in pair.metrics:
            style = "green" if m.verdict == "resolved" else "dim"
            t.add_row(
                m.label,
                side(m, m.a),
                side(m, m.b),
                effect(m),
                str(m.n_tasks),
                f"[{style}]{m.verdict}[/{style}]",
                better(m),
            )
        console.print(t)
        if pair.power is not None:
            console.print(power_lines(pair.power))
        solved = [x for x in pair.tasks if x.outcome == "both solved"]
        if solved:
            tt = Table(
                title="Tasks both solved: thinking tokens per episode (mean over repeats)",
                title_justify="left",
                box=box.SIMPLE_HEAD,
                pad_edge=False,
                caption="think: reasoning tokens; out: output tokens; fewer: the run "
                "with fewer output tokens",
                caption_justify="left",
            )
            for col in ("task", "think A", "think B", "B/A", "out A", "out B", "fewer"):
                tt.add_column(col, justify="left" if col == "task" else "right", overflow="fold")
            # Largest thinking differences first, either way; the full list is in --html/--json.
            ranked = sorted(
                solved, key=lambda x: -abs(math.log(x.thinking_ratio)) if x.thinking_ratio else 0.0
            )
            for x in ranked[:TERMINAL_TASKS]:
                tt.add_row(
                    x.task_id,
                    fmt(x.reasoning_tokens_a, ".0f"),
                    fmt(x.reasoning_tokens_b, ".0f"),
                    _ratio(x.thinking_ratio),
                    fmt(x.output_tokens_a, ".0f"),
                    fmt(x.output_tokens_b, ".0f"),
                    {"a": "A", "b": "B", "same": "same", None: "—"}[x.fewer_tokens],
                )
            console.print(tt)
            if len(ranked) > TERMINAL_TASKS:
                console.print(
                    f"… {len(ranked) - TERMINAL_TASKS} more tasks both solved: see --html or --json"
                )
        split = [x for x in pair.tasks if x.outcome in ("only A solved", "only B solved")]
        if split:
            console.print(
                "Solved by one run only: " + "; ".join(f"{x.task_id} ({x.outcome})" for x in split)
            )
        if pair.only_a or pair.only_b:
            console.print(
                f"Not paired (ran in one run only): A {len(pair.only_a)}, "
                f"B {len(pair.only_b)} tasks"
            )
        for note in pair.notes:
            console.print(f"[dim]note: {note}[/dim]")
    console.print(
        "[dim]Verdict: 'resolved' only when the 95% paired interval of the difference "
        "(Bonett-Price for success, bootstrap over tasks otherwise) excludes 0 (of a "
        "ratio, excludes 1); otherwise 'unresolved at this sample size'.[/dim]"
    )
