"""`agentbench routes`: cost vs accuracy of routers against their baselines; `routes replay`
and `routes fork` replay confidence thresholds on a `run --record-both` run."""

from __future__ import annotations

import json
import math
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from agentbench.cli import options as opt
from agentbench.errors import ConfigError
from agentbench.figures import pct, pct_change, signed
from agentbench.metrics.routes import RoutesReport, compare_routes
from agentbench.records import EpisodeResult, RunRecord
from agentbench.store import ResultStore

app = typer.Typer(
    help="Cost vs accuracy per run (baselines and routers), Pareto front, APGR, random control. "
    "`routes replay` and `routes fork` replay confidence thresholds on a --record-both run.",
    no_args_is_help=False,
)

Thresholds = Annotated[
    str,
    typer.Option("--thresholds", help="Mean-logprob thresholds to replay, comma-separated."),
]
DEFAULT_THRESHOLDS = "-0.05,-0.1,-0.2,-0.3,-0.5,-0.75,-1,-1.5,-2"
JsonOut = Annotated[Path | None, typer.Option("--json", help="Write the result here.")]
Prices = Annotated[
    str | None, typer.Option("--prices", help="Re-price every call with this table.")
]
LocalPrice = Annotated[
    float | None,
    typer.Option("--local-usd-per-hour", min=0.0, help="Re-price local model time at this $/h."),
]
RecordedRun = Annotated[str, typer.Argument(help="RUN_ID of a `run --record-both` run.")]


class Metric(StrEnum):
    success = "success"
    score = "score"


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="routes")


@app.callback(invoke_without_command=True)
def routes(
    ctx: typer.Context,
    run: Annotated[
        list[str] | None,
        typer.Option(
            "--run",
            help="A run to compare (repeatable; default: every run over the "
            "newest run's task set).",
        ),
    ] = None,
    db: opt.DbOption = opt.DEFAULT_DB,
    metric: Annotated[
        Metric, typer.Option(help="success (solved share) | score.")
    ] = Metric.success,
    prices: Prices = None,
    local_usd_per_hour: LocalPrice = None,
    json_out: JsonOut = None,
) -> None:
    """Cost vs accuracy per run (baselines and routers), Pareto front, APGR, random control."""
    if ctx.invoked_subcommand is not None:
        return
    opt.check_outputs(db, (json_out, "--json"))
    opt.check_db_exists(db)
    with ResultStore(db) as store:
        runs = select_runs(store, run or [])
    if prices is not None or local_usd_per_hour is not None:
        from agentbench.cost import Pricing, price_episode

        pricing = Pricing.build(prices, local_usd_per_hour)
        runs = [(r, [price_episode(e, pricing) for e in eps]) for r, eps in runs]
    report = compare_routes(runs, metric=metric.value)
    print_routes(report)
    if json_out:
        opt.write_text(json_out, json.dumps(report.model_dump(), indent=2), "--json")
        opt.written(json_out, "routes JSON")


@app.command("replay")
def replay_cmd(
    run_id: RecordedRun,
    db: opt.DbOption = opt.DEFAULT_DB,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    prices: Prices = None,
    local_usd_per_hour: LocalPrice = None,
    json_out: JsonOut = None,
) -> None:
    """Replay confidence thresholds on the recorded (local, frontier) answer pairs of a run."""
    opt.check_outputs(db, (json_out, "--json"))
    opt.check_db_exists(db)
    replay(
        str(db), run_id, thresholds, prices, local_usd_per_hour, str(json_out) if json_out else None
    )


@app.command("fork")
def fork_cmd(
    run_id: RecordedRun,
    base_url: Annotated[str | None, typer.Option(help="The local model's base URL.")] = None,
    model: Annotated[str | None, typer.Option(help="The local model.")] = None,
    api_key_env: Annotated[str | None, typer.Option(help="Env var of the local key.")] = None,
    frontier: Annotated[
        str | None,
        typer.Option(
            "--frontier",
            "--frontier-model",
            help="Frontier PROVIDER/MODEL, or NAME with --frontier-base-url.",
        ),
    ] = None,
    frontier_base_url: Annotated[str | None, typer.Option(help="Frontier base URL.")] = None,
    frontier_api_key_env: Annotated[str | None, typer.Option(help="Env var of its key.")] = None,
    db: opt.DbOption = opt.DEFAULT_DB,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    concurrency: Annotated[
        int, typer.Option(min=1, max=opt.MAX_CONCURRENCY, help="Episodes in flight.")
    ] = 1,
    json_out: JsonOut = None,
) -> None:
    """Replay thresholds; where one leaves the recorded trajectory, continue the episode live
    (the stored run's settings and task files; the targets named here)."""
    from agentbench.cli.replay_fork import replay_fork
    from agentbench.cli.secrets import check_url

    check_url(base_url, "--base-url")
    check_url(frontier_base_url, "--frontier-base-url")

    opt.check_outputs(db, (json_out, "--json"))
    opt.check_db_exists(db)
    replay_fork(
        str(db),
        run_id,
        parse_thresholds(thresholds),
        str(json_out) if json_out else None,
        local=(model, base_url, api_key_env),
        frontier=(frontier, frontier_base_url, frontier_api_key_env),
        concurrency=concurrency,
    )


def replay(
    db: str,
    run_id: str,
    thresholds: str,
    prices: str | None,
    local_usd_per_hour: float | None,
    json_out: str | None,
) -> None:
    from agentbench.metrics.replay import replay_confidence

    values = parse_thresholds(thresholds)
    with ResultStore(db) as store:
        run = store.run(store.resolve(run_id))
        episodes = store.episodes(run.run_id)
    if prices is not None or local_usd_per_hour is not None:
        from agentbench.cost import Pricing, price_episode

        pricing = Pricing.build(prices, local_usd_per_hour)
        episodes = [price_episode(e, pricing) for e in episodes]
    points = replay_confidence(episodes, values)
    if not points or not points[0].decisions:
        raise ConfigError(
            f"run {run.run_id} has no recorded (local, frontier) answer pairs: "
            "make it with `agentbench run --record-both`"
        )
    with_lp = sum(
        1 for e in episodes for s in e.steps if s.discarded and s.mean_logprob is not None
    )
    console = Console()
    table = Table(
        title=f"Confidence thresholds replayed on {run.run_id} "
        f"({len(episodes)} episodes, {points[0].decisions} decisions)",
        title_justify="left",
    )
    for column in (
        "threshold",
        "steps escalated",
        "kept local = frontier",
        "exact episodes",
        "success (bounds)",
        "cost (recorded steps)",
    ):
        table.add_column(column, justify="right")
    for p in points:
        low, high = p.accuracy_low, p.accuracy_high
        bounds = (
            "n/a"
            if low is None or high is None
            else (f"{low:.0%}" if abs(high - low) < 1e-9 else f"{low:.0%} – {high:.0%}")
        )
        table.add_row(
            f"{p.threshold:g}",
            pct(p.rate_steps),
            pct(p.kept_agree),
            f"{p.exact_episodes}/{len(episodes)}",
            bounds,
            _money(p.cost_usd),
        )
    console.print(table)
    console.print(
        "A kept local answer that differs from the frontier's leaves the recorded "
        "trajectory: that episode's outcome is unknown, hence the bounds (low: it "
        "failed, high: it succeeded). Local answers without logprobs are kept "
        f"({with_lp} of {points[0].decisions} had logprobs)."
    )
    if json_out:
        opt.write_text(
            Path(json_out), json.dumps([p.model_dump() for p in points], indent=2), "--json"
        )
        opt.written(json_out, "replay JSON")


def parse_thresholds(thresholds: str) -> list[float]:
    try:
        values = sorted({float(t) for t in thresholds.split(",") if t.strip()}, reverse=True)
    except ValueError as exc:
        raise ConfigError(f"--thresholds {thresholds}: give numbers like -0.1,-0.5") from exc
    if not all(math.isfinite(v) for v in values):
        raise ConfigError(f"--thresholds {thresholds}: give finite numbers like -0.1,-0.5")
    return values


def select_runs(
    store: ResultStore, run_ids: list[str]
) -> list[tuple[RunRecord, list[EpisodeResult]]]:
    """The named runs, or every finished run over the newest run's task set."""
    if run_ids:
        chosen = [store.run(store.resolve(r)) for r in run_ids]
        out = [(r, store.episodes(r.run_id)) for r in chosen]
    else:
        records = [r for r in store.runs(kind="run") if r.kind == "run"]
        if not records:
            raise ConfigError(f"{store.path} holds no agent runs yet; run `agentbench run` first")
        loaded = [(r, store.episodes(r.run_id)) for r in records]
        loaded = [(r, eps) for r, eps in loaded if eps]
        if not loaded:
            raise ConfigError(f"{store.path}: no run has finished episodes yet")
        newest = max(loaded, key=lambda x: x[0].created_at)
        task_set = {e.task_id for e in newest[1]}
        out = [(r, eps) for r, eps in loaded if {e.task_id for e in eps} == task_set]
    if len(out) < 2:
        raise ConfigError(
            "routes needs at least two runs over the same tasks (e.g. "
            "--router always-local, always-frontier, and a router)"
        )
    return out


def _money(x: float | None) -> str:
    if x is None:
        return "unpriced"
    return f"${x:.4f}" if x < 1 else f"${x:,.2f}"


def print_routes(report: RoutesReport, console: Console | None = None) -> None:
    console = console or Console()
    label = "success rate" if report.metric == "success" else "mean score"
    table = Table(
        title=f"Routing: cost vs {label} over {len(report.task_set)} tasks, "
        f"{report.keys} paired episodes",
        title_justify="left",
    )
    for column in (
        "run",
        "router",
        label + " (95% CI)",
        "Δ vs frontier (CI)",
        "cost",
        "cost/solved",
        "Δ cost vs frontier",
        "calls esc.",
        "steps esc.",
        "episodes esc.",
        "$ share frontier",
        "Pareto",
    ):
        table.add_column(column, justify="left" if column in ("run", "router") else "right")
    for p in report.runs:
        role = {report.weak: " [dim](weak)[/dim]", report.strong: " [dim](strong)[/dim]"}
        acc = "n/a" if p.accuracy is None else f"{p.accuracy:.0%}"
        if p.accuracy_ci:
            acc += f" [{p.accuracy_ci[0]:.0%}, {p.accuracy_ci[1]:.0%}]"
        diff = cost_delta = ""
        if p.vs_strong and p.vs_strong.get("accuracy_diff"):
            d = p.vs_strong["accuracy_diff"]
            diff = (
                f"{signed(d['value'] * 100, '.1f')} pts "
                f"[{signed(d['low'] * 100, '.1f')}, {signed(d['high'] * 100, '.1f')}]"
            )
        if p.vs_strong and p.vs_strong.get("cost_ratio"):
            r = p.vs_strong["cost_ratio"]
            cost_delta = (
                f"{pct_change(r['value'])} [{pct_change(r['low'])}, {pct_change(r['high'])}]"
            )
        elif p.vs_strong:
            cost_delta = "unpriced"
        esc = p.escalation
        table.add_row(
            p.run_id + role.get(p.run_id, ""),
            p.router + (f" ({p.note})" if p.note else ""),
            acc,
            diff,
            _money(p.cost_usd),
            _money(p.cost_usd_per_solved) if p.cost_usd is not None else "unpriced",
            cost_delta,
            pct(esc.rate_calls),
            pct(esc.rate_steps),
            pct(esc.rate_episodes),
            pct(esc.share_dollars) if esc.cost_usd is not None else "unpriced",
            "*" if p.pareto else "",
        )
    console.print(table)
    axis = "dollars" if report.pareto_axis == "cost_usd" else "share of calls to the frontier"
    console.print(
        f"Pareto (*): no other run is at most as costly ({axis}) and at least as "
        "accurate, better in one."
    )
    for family, value in report.apgr.items():
        console.print(
            f"APGR {family}: {'n/a' if value is None else f'{value:.2f}'} "
            "(area under performance-gap-recovered vs share of steps escalated; "
            "random routing ≈ 0.50)"
        )
    for p in report.runs:
        if p.sentence:
            label = p.router + (f", {p.note}" if p.note else "")
            console.print(f"[bold]{label}[/bold] ({p.run_id}): {p.sentence}")
        vr = p.vs_random
        if vr:
            expected = vr.get("expected_random_accuracy")
            line = f"  vs random control at {pct(vr['rate_steps'])} of steps escalated: "
            measured = vr.get("measured")
            if measured and measured.get("accuracy_diff"):
                d = measured["accuracy_diff"]
                line += (
                    f"{signed(d['value'] * 100, '.1f')} points (CI "
                    f"{signed(d['low'] * 100, '.1f')} to {signed(d['high'] * 100, '.1f')}; "
                    f"{measured['accuracy_verdict']}) vs {measured['router']} "
                    f"({pct(measured['rate_steps'])} escalated"
                    + ("" if measured["same_rate"] else ", NOT the same rate")
                    + ")"
                )
            else:
                line += "no random run measured (run --router random:p=...)"
            if expected is not None and p.accuracy is not None:
                line += (
                    f"; interpolated random expectation {expected:.0%} → "
                    f"{signed((p.accuracy - expected) * 100, '.1f')} points"
                )
            console.print(line)
        esc = p.escalation
        if esc.frontier_calls and p.family not in ("always-local", "always-frontier"):
            triggers = ", ".join(f"{t} {n}" for t, n in esc.triggers.items())
            position = ", ".join(f"{k}: {pct(v['rate'])}" for k, v in esc.by_position.items())
            line = f"  triggers: {triggers}; escalated share by step position: {position}"
            if esc.review_escalations:
                line += (
                    f"; after review {esc.review_escalations}: rescued {esc.rescued}, "
                    f"not rescued {esc.not_rescued}, unchanged {esc.unchanged}"
                )
            console.print(line)
    for note in report.notes:
        console.print(f"[yellow]note:[/yellow] {note}")
    if any(p.cost_usd is None for p in report.runs):
        console.print(
            "[yellow]Unpriced runs:[/yellow] a local call is priced only at a "
            "declared --local-usd-per-hour and a frontier call only with a price for "
            "its model; costs of such runs are shown as unpriced, never as $0."
        )
