"""Options shared by several commands: one name, one type, one default and one help each.

Also the checks every command runs on them before any work starts: output paths that can be
written, request headers and JSON bodies that parse.
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

from agentbench.errors import ConfigError

DEFAULT_DB = Path("agentbench.db")
DEFAULT_REQUEST_TIMEOUT_S = 300.0
DEFAULT_IDLE_TIMEOUT_S = 60.0


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
        "--request-timeout", min=1.0, help="Seconds one model call may take, first to last byte."
    ),
]
IdleTimeoutOption = Annotated[
    float,
    typer.Option(
        "--idle-timeout",
        min=0.1,
        help="Seconds a stream may go without an event (keep-alives do not count).",
    ),
]
TemperatureOption = Annotated[
    float | None, typer.Option("--temperature", min=0.0, help="Sampling temperature.")
]
TopPOption = Annotated[
    float | None, typer.Option("--top-p", min=0.0, max=1.0, help="Nucleus sampling top_p.")
]
SeedOption = Annotated[int | None, typer.Option("--seed", help="Sampling seed sent to the server.")]
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


def parse_extra_body(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--extra-body is not JSON ({exc.msg} at column {exc.colno})") from exc
    if not isinstance(value, dict):
        raise ConfigError("--extra-body must be a JSON object, e.g. '{\"top_k\": 20}'")
    return value


def parse_headers(items: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition(":")
        if not sep or not name.strip() or any(c in name for c in " \t\r\n"):
            raise ConfigError(f"--header {item.split(':')[0]!r}…: use NAME:VALUE, e.g. X-Team:ops")
        out[name.strip()] = value.strip()
    return out


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
