"""`agentbench run TASKS_DIR ...`: run a suite against a model, store and summarise it.

`--resume` takes every defining flag from the stored run (agentbench.cli.resume).
"""

from __future__ import annotations

import asyncio
import shlex
import signal
from contextlib import ExitStack
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from agentbench.backends.base import RetryPolicy
from agentbench.cli import options as opt
from agentbench.cli.finish import print_end, run_outcome
from agentbench.cli.resume import (
    merge_flags,
    resumable_run,
    stored_flags,
    stored_suite,
    task_hashes,
)
from agentbench.cli.secrets import SECRETS, check_url
from agentbench.cli.targets import OllamaOptions, mark_launched, open_target
from agentbench.cli.tiers import Suite, SuiteOption, TaskSeedOption, VariantsOption, open_tier
from agentbench.errors import ConfigError
from agentbench.records import EpisodeResult, RunRecord, strip_credentials
from agentbench.runner import RunConfig, Runner
from agentbench.store import ResultStore
from agentbench.tasks.families import DEFAULT_SEED
from agentbench.tasks.loader import TaskSuite
from router import FRONTIER, LOCAL, PolicySpecError, build_policy

Opt = typer.Option


def register(app: typer.Typer) -> None:
    app.command("run")(run)


def run(
    ctx: typer.Context,
    tasks_dir: Annotated[Path, typer.Argument(help="Task directory (e.g. tasks/).")],
    suite: SuiteOption = Suite.default,
    task_seed: TaskSeedOption = DEFAULT_SEED,
    variants: VariantsOption = None,
    local: Annotated[str | None, Opt(help="Model profile alias: embedded, nemotron…")] = None,
    model: Annotated[str | None, Opt(help="PROVIDER/MODEL, or NAME with --base-url.")] = None,
    base_url: Annotated[str | None, Opt(help="OpenAI-compatible base URL (…/v1).")] = None,
    api_key_env: Annotated[str | None, Opt(help="Env var holding the API key.")] = None,
    router: Annotated[str, Opt(help="POLICY[:key=value,...]")] = "always-local",
    frontier: Annotated[
        str | None,
        Opt(
            "--frontier",
            "--frontier-model",
            help="Frontier PROVIDER/MODEL, or NAME with --frontier-base-url.",
        ),
    ] = None,
    frontier_base_url: Annotated[str | None, Opt(help="Frontier base URL (…/v1).")] = None,
    frontier_api_key_env: Annotated[str | None, Opt(help="Env var of the frontier key.")] = None,
    repeats: Annotated[int, Opt(min=1, max=opt.MAX_REPEATS, help="Episodes per task.")] = 1,
    concurrency: Annotated[
        int, Opt(min=1, max=opt.MAX_CONCURRENCY, help="Episodes in flight.")
    ] = 1,
    task: Annotated[list[str] | None, Opt(help="Only these task ids (repeatable).")] = None,
    category: Annotated[list[str] | None, Opt(help="Only these categories.")] = None,
    max_steps: Annotated[
        int | None, Opt(min=1, max=opt.MAX_STEPS, help="Override step budgets.")
    ] = None,
    max_tokens: Annotated[
        int | None, Opt(min=1, max=opt.MAX_TOKENS, help="Per model call.")
    ] = None,
    tool_mode: Annotated[opt.ToolMode | None, Opt(help="Profile default if not given.")] = None,
    episode_timeout: Annotated[
        float, Opt(min=1.0, max=opt.MAX_SECONDS, help="Seconds per episode.")
    ] = 900.0,
    request_timeout: opt.RequestTimeoutOption = opt.DEFAULT_REQUEST_TIMEOUT_S,
    idle_timeout: opt.IdleTimeoutOption = opt.DEFAULT_IDLE_TIMEOUT_S,
    retries: Annotated[
        int, Opt(min=0, max=opt.MAX_RETRIES, help="Retries of transient faults.")
    ] = 3,
    json_out: Annotated[Path | None, Opt("--json", help="Write the results contract here.")] = None,
    db: opt.DbOption = opt.DEFAULT_DB,
    resume: Annotated[str | None, Opt(help="RUN_ID or latest (unfinished): finish it.")] = None,
    profiles: Annotated[Path | None, Opt(help="Extra model profiles (YAML).")] = None,
    note: Annotated[str | None, Opt(help="Free text stored with the run.")] = None,
    num_ctx: Annotated[
        int | None, Opt(min=1, max=opt.MAX_TOKENS, help="Ollama: context size to request.")
    ] = None,
    think: Annotated[bool | None, Opt("--think/--no-think", help="Ollama: thinking.")] = None,
    prices: Annotated[str | None, Opt(help="Price table (YAML) over the shipped one.")] = None,
    local_usd_per_hour: Annotated[
        float | None,
        Opt(min=0.0, max=1e6, help="Price of local model time ($/h); else unpriced."),
    ] = None,
    temperature: opt.TemperatureOption = None,
    top_p: opt.TopPOption = None,
    seed: opt.SeedOption = None,
    extra_body: opt.ExtraBodyOption = None,
    header: opt.HeaderOption = None,
    quiet: Annotated[bool, Opt(help="No progress bar.")] = False,
    agent: Annotated[
        opt.AgentKind, Opt(help="native (agentbench's loop) | langchain (RoutedChatModel).")
    ] = opt.AgentKind.native,
    record_both: Annotated[
        bool,
        Opt(
            help="Answer every step locally and on the frontier (kept); `routes replay` "
            "replays thresholds on it."
        ),
    ] = False,
    draft_depth: Annotated[
        int | None,
        Opt(
            min=0,
            max=64,
            help="Embedded profiles with a draft model: tokens drafted per step (0: no drafter).",
        ),
    ] = None,
    text_tool_calls: Annotated[
        bool,
        Opt(
            "--text-tool-calls/--no-text-tool-calls",
            help="Native mode: read a tool call the server left as text (recorded text-parsed).",
        ),
    ] = True,
) -> None:
    """Run every task (x repeats) against the model and print a summary per category."""
    flags = {k: _plain(v) for k, v in ctx.params.items()}
    opt.check_output(db, "--db")
    inputs = ((prices, "--prices"), (profiles, "--profiles"), *opt.suite_files(tasks_dir))
    opt.check_outputs(db, (json_out, "--json"), inputs=inputs)
    opt.check_outputs(None, (db, "--db"), inputs=inputs)
    check_url(base_url, "--base-url")
    check_url(frontier_base_url, "--frontier-base-url")
    opt.RequestOptions.parse(None, None, None, extra_body, header)  # refused before any work
    with ResultStore(db) as store:
        resumed: RunRecord | None = None
        if resume:
            resumed = resumable_run(store, resume)
            explicit = {k for k in flags if _explicit(ctx, k)}
            flags = merge_flags(resumed, flags, explicit)
            chosen = stored_suite(resumed, tasks_dir)
        else:
            whole = open_tier(tasks_dir, suite, task_seed, variants, _explicit(ctx, "task_seed"))
            chosen = whole.select(task or None, category or None)
            if not chosen.tasks:
                categories = ", ".join(sorted({t.category for t in whole.tasks}))
                raise ConfigError(
                    f"no task in {tasks_dir} matches the --task/--category filters (categories: "
                    f"{categories}); `agentbench tasks list {shlex.quote(str(tasks_dir))}` "
                    "lists the ids"
                )
        opt.check_episodes(len(chosen.tasks), int(flags["repeats"]))
        record, stopped_by = _run(flags, chosen, store, resumed)
        episodes = store.episodes(record.run_id)
    outcome = run_outcome(record, episodes, stopped_by)
    print_end(record, episodes, db, json_out, outcome)
    raise typer.Exit(outcome.exit_code)


def _explicit(ctx: typer.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)  # click's ParameterSource (typer vendors click)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def _run(
    f: dict[str, Any], suite: TaskSuite, store: ResultStore, resumed: RunRecord | None
) -> tuple[RunRecord, int | None]:
    agent, router, tool_mode = f["agent"], f["router"], f["tool_mode"]
    if agent == "langchain":
        from agentbench.agent.langchain_agent import langchain_missing

        if langchain_missing():
            raise ConfigError(langchain_missing() or "")
        if tool_mode == "prompt":
            raise ConfigError("--agent langchain binds tools natively; drop --tool-mode prompt")
    if f["record_both"]:
        if router not in ("always-local", "record-both"):
            raise ConfigError(f"--record-both replaces the router; drop --router {router}")
        router = "record-both"
    try:
        policy_factory = build_policy(router)
    except PolicySpecError as exc:
        raise ConfigError(str(exc)) from exc
    probe = policy_factory()
    if probe.needs_frontier and not f["frontier"]:
        raise ConfigError(
            f"--router {router} needs a frontier model: --frontier PROVIDER/MODEL "
            "or --frontier-base-url URL --frontier NAME"
        )
    from agentbench.cost import Pricing

    pricing = Pricing.build(f["prices"], f["local_usd_per_hour"])  # fails before any call
    request = opt.RequestOptions.parse(None, f["top_p"], f["seed"], f["extra_body"], f["header"])
    request.temperature = f["temperature"]
    retry = RetryPolicy(
        max_retries=f["retries"],
        request_timeout_s=f["request_timeout"],
        idle_timeout_s=f["idle_timeout"],
    )
    with ExitStack() as stack:
        target = stack.enter_context(
            open_target(
                local=f["local"],
                model=f["model"],
                base_url=f["base_url"],
                api_key_env=f["api_key_env"],
                profiles_file=Path(f["profiles"]) if f["profiles"] else None,
                retry=retry,
                ollama=OllamaOptions(f["num_ctx"], f["think"]),
                request=request,
                draft_depth=f["draft_depth"],
                slots=f["concurrency"],
            )
        )
        frontier_target = None
        if probe.needs_frontier:
            frontier_target = stack.enter_context(
                open_target(
                    local=None,
                    model=f["frontier"],
                    base_url=f["frontier_base_url"],
                    api_key_env=f["frontier_api_key_env"],
                    retry=retry,
                    request=request,
                    flag_names=("--frontier-base-url", "--frontier-api-key-env"),
                )
            )
        config = RunConfig(
            target=target.label,
            model=target.backend.model,
            base_url=strip_credentials(target.backend.base_url),
            router=router,
            frontier_model=frontier_target.backend.model if frontier_target else None,
            frontier_base_url=strip_credentials(frontier_target.backend.base_url)
            if frontier_target
            else None,
            tool_mode="native"
            if agent == "langchain"
            else (tool_mode or target.tool_mode or "native"),
            repeats=f["repeats"],
            concurrency=f["concurrency"],
            max_tokens=f["max_tokens"] or target.max_tokens or 1024,
            temperature=f["temperature"] if f["temperature"] is not None else 0.0,
            max_steps=f["max_steps"],
            episode_timeout_s=f["episode_timeout"],
            suite=f["suite"],
            task_seed=f["task_seed"],
            variants=f["variants"],
            task_ids=f["task"] or [],
            categories=f["category"] or [],
            note=f["note"],
            logprobs=probe.needs_logprobs,
            local_usd_per_hour=f["local_usd_per_hour"],
            prices_file=f["prices"],
            agent=agent,
            text_tool_calls=f["text_tool_calls"],
            request=request.stored(),
            flags=stored_flags(f),
            selected_tasks=[t.id for t in suite.tasks],
            task_hashes=task_hashes(suite),
        )
        if resumed is not None:  # the stored config, unchanged, is what the run does
            config = RunConfig.model_validate(resumed.config)
        targets = {LOCAL: target.backend}
        if frontier_target:
            targets[FRONTIER] = frontier_target.backend
        store.redact(SECRETS.values)  # keys and header values never reach the database
        runner = Runner(suite, targets, policy_factory, config, store, pricing)
        return asyncio.run(_execute(runner, resumed, f["quiet"], target.serving))


async def _execute(
    runner: Runner,
    resumed: RunRecord | None,
    quiet: bool,
    serving: dict[str, Any] | None = None,
) -> tuple[RunRecord, int | None]:
    """Run the pending episodes; SIGINT and SIGTERM store the run as interrupted. Returns the
    run and the signal that stopped it, if one did."""
    from agentbench.report.progress import RunProgress

    backends = list(runner.targets.values())
    try:
        for backend in backends:
            await backend.check_reachable()
        server = await runner.targets[LOCAL].server_info()
        mark_launched(server, serving)
        if runner.config.note:
            server.note = runner.config.note
        run = runner.start(server, resumed)
        pending = runner.pending(run)
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        received: list[int] = []

        def stop(sig: int) -> None:
            received.append(sig)
            if task is not None:
                task.cancel()

        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop, sig)
        with RunProgress(len(pending), run.run_id, disabled=quiet) as progress:

            def report(ep: EpisodeResult) -> None:
                progress.advance(ep)

            try:
                return await runner.execute(run, report), None
            except asyncio.CancelledError:
                return runner.store.run(run.run_id), received[0] if received else None
    finally:
        for backend in backends:
            await backend.aclose()
