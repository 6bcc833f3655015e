"""`agentbench refserver` (the scripted reference server) and `agentbench serve` (an embedded
profile's llama-server, standing alone: e.g. the frontier of a router run)."""

from __future__ import annotations

from pathlib import Path

import typer

from agentbench.errors import ConfigError


def register(app: typer.Typer) -> None:
    app.command("refserver")(refserver)
    app.command("serve")(serve)


def serve(
    local: str = typer.Option(..., "--local", help="An embedded profile: embedded-qwen, …"),
    port: int = typer.Option(8081, "--port", help="Loopback port to listen on."),
    draft_depth: int = typer.Option(None, "--draft-depth", min=0, help="0: no drafter."),
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
    launch = launch_for(profile, local, draft_depth)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # leave the with-block: server stops
    with EmbeddedServer(launch, port=port, env=dict(os.environ)) as server:
        typer.echo(f"llama-server on {server.base_url} (model {server.alias}); Ctrl-C stops it")
        try:
            while server.child is not None and server.child.process.poll() is None:
                time.sleep(1.0)
        except KeyboardInterrupt:
            pass


def refserver(
    port: int = typer.Option(8765, "--port"),
    tasks_dir: Path = typer.Option(..., "--tasks", help="Task directory the policies play."),
    host: str = typer.Option("127.0.0.1", "--host", help="Loopback by default."),
    ttft: float = typer.Option(0.05, "--ttft", help="Seconds to the first token chunk."),
    rate: float = typer.Option(100.0, "--rate", help="Decode rate, tokens per second."),
    chunks: str = typer.Option("1", "--chunks", help="Tokens per chunk, cycled: e.g. 1,3,2."),
    reasoning: int = typer.Option(0, "--reasoning", help="Thinking tokens before each answer."),
    reasoning_style: str = typer.Option(
        "reasoning", "--reasoning-style", help="reasoning | reasoning_content | think"
    ),
    noise: float = typer.Option(0.2, "--noise", help="Default share of corrupted steps (noisy)."),
    seed: int = typer.Option(0, "--seed"),
    max_context: int = typer.Option(
        262144,
        "--max-context",
        help="OpenAI protocol: longer prompts get vLLM's context-length error.",
    ),
    num_ctx: int = typer.Option(
        None,
        "--num-ctx",
        help="Ollama protocol: silently keep only the last N prompt tokens, like Ollama.",
    ),
    draft_depth: int = typer.Option(
        None,
        "--draft-depth",
        min=1,
        help="Act as a server with a drafter: tokens drafted per "
        "step (vLLM-named counters on /metrics). No drafter unless given.",
    ),
    acceptance: float = typer.Option(
        None,
        "--acceptance",
        min=0.0,
        max=1.0,
        help="With --draft-depth: share of drafted "
        "tokens accepted (sets the chunk pattern). Else --chunks decides.",
    ),
) -> None:
    """Serve the reference server; the model name picks the policy (oracle, wrong, noisy, echo)."""
    import uvicorn

    from agentbench.refserver.app import RefServerState, build_app
    from agentbench.refserver.schedule import Schedule, SpecCounters
    from agentbench.tasks.loader import load_suite

    try:
        sizes = tuple(int(c) for c in chunks.split(","))
    except ValueError as exc:
        raise ConfigError(f"--chunks {chunks}: expected integers like 1,3,2") from exc
    if rate <= 0 or any(s < 1 for s in sizes):
        raise ConfigError("--rate and --chunks must be positive")
    if reasoning_style not in ("reasoning", "reasoning_content", "think"):
        raise ConfigError(
            f"--reasoning-style {reasoning_style}: reasoning, reasoning_content or think"
        )
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
        reasoning_style=reasoning_style,
        max_context=max_context,
    )
    state = RefServerState(
        load_suite(tasks_dir).tasks, schedule, noise=noise, seed=seed, num_ctx=num_ctx, spec=spec
    )
    typer.echo(f"reference server on http://{host}:{port}/v1 (models: oracle, wrong, noisy, echo)")
    uvicorn.run(build_app(state), host=host, port=port, log_level="warning")
