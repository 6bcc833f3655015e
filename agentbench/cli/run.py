"""`agentbench run TASKS_DIR ...`: run a suite against a model, store and summarise it."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import typer

from agentbench.backends.base import RetryPolicy
from agentbench.cli.targets import OllamaOptions, open_target
from agentbench.errors import ConfigError
from agentbench.records import EpisodeResult
from agentbench.runner import RunConfig, Runner, results_json
from agentbench.store import ResultStore
from agentbench.tasks.loader import load_suite
from router import FRONTIER, LOCAL, build_policy
from router._registry import PolicySpecError


def register(app: typer.Typer) -> None:
    app.command("run")(run)


def run(
    tasks_dir: Path = typer.Argument(..., help="Task directory (e.g. tasks/)."),
    local: str = typer.Option(None, "--local", help="Model profile alias: embedded, nemotron…"),
    model: str = typer.Option(None, "--model", help="PROVIDER/MODEL, or NAME with --base-url."),
    base_url: str = typer.Option(None, "--base-url", help="OpenAI-compatible base URL (…/v1)."),
    api_key_env: str = typer.Option(None, "--api-key-env", help="Env var holding the API key."),
    router: str = typer.Option("always-local", "--router", help="POLICY[:key=value,...]"),
    frontier: str = typer.Option(None, "--frontier", help="Frontier PROVIDER/MODEL."),
    frontier_base_url: str = typer.Option(None, "--frontier-base-url"),
    frontier_model: str = typer.Option(None, "--frontier-model"),
    frontier_api_key_env: str = typer.Option(None, "--frontier-api-key-env"),
    repeats: int = typer.Option(1, "--repeats", min=1, help="Episodes per task."),
    concurrency: int = typer.Option(1, "--concurrency", min=1, help="Episodes in flight."),
    task: list[str] = typer.Option(None, "--task", help="Only these task ids (repeatable)."),
    category: list[str] = typer.Option(None, "--category", help="Only these categories."),
    max_steps: int = typer.Option(None, "--max-steps", min=1, help="Override step budgets."),
    max_tokens: int = typer.Option(None, "--max-tokens", min=1, help="Per model call."),
    tool_mode: str = typer.Option(None, "--tool-mode", help="native | prompt (profile default)."),
    episode_timeout: float = typer.Option(None, "--episode-timeout", help="Seconds per episode."),
    request_timeout: float = typer.Option(300.0, "--request-timeout", help="Seconds per call."),
    retries: int = typer.Option(3, "--retries", min=0, help="Retries of transient faults."),
    json_out: Path = typer.Option(None, "--json", help="Write the results contract here."),
    db: Path = typer.Option(Path("agentbench.db"), "--db", help="SQLite results database."),
    resume: str = typer.Option(None, "--resume", help="RUN_ID or latest: finish that run."),
    profiles: Path = typer.Option(None, "--profiles", help="Extra model profiles (YAML)."),
    note: str = typer.Option(None, "--note", help="Free text stored with the run."),
    num_ctx: int = typer.Option(None, "--num-ctx", help="Ollama: context size to request."),
    think: bool = typer.Option(None, "--think/--no-think", help="Ollama: thinking on or off."),
    prices: str = typer.Option(None, "--prices", help="Price table (YAML) over the shipped one."),
    local_usd_per_hour: float = typer.Option(
        None, "--local-usd-per-hour", help="Price of local model time ($/h); else unpriced."
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    agent: str = typer.Option(
        "native", "--agent", help="native (agentbench's loop) | langchain (RoutedChatModel)."
    ),
    draft_depth: int = typer.Option(
        None,
        "--draft-depth",
        min=0,
        help="Embedded profiles with a draft model: tokens drafted per step (0: no drafter).",
    ),
    text_tool_calls: bool = typer.Option(
        True,
        "--text-tool-calls/--no-text-tool-calls",
        help="Native mode: read a tool call the server left as text (recorded text-parsed).",
    ),
    record_both: bool = typer.Option(
        False,
        "--record-both",
        help="Answer every step locally and on the frontier (kept); "
        "`routes --replay-confidence` replays thresholds on it.",
    ),
) -> None:
    """Run every task (x repeats) against the model and print a summary per category."""
    if tool_mode not in (None, "native", "prompt"):
        raise ConfigError(f"--tool-mode {tool_mode}: use native or prompt")
    if agent not in ("native", "langchain"):
        raise ConfigError(f"--agent {agent}: use native or langchain")
    if agent == "langchain":
        from agentbench.agent.langchain_agent import langchain_missing

        if langchain_missing():
            raise ConfigError(langchain_missing() or "")
        if tool_mode == "prompt":
            raise ConfigError("--agent langchain binds tools natively; drop --tool-mode prompt")
    if record_both:
        if router not in ("always-local", "record-both"):
            raise ConfigError(f"--record-both replaces the router; drop --router {router}")
        router = "record-both"
    try:
        policy_factory = build_policy(router)
    except PolicySpecError as exc:
        raise ConfigError(str(exc)) from exc
    probe = policy_factory()
    needs_frontier = probe.needs_frontier
    if needs_frontier and not (frontier or frontier_model):
        raise ConfigError(
            f"--router {router} needs a frontier model: --frontier PROVIDER/MODEL "
            "or --frontier-base-url URL --frontier-model NAME"
        )
    from agentbench.cost import Pricing

    pricing = Pricing.build(prices, local_usd_per_hour)  # a bad price file fails before any call
    suite = load_suite(tasks_dir).select(task or None, category or None)
    if not suite.tasks:
        raise ConfigError("no task matches the --task/--category filters")
    retry = RetryPolicy(max_retries=retries, request_timeout_s=request_timeout)
    with (
        ResultStore(db) as store,
        open_target(
            local=local,
            model=model,
            base_url=base_url,
            api_key_env=api_key_env,
            profiles_file=profiles,
            retry=retry,
            ollama=OllamaOptions(num_ctx, think),
            draft_depth=draft_depth,
        ) as target,
    ):
        frontier_ctx = (
            open_target(
                local=None,
                model=frontier or frontier_model,
                base_url=frontier_base_url,
                api_key_env=frontier_api_key_env,
                retry=retry,
            )
            if needs_frontier
            else None
        )
        with frontier_ctx or _null() as frontier_target:
            config = RunConfig(
                target=target.label,
                model=target.backend.model,
                base_url=target.backend.base_url,
                router=router,
                frontier_model=frontier_target.backend.model if frontier_target else None,
                frontier_base_url=frontier_target.backend.base_url if frontier_target else None,
                tool_mode="native"
                if agent == "langchain"
                else (tool_mode or target.tool_mode or "native"),
                repeats=repeats,
                concurrency=concurrency,
                max_tokens=max_tokens or target.max_tokens or 1024,
                max_steps=max_steps,
                episode_timeout_s=episode_timeout,
                task_ids=task or [],
                categories=category or [],
                note=note,
                logprobs=probe.needs_logprobs,
                local_usd_per_hour=local_usd_per_hour,
                prices_file=str(prices) if prices else None,
                agent=agent,
                text_tool_calls=text_tool_calls,
            )
            targets = {LOCAL: target.backend}
            if frontier_target:
                targets[FRONTIER] = frontier_target.backend
            runner = Runner(suite, targets, policy_factory, config, store, pricing)
            resumed = None
            if resume:
                resumed = store.run(resume)
                runner.config = RunConfig.model_validate(resumed.config)
            record = asyncio.run(_execute(runner, resumed, quiet, target.serving))
        episodes = store.episodes(record.run_id)
        from agentbench.report.terminal import print_run

        print_run(record, episodes)
        if json_out:
            json_out.write_text(json.dumps(results_json(record, episodes), indent=2))
            typer.echo(f"results: {json_out}")
        if record.status == "interrupted":
            raise typer.Exit(130)


class _null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


async def _execute(runner: Runner, resumed, quiet: bool, serving=None):  # type: ignore[no-untyped-def]
    from agentbench.report.progress import RunProgress

    backends = list(runner.targets.values())
    try:
        for backend in backends:
            await backend.check_reachable()
        server = await runner.targets[LOCAL].server_info()
        if serving:  # agentbench started this server: its drafter is known, not guessed
            server.extra["launched"] = serving
            server.spec_decode_seen = bool(serving.get("draft_model"))
        if runner.config.note:
            server.note = runner.config.note
        run = runner.start(server, resumed)
        pending = runner.pending(run)
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGINT, task.cancel)  # type: ignore[union-attr]
        with RunProgress(len(pending), run.run_id, disabled=quiet) as progress:

            def report(ep: EpisodeResult) -> None:
                progress.advance(ep)

            try:
                return await runner.execute(run, report)
            except asyncio.CancelledError:
                return runner.store.run(run.run_id)
    finally:
        for backend in backends:
            await backend.aclose()
