"""`agentbench bench ...`: raw serving speed; `agentbench bench compare A B`: B/A with CIs."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from agentbench.backends.base import Backend, RetryPolicy
from agentbench.bench import scenarios as scenario_mod
from agentbench.bench.arrivals import RateMode
from agentbench.bench.compare import compare_results, comparison
from agentbench.bench.engine import BenchConfig, BenchOutcome, run_bench
from agentbench.bench.records import BenchRow
from agentbench.bench.report import compare_table, fmt, print_results
from agentbench.bench.results import bench_result, load_bench, store_bench, write_outputs
from agentbench.cli import options as opt
from agentbench.cli.bench_options import Arrival, floats, ints, parse_slo
from agentbench.cli.secrets import SECRETS, check_url
from agentbench.cli.targets import mark_launched, open_target
from agentbench.errors import ConfigError
from agentbench.records import RunRecord, strip_credentials
from agentbench.runner import new_run_id, now_iso
from agentbench.store import ResultStore

app = typer.Typer(
    help="Raw serving speed: TTFT, TPOT, ITL, prefill and decode tok/s per scenario, with a "
    "coherence gate first. `agentbench bench compare A B` compares two results.",
    no_args_is_help=False,
)


@app.callback(invoke_without_command=True)
def bench(
    ctx: typer.Context,
    local: Annotated[
        str | None, typer.Option("--local", help="Model profile alias: embedded, nemotron…")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="PROVIDER/MODEL, or NAME with --base-url.")
    ] = None,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="OpenAI-compatible base URL (…/v1).")
    ] = None,
    api_key_env: Annotated[
        str | None, typer.Option("--api-key-env", help="Env var holding the API key.")
    ] = None,
    draft_depth: Annotated[
        int | None,
        typer.Option(
            "--draft-depth",
            min=0,
            max=64,
            help="Embedded profiles with a draft model: tokens drafted per step (0: no drafter).",
        ),
    ] = None,
    scenario: Annotated[
        str | None,
        typer.Option(
            "--scenario",
            help="NAME,... of chat_short, code_generation, chat_long_context, summarization.",
        ),
    ] = None,
    pp: Annotated[
        int | None,
        typer.Option("--pp", min=1, max=opt.MAX_TOKENS, help="Custom scenario: prompt tokens."),
    ] = None,
    tg: Annotated[
        int | None,
        typer.Option("--tg", min=1, max=opt.MAX_TOKENS, help="Custom scenario: output tokens."),
    ] = None,
    depth: Annotated[
        list[str] | None,
        typer.Option(
            "--depth",
            help="Context tokens already in the "
            "conversation before the prompt (repeatable or D,D).",
        ),
    ] = None,
    concurrency: Annotated[
        list[str] | None,
        typer.Option(
            "--concurrency", help="Requests in flight (repeatable or C,C); 1 = single stream."
        ),
    ] = None,
    runs: Annotated[
        int,
        typer.Option(
            "--runs", min=1, max=opt.MAX_REPEATS, help="Measured repetitions per scenario."
        ),
    ] = 3,
    warmup: Annotated[
        int,
        typer.Option("--warmup", min=0, max=opt.MAX_REPEATS, help="Uncounted warm-up repetitions."),
    ] = 1,
    skip_gate: Annotated[
        bool,
        typer.Option(
            "--skip-gate",
            help="No coherence gate (synthetic servers only; real models always pass it first).",
        ),
    ] = False,
    measure_prefix_cache: Annotated[
        bool,
        typer.Option(
            "--measure-prefix-cache", help="No nonce: repeats may be served from the prefix cache."
        ),
    ] = False,
    no_force_output: Annotated[
        bool, typer.Option("--no-force-output", help="Do not send ignore_eos/min_tokens.")
    ] = False,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the bench results contract here.")
    ] = None,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", help="Write one row per repetition here.")
    ] = None,
    db: opt.DbOption = opt.DEFAULT_DB,
    profiles: Annotated[
        Path | None, typer.Option("--profiles", help="Extra model profiles (YAML).")
    ] = None,
    request_timeout: opt.RequestTimeoutOption = opt.DEFAULT_REQUEST_TIMEOUT_S,
    idle_timeout: opt.IdleTimeoutOption = opt.DEFAULT_IDLE_TIMEOUT_S,
    temperature: opt.TemperatureOption = None,
    top_p: opt.TopPOption = None,
    seed: opt.SeedOption = None,
    extra_body: opt.ExtraBodyOption = None,
    header: opt.HeaderOption = None,
    note: Annotated[
        str | None, typer.Option("--note", help="Free text stored with the result.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No per-run progress lines.")] = False,
    request_rate: Annotated[
        list[str] | None,
        typer.Option(
            "--request-rate",
            help="Requests/s (repeatable or R,R): send --num-requests per repetition at "
            "scheduled arrivals instead of a fixed concurrency.",
        ),
    ] = None,
    arrival: Annotated[
        Arrival, typer.Option("--arrival", help="Request-rate arrivals.")
    ] = Arrival.poisson,
    burstiness: Annotated[
        float,
        typer.Option(
            "--burstiness",
            min=0.01,
            max=100.0,
            help="Gamma shape of Poisson gaps (1 = Poisson, <1 burstier).",
        ),
    ] = 1.0,
    num_requests: Annotated[
        int,
        typer.Option(
            "--num-requests", min=1, max=100_000, help="Requests per repetition in rate mode."
        ),
    ] = 10,
    arrival_seed: Annotated[
        int, typer.Option("--arrival-seed", help="Seed of the request-rate arrival schedule.")
    ] = 0,
    slo: Annotated[
        str | None,
        typer.Option(
            "--slo", help="Goodput SLOs: ttft=500ms,tpot=50ms,e2e=10s (ms or s; bare = ms)."
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Sweep plot: write this HTML file and a PNG beside it."),
    ] = None,
    new_connection: Annotated[
        bool,
        typer.Option(
            "--new-connection-per-request",
            help="Open a new connection for every request (the cold path; connect_s then "
            "includes TCP/TLS set-up). Default: a kept-alive pool, as the OpenAI SDK keeps.",
        ),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            help="Client processes sharing each repetition's requests (fixed concurrency > 1): "
            "one event loop falls behind past a few dozen streams; the lag is recorded per run.",
        ),
    ] = 1,
    metrics_per_repetition: Annotated[
        bool,
        typer.Option(
            "--metrics-per-repetition",
            help="Read the server's /metrics around every repetition (default: once before "
            "and once after each sweep point).",
        ),
    ] = False,
) -> None:
    """Measure TTFT, TPOT, ITL, prefill and decode speed of one model server per scenario."""
    if ctx.invoked_subcommand is not None:
        return
    plot_png = plot.with_suffix(".png") if plot else None
    opt.check_output(db, "--db")
    opt.check_outputs(
        db,
        (json_out, "--json"),
        (csv_out, "--csv"),
        (plot, "--plot"),
        (plot_png, "--plot's PNG"),
        inputs=((profiles, "--profiles"),),
    )
    check_url(base_url, "--base-url")
    request = opt.RequestOptions.parse(temperature, top_p, seed, extra_body, header)
    config = BenchConfig(
        scenarios=scenario_mod.select(scenario, pp, tg),
        depths=ints(depth, "--depth", [0], 0, opt.MAX_TOKENS),
        concurrencies=ints(concurrency, "--concurrency", [1], 1, opt.MAX_CONCURRENCY),
        runs=runs,
        warmup=warmup,
        skip_gate=skip_gate,
        measure_prefix_cache=measure_prefix_cache,
        force_output=not no_force_output,
        rates=[
            RateMode(r, num_requests, arrival.value, burstiness, arrival_seed)
            for r in floats(request_rate, "--request-rate")
        ],
        slo=parse_slo(slo) if slo else None,
        metrics_per_repetition=metrics_per_repetition,
        new_connection_per_request=new_connection,
        workers=workers,
    )
    console = Console()
    retry = RetryPolicy(
        max_retries=1,
        request_timeout_s=request_timeout,
        idle_timeout_s=idle_timeout,
        new_connection_per_request=new_connection,
    )
    with (
        ResultStore(db) as store,
        open_target(
            local=local,
            model=model,
            base_url=base_url,
            api_key_env=api_key_env,
            profiles_file=profiles,
            retry=retry,
            request=request,
            slots=max(config.concurrencies),
            draft_depth=draft_depth,
        ) as target,
    ):
        store.redact(SECRETS.values)  # keys and header values never reach the database
        record = RunRecord(
            run_id=new_run_id(),
            created_at=now_iso(),
            kind="bench",
            config={
                **config.as_dict(),
                "target": target.label,
                "model": target.backend.model,
                "base_url": strip_credentials(target.backend.base_url),
                "note": note,
                "request": request.stored(),
            },
        )
        console.print(f"[bold]bench {record.run_id}[/bold]: {target.label}")
        outcome = asyncio.run(_measure(target.backend, config, console, quiet))
        if note:
            outcome.server.note = note
        mark_launched(outcome.server, target.serving)
        record.server = outcome.server
        record.status = "complete" if outcome.gate.passed else "gate_failed"
        record.summary = {
            "gate": outcome.gate.model_dump(),
            "results": len(outcome.results),
            "prompt_counting": outcome.prompt_counting,
            "output_forced_rejected": outcome.force_rejected,
        }
        store_bench(store, record, outcome.results)
    result = bench_result(record, outcome.results, outcome.gate, _notes(outcome))
    print_results(result, console)
    with opt.writing(json_out or csv_out or Path("."), "--json/--csv"):
        write_outputs(result, json_out, csv_out)
    written = [p for p in (json_out, csv_out) if p]
    if plot:
        from agentbench.report.bench_plot import write_sweep

        png = write_sweep(result, plot)
        if png is None:
            console.print(
                "[yellow]--plot: no curve has two loads (give --concurrency C,C or "
                "--request-rate R,R); nothing drawn[/yellow]"
            )
        else:
            written += [plot, png]
    for path in written:
        opt.written(path, "bench results")
    if not outcome.gate.passed:
        raise typer.Exit(1)


def _notes(outcome: BenchOutcome) -> list[str]:
    notes = []
    if outcome.prompt_counting == "estimated":
        notes.append(
            "prompt lengths are tiktoken estimates (the server has no /tokenize); the "
            "server's usage.prompt_tokens is recorded per run."
        )
    elif outcome.prompt_counting == "server_tokenizer":
        notes.append("prompt lengths cut exactly with the server's own tokenizer (/tokenize).")
    if outcome.force_rejected:
        notes.append(
            "the server rejected ignore_eos/min_tokens, so output lengths were not "
            f"forced: {outcome.force_rejected}"
        )
    return notes


async def _measure(
    backend: Backend, config: BenchConfig, console: Console, quiet: bool
) -> BenchOutcome:
    def progress(event: str, row: BenchRow) -> None:
        if quiet:
            return
        label = (
            f"{row.scenario} pp={row.prompt_tokens} tg={row.max_tokens} "
            f"depth={row.depth} {row.load_label}"
        )
        if event == "run":
            run = row.runs[-1]
            console.print(
                f"  {label} run {run.run}/{config.runs}: TTFT {fmt(run.ttft_s, '.3f')} s "
                f"(connect {fmt(None if run.connect_s is None else run.connect_s * 1000, '.2f')}"
                " ms before it), "
                f"decode {fmt(run.decode_tok_s)} tok/s per stream, prefill "
                f"{fmt(run.prefill_tok_s)} tok/s, {fmt(run.output_tokens, '.0f')} output tokens"
                + (
                    f", aggregate {fmt(run.aggregate_output_tok_s)} tok/s"
                    if run.requests > 1
                    else ""
                )
            )
        elif event == "done" and row.status != "ok":
            console.print(f"  [yellow]{label}: {row.message or row.status}[/yellow]")

    try:
        if not config.skip_gate and not quiet:
            console.print("coherence gate …")
        return await run_bench(backend, config, progress)
    finally:
        await backend.aclose()


@app.command("compare")
def compare(
    a: Annotated[str, typer.Argument(help="Baseline: bench JSON file or stored run id (latest).")],
    b: Annotated[str, typer.Argument(help="Candidate: bench JSON file or stored run id.")],
    db: opt.DbOption = opt.DEFAULT_DB,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the comparison here.")
    ] = None,
) -> None:
    """Ratio B/A per row of decode, prefill, TTFT and TPOT medians with 95% bootstrap CIs."""
    opt.check_outputs(db, (json_out, "--json"))
    for name in (a, b):  # a bench JSON file named as an input is not overwritten either
        if Path(name).is_file() and json_out and opt.same_file(Path(name), json_out):
            raise ConfigError(f"--json {json_out} is the input {name}; give another file name")
    data_a, data_b = load_bench(a, db), load_bench(b, db)
    rows = compare_results(data_a, data_b)
    if not rows:
        raise ConfigError("the two results share no scenario to compare")
    console = Console()
    console.print(compare_table(rows, a, b))
    console.print(
        "[dim]B/A = median(B) / median(A) over repetitions; 95% percentile "
        "bootstrap CI, each side resampled independently; 'resolved' only when the CI "
        "excludes 1. Never rank two configurations on one run each.[/dim]"
    )
    if json_out:
        opt.write_text(
            json_out, comparison(data_a, data_b, rows, a, b).model_dump_json(indent=2), "--json"
        )
        opt.written(json_out, "bench comparison")
