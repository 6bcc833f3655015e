"""`agentbench refserver` (the scripted reference server) and `agentbench serve` (an embedded
profile's llama-server, standing alone: e.g. the frontier of a router run)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from agentbench.cli.tiers import (
    Suite,
    SuiteOption,
    TaskSeedOption,
    VariantsOption,
    given,
    open_tier,
)
from agentbench.errors import ConfigError
from agentbench.tasks.families import DEFAULT_SEED

Opt = typer.Option


def register(app: typer.Typer) -> None:
    app.command("refserver")(refserver)
    app.command("serve")(serve)


def serve(
    local: str = typer.Option(..., "--local", help="An embedded profile: embedded-qwen, …"),
    port: int = typer.Option(8081, "--port", help="Loopback port to listen on."),
    draft_depth: int = typer.Option(None, "--draft-depth", min=0, help="0: no drafter."),
    slots: int = typer.Option(
        1, "--slots", min=1, help="Requests decoded at once (match the client's concurrency)."
    ),
    profiles: Path = typer.Option(None, "--profiles", help="Extra model profiles (YAML)."),
) -> None:
    """Serve an embedded profile's llama-server until Ctrl-C (e.g. as a router's frontier)."""
    import os
    import signal
    import sys
    import time

    from agentbench.local.embedded import EmbeddedServer, launch_for
    from agentbench.local.profiles import load_profiles

    profile = load_profiles(profiles).get(local)
    if profile is None or not profile.embedded:
        raise ConfigError(
            f"--local {local}: not an embedded profile (agentbench serve starts "
            "only those; see agentbench/data/profiles.yaml)"
        )
    launch = launch_for(profile, local, draft_depth, slots)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # leave the with-block: server stops
    with EmbeddedServer(launch, port=port, env=dict(os.environ)) as server:
        typer.echo(f"llama-server on {server.base_url} (model {server.alias}); Ctrl-C stops it")
        try:
            while server.child is not None and server.child.process.poll() is None:
                time.sleep(1.0)
        except KeyboardInterrupt:
            pass


class ReasoningStyle(StrEnum):
    reasoning = "reasoning"
    reasoning_content = "reasoning_content"
    think = "think"


def refserver(
    ctx: typer.Context,
    tasks_dir: Annotated[Path, Opt("--tasks", help="Task directory the policies play.")],
    suite: SuiteOption = Suite.default,
    task_seed: TaskSeedOption = DEFAULT_SEED,
    variants: VariantsOption = None,
    port: Annotated[int, Opt(min=1, max=65535, help="Port to listen on.")] = 8765,
    host: Annotated[str, Opt(help="Loopback by default.")] = "127.0.0.1",
    ttft: Annotated[
        float, Opt(min=0.0, max=3600.0, help="Seconds to the first token chunk.")
    ] = 0.05,
    rate: Annotated[float, Opt(min=0.001, max=1e9, help="Decode rate, tokens per second.")] = 100.0,
    chunks: Annotated[str, Opt(help="Tokens per chunk, cycled: e.g. 1,3,2.")] = "1",
    reasoning: Annotated[
        int, Opt(min=0, max=1_000_000, help="Thinking tokens before each answer.")
    ] = 0,
    reasoning_style: Annotated[
        ReasoningStyle, Opt(help="Where thinking goes in the stream.")
    ] = ReasoningStyle.reasoning,
    noise: Annotated[
        float, Opt(min=0.0, max=1.0, help="Default share of corrupted steps (noisy).")
    ] = 0.2,
    seed: Annotated[int, Opt(help="Seed of the noisy policy.")] = 0,
    max_context: Annotated[
        int, Opt(min=1, help="OpenAI protocol: longer prompts get vLLM's context-length error.")
    ] = 262144,
    num_ctx: Annotated[
        int | None,
        Opt(min=1, help="Ollama protocol: silently keep only the last N prompt tokens."),
    ] = None,
    draft_depth: Annotated[
        int | None,
        Opt(
            min=1,
            help="Act as a server with a drafter: tokens drafted per step (vLLM-named "
            "counters on /metrics). No drafter unless given.",
        ),
    ] = None,
    acceptance: Annotated[
        float | None,
        Opt(
            min=0.0,
            max=1.0,
            help="With --draft-depth: share of drafted tokens accepted (sets "
            "the chunk pattern). Else --chunks decides.",
        ),
    ] = None,
) -> None:
    """Serve the reference server; the model name picks the policy (oracle, wrong, noisy, echo)."""
    import uvicorn

    from agentbench.refserver.app import RefServerState, build_app
    from agentbench.refserver.schedule import Schedule, SpecCounters

    try:
        sizes = tuple(int(c) for c in chunks.split(","))
    except ValueError as exc:
        raise ConfigError(f"--chunks {chunks}: expected integers like 1,3,2") from exc
    if rate <= 0 or any(s < 1 for s in sizes):
        raise ConfigError("--rate and --chunks must be positive")
    if acceptance is not None and draft_depth is None:
        raise ConfigError(
            "--acceptance needs --draft-depth K (a server without a drafter accepts nothing)"
        )
    spec = (
        SpecCounters(depth=draft_depth, accepted_per_pos=[0] * draft_depth) if draft_depth else None
    )
    if spec is not None and acceptance is not None:
        sizes = SpecCounters.chunks_for(spec.depth, acceptance)
    schedule = Schedule(
        ttft_s=ttft,
        rate_tok_s=rate,
        chunks=sizes,
        reasoning_tokens=reasoning,
        reasoning_style=reasoning_style.value,
        max_context=max_context,
    )
    state = RefServerState(
        open_tier(tasks_dir, suite, task_seed, variants, given(ctx, "task_seed")).tasks,
        schedule,
        noise=noise,
        seed=seed,
        num_ctx=num_ctx,
        spec=spec,
    )
    typer.echo(f"reference server on http://{host}:{port}/v1 (models: oracle, wrong, noisy, echo)")
    uvicorn.run(build_app(state), host=host, port=port, log_level="warning")
