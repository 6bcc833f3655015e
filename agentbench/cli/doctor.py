"""`agentbench doctor`: renders what agentbench.local.doctor finds (the CLI only renders).

agentbench doctor                          every profile's usual addresses + the embedded extra
agentbench doctor --local nemotron         that profile's candidates, then checks on the first
                                           one serving it (exit 1 when none does)
agentbench doctor --base-url URL --model NAME     one server (ollama/NAME for Ollama's API)
agentbench doctor --log vllm.log           also read a server's log (`docker logs … 2>&1 |
                                           agentbench doctor --log -`): the failures that stop
                                           a server from starting are only in its log
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from agentbench.cli.options import (
    DEFAULT_REQUEST_TIMEOUT_S,
    RequestTimeoutOption,
    check_output,
    write_text,
)
from agentbench.cli.secrets import check_url
from agentbench.errors import ConfigError
from agentbench.local.checks import DoctorReport
from agentbench.local.doctor import run_doctor

MARKS = {
    "ok": "[green]ok[/green]",
    "warn": "[yellow]warn[/yellow]",
    "fail": "[red]FAIL[/red]",
    "info": "[cyan]info[/cyan]",
    "skip": "[dim]skip[/dim]",
}

Opt = typer.Option


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)


def render(report: DoctorReport, console: Console) -> None:
    console.print(f"[bold]agentbench doctor[/bold]{' — ' + report.target if report.target else ''}")
    explained: set[str] = set()
    for check in report.checks:
        console.print(
            f"  {MARKS.get(check.status, check.status)}  {check.name}: {check.detail}",
            highlight=False,
        )
        for d in check.diagnoses:
            text = f"{d.title} (see above)" if d.key in explained else d.render()
            explained.add(d.key)
            console.print(f"       → {text}", highlight=False)


def doctor(
    local: Annotated[str | None, Opt(help="Check this profile alias (nemotron, …).")] = None,
    base_url: Annotated[str | None, Opt(help="Check one server (…/v1, or Ollama).")] = None,
    model: Annotated[str | None, Opt(help="Served model name (ollama/NAME: Ollama).")] = None,
    profiles: Annotated[Path | None, Opt(help="Extra model profiles (YAML).")] = None,
    request_timeout: RequestTimeoutOption = DEFAULT_REQUEST_TIMEOUT_S,
    json_out: Annotated[Path | None, Opt("--json", help="Write the findings here.")] = None,
    log: Annotated[list[str] | None, Opt(help="A server log to read (- for stdin).")] = None,
) -> None:
    """Which servers answer, what they serve, whether tool calls and reasoning work."""
    if local and (base_url or model):
        raise ConfigError("give either --local ALIAS or --base-url URL --model NAME, not both")
    check_output(json_out, "--json")
    check_url(base_url, "--base-url")
    console = Console(soft_wrap=True)
    logs: dict[str, str] = {}
    for item in log or []:
        if item == "-":
            logs["stdin"] = typer.get_text_stream("stdin").read()
            continue
        try:
            logs[item] = Path(item).read_text(errors="replace")
        except OSError as exc:
            raise ConfigError(f"--log {item}: cannot read it: {exc}") from exc
    report = run_doctor(
        local=local,
        base_url=base_url,
        model=model,
        profiles_file=profiles,
        timeout_s=request_timeout,
        logs=logs,
    )
    render(report, console)
    if json_out:
        write_text(json_out, json.dumps(asdict(report), indent=2, default=str), "--json")
    if report.target_ok is False:
        typer.echo(f"error: {report.error or 'the target is not usable'}", err=True)
        raise typer.Exit(1)
    failed = [c.name for c in report.checks if c.status == "fail"]
    if failed:
        typer.echo(f"error: {len(failed)} check(s) failed: {', '.join(failed)}", err=True)
        raise typer.Exit(1)
