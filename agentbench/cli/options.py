"""Options shared by several commands: one name, one type, one default and one help each.

Also the checks every command runs on them before any work starts: output paths that can be
written and name neither the results database nor each other, request headers and JSON bodies
that parse, base URLs that parse. Secrets (API keys, header values, a URL's password) are never
echoed (agentbench.cli.secrets).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from agentbench.cli.secrets import SECRETS, TOKEN_CHARS, check_secret
from agentbench.errors import ConfigError
from agentbench.store import check_database

DEFAULT_DB = Path("agentbench.db")
DEFAULT_REQUEST_TIMEOUT_S = 300.0
DEFAULT_IDLE_TIMEOUT_S = 60.0
# Bounds on numbers a user gives: every number is finite and below a limit no real use reaches,
# so that nothing sized by one (a plan, a prompt, a wait) can exhaust memory or wait forever.
MAX_REPEATS = 10_000
MAX_CONCURRENCY = 1_024
MAX_SECONDS = 7 * 86_400.0  # any timeout
MAX_TOKENS = 10_000_000  # a token count (max tokens, context size, prompt length)
MAX_STEPS = 10_000
MAX_RETRIES = 100
INT64 = 2**63 - 1  # a seed goes to the server as a JSON integer
MAX_EPISODES = 100_000  # tasks x repeats: one run's plan, held in memory before it starts


class ToolMode(StrEnum):
    native = "native"
    prompt = "prompt"


class AgentKind(StrEnum):
    native = "native"
    langchain = "langchain"


DbOption = Annotated[Path, typer.Option("--db", help="SQLite results database.")]
RequestTimeoutOption = Annotated[
    float,
    typer.Option(
        "--request-timeout",
        min=1.0,
        max=MAX_SECONDS,
        help="Seconds one model call may take, first to last byte.",
    ),
]
IdleTimeoutOption = Annotated[
    float,
    typer.Option(
        "--idle-timeout",
        min=0.1,
        max=MAX_SECONDS,
        help="Seconds a stream may go without an event (keep-alives do not count).",
    ),
]
TemperatureOption = Annotated[
    float | None, typer.Option("--temperature", min=0.0, max=100.0, help="Sampling temperature.")
]
TopPOption = Annotated[
    float | None, typer.Option("--top-p", min=0.0, max=1.0, help="Nucleus sampling top_p.")
]
SeedOption = Annotated[
    int | None,
    typer.Option("--seed", min=-INT64, max=INT64, help="Sampling seed sent to the server."),
]
ExtraBodyOption = Annotated[
    str | None,
    typer.Option(
        "--extra-body", help="JSON object merged into every request body, e.g. '{\"top_k\": 20}'."
    ),
]
HeaderOption = Annotated[
    list[str] | None,
    typer.Option(
        "--header", help="K:V header sent with every request (repeatable; values are never stored)."
    ),
]


@dataclass
class RequestOptions:
    """What a user asked to send with every model request, beyond the messages."""

    temperature: float | None = None
    top_p: float | None = None
    seed: int | None = None
    extra_body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(
        cls,
        temperature: float | None,
        top_p: float | None,
        seed: int | None,
        extra_body: str | None,
        headers: list[str] | None,
    ) -> RequestOptions:
        return cls(temperature, top_p, seed, parse_extra_body(extra_body), parse_headers(headers))

    def sampling(self, with_temperature: bool = True) -> dict[str, Any]:
        """The sampling fields given, as request-body fields."""
        out: dict[str, Any] = {"top_p": self.top_p, "seed": self.seed}
        if with_temperature:
            out["temperature"] = self.temperature
        return {k: v for k, v in out.items() if v is not None}

    def stored(self) -> dict[str, Any]:
        """For the stored config: everything but header values (they may hold credentials)."""
        return {
            "temperature": self.temperature,
            "top_p": self.top_p,
            "seed": self.seed,
            "extra_body": self.extra_body,
            "header_names": sorted(self.headers),
        }


# Body keys agentbench sets itself and records with the run: --extra-body may not change them.
HARNESS_KEYS = {
    "model": "--model",
    "messages": "the task",
    "tools": "the task",
    "tool_choice": "the agent",
    "stream": "agentbench (it always streams)",
    "stream_options": "agentbench (usage in the last chunk)",
    "max_tokens": "--max-tokens",
    "max_completion_tokens": "--max-tokens",
    "temperature": "--temperature",
    "top_p": "--top-p",
    "seed": "--seed",
    "logprobs": "the router policy",
    "n": "agentbench (one answer per call)",
    "options": "--num-ctx and --temperature (Ollama)",
    "think": "--think/--no-think",
}


def parse_extra_body(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--extra-body is not JSON ({exc.msg} at column {exc.colno})") from exc
    except ValueError as exc:  # NaN, Infinity, 1e999: no JSON body can carry them
        raise ConfigError(f"--extra-body holds {exc}; JSON numbers are finite") from exc
    except RecursionError as exc:
        raise ConfigError("--extra-body is nested too deeply to be a request field") from exc
    if not isinstance(value, dict):
        raise ConfigError("--extra-body must be a JSON object, e.g. '{\"top_k\": 20}'")
    for key in value:
        if key in HARNESS_KEYS:
            raise ConfigError(
                f"--extra-body key '{key}' is set by agentbench and recorded with the run; "
                f"it cannot be overridden (set it with {HARNESS_KEYS[key]})"
            )
    return value


def _not_json(name: str) -> Any:
    raise ValueError(name)


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


def parse_headers(items: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition(":")
        name = name.strip()
        if not sep or not name or not set(name) <= TOKEN_CHARS:
            shown = name if set(name) <= TOKEN_CHARS else "NAME"
            raise ConfigError(
                f"--header {shown}…: use NAME:VALUE with a plain ASCII name, e.g. X-Team:ops"
            )
        SECRETS.add(value.strip())
        out[name] = check_secret(value.strip(), f"--header {name}: the value")
    return out


def check_episodes(tasks: int, repeats: int) -> None:
    """A run's plan (tasks x repeats) is bounded: it is built in memory before the first call."""
    if tasks * repeats > MAX_EPISODES:
        raise ConfigError(
            f"--repeats {repeats} x {tasks} tasks = {tasks * repeats:,} episodes, over the "
            f"limit of {MAX_EPISODES:,} per run; lower --repeats or select fewer tasks"
        )


def check_outputs(
    db: Path | None,
    *outputs: tuple[Path | None, str],
    inputs: tuple[tuple[str | Path | None, str], ...] = (),
) -> None:
    """Refuse, before anything runs, outputs that cannot be written, that would overwrite the
    results database `db` (or its -wal/-journal/-shm files), an input file of the command
    (`inputs`: a price table, profiles), or that name the same file twice. `db` itself is
    checked by the caller: written by `run`, only read by `report`."""
    named = [(p, f) for p, f in outputs if p is not None]
    for path, flag in named:
        check_output(path, flag)
        for given, input_flag in inputs:
            if given is not None and same_file(path, Path(given)):
                raise ConfigError(
                    f"{flag} {path} would overwrite the input {input_flag} {given}; "
                    "give another file name"
                )
    if db is not None:
        sidecars = [Path(f"{db}{end}") for end in ("", "-wal", "-journal", "-shm")]
        for path, flag in named:
            if any(same_file(path, s) for s in sidecars):
                raise ConfigError(
                    f"{flag} {path} would overwrite the results database (--db {db}) and every "
                    "run stored in it; give another file name"
                )
    for i, (path, flag) in enumerate(named):
        for other, other_flag in named[i + 1 :]:
            if same_file(path, other):
                raise ConfigError(
                    f"{flag} {path} and {other_flag} {other} name the same file; give each its own"
                )


def suite_files(tasks_dir: Path, limit: int = 100_000) -> tuple[tuple[Path, str], ...]:
    """The files a task directory's suite is read from (tasks, tools, suite.yaml), as inputs an
    output must not overwrite; the flag named is the directory argument."""
    if not tasks_dir.is_dir():
        return ()
    found: list[tuple[Path, str]] = []
    for path in tasks_dir.rglob("*"):
        if path.suffix in (".yaml", ".yml") and path.is_file():
            found.append((path, "TASKS_DIR"))
            if len(found) >= limit:
                break
    return tuple(found)


def same_file(a: Path, b: Path) -> bool:
    """Same file, through relative paths, `..`, symlinks and hard links."""
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return False


def check_output(path: Path | None, flag: str) -> None:
    """Refuse, before anything runs, an output path that cannot be written."""
    if path is None:
        return
    if path.is_dir():
        raise ConfigError(f"{flag} {path}: that is a directory; give a file name")
    if flag == "--db" and path.exists() and path.stat().st_size and not _is_sqlite(path):
        raise ConfigError(
            f"--db {path}: not an agentbench database (not SQLite); give another path"
        )
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ConfigError(f"{flag} {path}: the folder {parent} does not exist; create it first")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ConfigError(f"{flag} {path}: not writable")


def check_db_exists(db: Path) -> None:
    """Commands that read results refuse a database that is not there (sqlite would create it)."""
    if not db.exists():
        raise ConfigError(f"--db {db}: no such database; `agentbench run` creates it")
    if db.is_dir():
        raise ConfigError(f"--db {db}: that is a directory; give the database file")
    check_database(db)  # read-only: another program's SQLite file is refused, not altered


@contextmanager
def writing(path: Path, flag: str) -> Iterator[None]:
    """Around a writer of an output file: an OS error becomes one line naming the flag."""
    try:
        yield
    except OSError as exc:
        raise ConfigError(f"{flag} {path}: cannot write it ({exc.strerror})") from exc


def written(path: Path | str, what: str) -> None:
    """The one notice every command prints for a file it wrote."""
    typer.echo(f"written: {path} ({what})")


def write_text(path: Path, text: str, flag: str) -> None:
    """Write an output file; a failure is one line naming the flag."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{flag} {path}: cannot write it ({exc.strerror})") from exc


def _is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False
