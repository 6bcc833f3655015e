"""The `agentbench` command. Each command is a few lines that call the library.

Errors a user can cause end as one line on stderr and exit code 1 (2 for usage errors, named by
the option parser); no traceback reaches the user, and no secret: the line goes through
SECRETS.redact (keys, header values, a URL's user:password). An unexpected exception (a bug) is
one line too, its traceback shown with AGENTBENCH_TRACEBACK=1. SIGTERM is handled like SIGINT
(Ctrl-C): whatever was started is stopped, what was stored is kept; the exit code is 128 + the
signal (130, 143).
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType
from typing import Annotated

import typer
from typer._click import exceptions as click  # the click typer vendors (and raises)

from agentbench import __version__
from agentbench.cli import bench, compare, results, run, serve, tasks, view
from agentbench.cli.secrets import SECRETS
from agentbench.errors import AgentbenchError

app = typer.Typer(
    name="agentbench",
    help="Benchmark agent workloads on local LLMs: correctness, thinking tokens per step, "
    "time-to-done, serving speed and routing economics.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,
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


def _version(value: bool) -> None:
    if value:
        typer.echo(f"agentbench {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = None,
) -> None:
    """Benchmark agent workloads on local LLMs: correctness, thinking tokens per step,
    time-to-done, serving speed and routing economics."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Python runs when no event loop has its own handler."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise Terminated()


def _fail(message: str, code: int) -> None:
    line = " ".join(SECRETS.redact(message).split())  # one line, whatever the message held
    typer.echo(f"error: {line}", err=True)
    sys.exit(code)


def main() -> None:
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        code = app(standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except AgentbenchError as exc:
        _fail(str(exc), 1)
    except click.NoArgsIsHelpError as exc:
        exc.show()  # the help text a bare command asks for
        sys.exit(exc.exit_code)
    except click.UsageError as exc:
        hint = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx else ""
        _fail(exc.format_message() + hint, exc.exit_code)
    except click.ClickException as exc:
        _fail(exc.format_message(), exc.exit_code)
    except typer.Abort:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt as exc:
        terminated = isinstance(exc, Terminated)
        typer.echo("terminated" if terminated else "interrupted", err=True)
        sys.exit(143 if terminated else 130)
    except Exception as exc:  # a bug: still one line without secrets; the traceback on demand
        if os.environ.get("AGENTBENCH_TRACEBACK"):
            raise
        _fail(
            f"internal error ({type(exc).__name__}: {str(exc)[:300]}); this is a bug in "
            "agentbench — rerun with AGENTBENCH_TRACEBACK=1 and report the traceback",
            1,
        )


if __name__ == "__main__":
    main()
