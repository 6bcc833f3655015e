"""One episode's database: its own engine process (sql/sandbox.py), started on first use.

Nothing is shared between episodes: each `Session` gets a fresh DuckDB instance in its own
process, built from the task's declared rows, so no statement can name another episode's
database or the rows it is built from (those stay in this process, as text). A dry run
(`World.identify`) runs inside a transaction that is rolled back. A process that does not
answer within the statement timeout (plus a grace) is killed; the next call starts a fresh one
and replays the episode's writes, as a restarted server keeps what was committed.

Engine processes come from a fork server (sql_sandbox.fork_server) started once with an empty
environment; it has imported DuckDB but never opened it, so a start costs a fork and the load,
and no engine is forked from the threaded harness itself or inherits its variables.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import weakref
from multiprocessing.connection import Connection
from typing import Any

from agentbench.sim.core.spec import clock_of
from agentbench.sim.sql.names import engine_type, quoted
from agentbench.sim.sql.sandbox import Setup, Table
from agentbench.sim.sql.spec import SqlSpec

GRACE_S = 3.0  # after the statement timeout, how long the engine may take to say so
SETUP_TIMEOUT_S = 60.0
_LOCK = threading.Lock()
_SERVER: list[tuple[subprocess.Popen[bytes], socket.socket]] = []


class EngineLost(Exception):
    """The engine process did not answer in time ("timeout") or died ("crashed")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _values(text: str) -> list[list[str | None]]:
    """Rows of CSV text (no header); an empty field is NULL."""
    return [[v if v != "" else None for v in row] for row in csv.reader(io.StringIO(text))]


def setup_of(spec: SqlSpec) -> Setup:
    """What every episode of `spec` starts from, built once and kept with the declaration."""
    with _LOCK:
        built = spec.engine_cache()
        if isinstance(built, Setup):
            return built
        tables = []
        for name, table in spec.tables.items():
            columns = tuple((quoted(c), engine_type(t)) for c, t in table.columns.items())
            if table.csv is not None:
                text = table.csv.strip()
                rows = _values(text.split("\n", 1)[1] if "\n" in text else "")
            else:
                rows = [[None if v is None or v == "" else str(v) for v in r] for r in table.rows]
            values = tuple(
                tuple(r[i] if i < len(r) else None for r in rows) for i in range(len(columns))
            )
            tables.append(Table(quoted(name), columns, values))
        views = tuple((quoted(name), select) for name, select in spec.views.items())
        now = clock_of(spec.clock).strftime("%Y-%m-%d %H:%M:%S.%f+00")
        setup = Setup(tuple(tables), views, spec.statement_timeout_s, now)
        spec.engine_cache(setup)
        return setup


def _fork_server() -> tuple[subprocess.Popen[bytes], socket.socket]:
    """The process that forks engines (sql_sandbox.fork_server), started once, with an empty
    environment and the harness's import path."""
    if _SERVER and _SERVER[0][0].poll() is None:
        return _SERVER[0]
    mine, theirs = socket.socketpair()
    path = os.pathsep.join(p for p in sys.path if p)
    process = subprocess.Popen(
        [sys.executable, "-m", "agentbench.sim.sql.sandbox", str(theirs.fileno())],
        env={"PYTHONPATH": path, "MALLOC_ARENA_MAX": "2"},  # a thread maps no arena of its own
        pass_fds=(theirs.fileno(),),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # an engine's trouble is answered as an error, never printed
        cwd="/",
    )
    theirs.close()
    _SERVER[:] = [(process, mine)]
    return _SERVER[0]


def _fork() -> tuple[Connection, int]:
    """A new engine process: (the connection to it, its pid)."""
    with _LOCK:
        for attempt in (1, 2):
            _, control = _fork_server()
            mine, theirs = socket.socketpair()
            try:
                socket.send_fds(control, [b"e"], [theirs.fileno()])
                answer = b""
                while len(answer) < 8:
                    part = control.recv(8 - len(answer))
                    if not part:
                        raise OSError("the engine fork server exited")
                    answer += part
            except OSError:
                mine.close()
                _SERVER.clear()
                if attempt == 2:
                    raise
                continue
            finally:
                theirs.close()
            return Connection(mine.detach()), int.from_bytes(answer, "little")
    raise AssertionError("unreachable")


def _stop(pid: int, pipe: Connection) -> None:
    """Ask the engine to exit (it also does when the pipe closes, after its statement's
    timeout at the latest); never signalled here, as its pid may already be another's."""
    with contextlib.suppress(OSError, ValueError):
        pipe.send(("close",))
    pipe.close()


class Engine:
    """A started engine process and the pipe to it."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._pipe, self.pid = _fork()
        self._stop = weakref.finalize(self, _stop, self.pid, self._pipe)
        self.busy = False  # a request is in flight: the process is alive and ours
        try:
            self._pipe.send(setup)
        except OSError as exc:
            self.close()
            raise EngineLost("crashed") from exc
        reply = self._receive(SETUP_TIMEOUT_S)
        if reply[0] != "ready":
            self.close()
            raise RuntimeError(f"the task's tables could not be loaded: {reply[1]}")

    def request(self, *message: Any) -> tuple[Any, ...]:
        """Send one request and wait for its answer; EngineLost (and the process gone) when it
        does not come within the statement timeout and grace."""
        try:
            self._pipe.send(message)
        except (OSError, ValueError) as exc:
            self.close()
            raise EngineLost("crashed") from exc
        self.busy = True
        try:
            return self._receive(self.setup.timeout_s + GRACE_S)
        finally:
            self.busy = False

    def kill(self) -> None:
        """Stop the statement in flight now (an abandoned or cancelled tool call): the engine
        goes and the waiting request gets EngineLost; the next call starts a fresh engine."""
        if self.busy:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)

    def _receive(self, wait_s: float) -> tuple[Any, ...]:
        try:
            if not self._pipe.poll(wait_s):  # alive and not answering: stop it now
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
                self.close()
                raise EngineLost("timeout")
            reply: tuple[Any, ...] = self._pipe.recv()
            return reply
        except (EOFError, OSError) as exc:
            self.close()
            raise EngineLost("crashed") from exc

    def close(self) -> None:
        self._stop()


class Session:
    """One episode's database over the engine processes it needs (usually one)."""

    def __init__(self, spec: SqlSpec) -> None:
        self.spec = spec
        self._engine: Engine | None = None
        self._writes: list[list[str]] = []  # every write that succeeded, to replay after a loss
        self._dry = False

    def run(self, statements: list[str], replica: bool, writes: bool) -> tuple[Any, ...]:
        """("ok", columns, rows) | ("error", message, done) | ("too_large", done) |
        ("lost", reason) for the statements, run in order on the primary or the replica."""
        try:
            reply = self._started().request("run", statements, replica)
        except EngineLost as exc:
            self._engine = None
            return ("lost", exc.reason)
        done = len(statements) if reply[0] == "ok" else reply[-1]
        if writes and done and not self._dry:
            self._writes.append(statements[:done])
        return reply

    def _started(self) -> Engine:
        if self._engine is None:
            engine = Engine(setup_of(self.spec))
            try:
                for statements in self._writes:
                    engine.request("run", statements, False)
            except EngineLost:  # a write that cannot be replayed in time: start from the rows
                self._writes.clear()
                engine = Engine(setup_of(self.spec))
            if self._dry:
                engine.request("begin")
            self._engine = engine
        return self._engine

    def snapshot(self) -> object:
        """Start a dry run: what runs until `restore` is rolled back."""
        self._dry = True
        if self._engine is not None:
            self._bracket("begin")
        return None

    def restore(self, token: object) -> None:
        self._dry = False
        if self._engine is not None:
            self._bracket("rollback")

    def _bracket(self, verb: str) -> None:
        assert self._engine is not None
        try:
            self._engine.request(verb)
        except EngineLost:
            self._engine = None

    def interrupt(self) -> None:
        """Called from another thread when the tool call is cancelled or past its deadline."""
        engine = self._engine
        if engine is not None:
            engine.kill()

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None
