"""The end of a run on the terminal: the summary, backend errors said plainly, where the results
went, what to run next, and the exit code that says how it ended.

Exit codes: 0 the run finished (whatever the scores); 1 no episode could be scored (every one
ended in a backend error); 130 stopped by SIGINT; 143 stopped by SIGTERM.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import typer

from agentbench.cli.options import write_text, written
from agentbench.records import EpisodeResult, RunRecord
from agentbench.runner import results_json
from agentbench.store.db import short_ids


@dataclass
class RunOutcome:
    exit_code: int
    backend_errors: Counter[str] = field(default_factory=Counter)
    first_errors: dict[str, str] = field(default_factory=dict)  # kind -> first stored message


def run_outcome(
    run: RunRecord, episodes: list[EpisodeResult], stopped_by: int | None = None
) -> RunOutcome:
    errors: Counter[str] = Counter()
    first: dict[str, str] = {}
    for e in episodes:
        if e.status.startswith("backend_error"):
            kind = e.status.partition(":")[2] or "unknown"
            errors[kind] += 1
            first.setdefault(kind, e.explanation or e.status)
    if stopped_by is not None:
        code = 128 + stopped_by
    elif run.status == "interrupted":
        code = 130
    elif episodes and sum(errors.values()) == len(episodes):
        code = 1
    else:
        code = 0
    return RunOutcome(code, errors, first)


def print_end(
    run: RunRecord,
    episodes: list[EpisodeResult],
    db: Path,
    json_out: Path | None,
    outcome: RunOutcome,
) -> None:
    from agentbench.report.terminal import print_run

    print_run(run, episodes)
    if outcome.backend_errors:
        counts = ", ".join(f"{k}: {n}" for k, n in outcome.backend_errors.most_common())
        total = sum(outcome.backend_errors.values())
        typer.echo(
            f"backend errors: {total} of {len(episodes)} episodes were not scored ({counts})",
            err=True,
        )
        for kind, message in outcome.first_errors.items():
            typer.echo(f"  first {kind}: {message[:300]}", err=True)
    if json_out:
        write_text(json_out, json.dumps(results_json(run, episodes), indent=2), "--json")
        written(json_out, "results JSON")
    short = short_id(run.run_id, db)
    where = "" if db == Path("agentbench.db") else f" --db {shlex.quote(str(db))}"
    typer.echo(f"stored: run {short} ({run.run_id}, {run.status}) in {db}")
    if outcome.exit_code == 1:
        typer.echo(
            "error: no episode could be scored — every model call failed; fix the server or "
            "the flags above, then run again",
            err=True,
        )
    elif run.status != "complete":
        how = "stopped" if outcome.exit_code in (130, 143) else "interrupted"
        name = {130: "SIGINT", 143: "SIGTERM"}.get(outcome.exit_code)
        typer.echo(
            f"{how}{' by ' + name if name else ''}; finish it with: agentbench run "
            f"{shlex.quote(run.task_dir or 'TASKS_DIR')} --resume {short}{where}",
            err=True,
        )
    else:
        typer.echo(f"next: agentbench report {short}{where} --html {short}.html")
        typer.echo(f"      agentbench compare OTHER_RUN {short}{where}")


def short_id(run_id: str, db: Path) -> str:
    from agentbench.store import ResultStore

    with ResultStore(db) as store:
        ids = [r.run_id for r in store.runs()]
    return short_ids(ids).get(run_id, run_id)
