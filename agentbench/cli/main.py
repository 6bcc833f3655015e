"""The `agentbench` command. Each command is a few lines that call the library.

Errors a user can cause end as one line on stderr and exit code 1 (2 for usage errors); no
traceback reaches the user.
"""

from __future__ import annotations

import sys

import typer

from agentbench.cli import bench, compare, results, run, serve, tasks, view
from agentbench.errors import AgentbenchError

app = typer.Typer(
    name="agentbench",
    help="Benchmark agent workloads on local LLMs: correctness, thinking tokens per step, "
    "time-to-done, serving speed and routing economics.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(tasks.app, name="tasks")
app.add_typer(bench.app, name="bench")
run.register(app)
results.register(app)
serve.register(app)
compare.register(app)
view.register(app)
__import__("agentbench.cli.routes", fromlist=["register"]).register(app)  # agentbench routes
__import__("agentbench.cli.doctor", fromlist=["register"]).register(app)  # agentbench doctor


def main() -> None:
    try:
        app()
    except AgentbenchError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
