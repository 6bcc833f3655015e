"""The process one episode's database runs in: DuckDB with no file, network or extension access,
its configuration locked, and operating-system limits on memory and file writes.

Settings (`CONFIG`, checked against DuckDB 2.0's `duckdb_settings()`): `enable_external_access`
off (no file, URL, `ATTACH` of a file, `COPY`, `EXPORT`, `INSTALL`/`LOAD`), extension
auto-install and auto-load off, community and unsigned extensions off, persistent secrets off,
Python replacement scans off (no SQL can name a variable of the harness), one thread, a
memory limit and no temporary directory to spill to; `lock_configuration` is set before any
task or model SQL runs, so no `SET` can undo them. Some DuckDB functions allocate outside that
memory limit (`repeat`, `lpad`, `replace`, `range` as a list), so the process itself runs
under `RLIMIT_AS` (an allocation over it fails as the engine's out-of-memory error) and
`RLIMIT_FSIZE` 0 (no file can grow), with an empty environment. A statement is interrupted
after the declared timeout; results are fetched up to `MAX_ROWS` rows and `MAX_BYTES` of cell
text. The parent (sql/engine.py) kills the process when it does not answer in time. Engine
processes are forked by `fork_server`, which the harness starts once with an empty environment,
so no variable of the harness (an API key) exists in an engine process at all.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import socket
import sys
import threading
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import duckdb

CONFIG: dict[str, Any] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "allow_unsigned_extensions": False,
    "allow_persistent_secrets": False,
    "python_enable_replacements": False,
    "threads": 1,
    "memory_limit": "128MB",
    "max_temp_directory_size": "0B",
    "temp_directory": "",
}
ADDRESS_SPACE = 1024 * 2**20  # bytes of virtual memory the engine process may map
MAX_ROWS = 50_000  # rows fetched of one result; more is psql's "out of memory for query result"
MAX_BYTES = 8 * 2**20  # characters of cell text fetched of one result


@dataclass(frozen=True)
class Table:
    """A declared table as the engine loads it: quoted name, (quoted column, type) pairs, and
    each column's values as text (None: NULL), cast by the engine as its CSV reader would."""

    name: str
    columns: tuple[tuple[str, str], ...]
    values: tuple[tuple[str | None, ...], ...]


@dataclass(frozen=True)
class Setup:
    """Everything an episode's database starts from (built once per task: sql/engine.py)."""

    tables: tuple[Table, ...] = ()
    views: tuple[tuple[str, str], ...] = field(default=())  # (quoted name, checked SELECT)
    timeout_s: float = 10.0
    now: str = "2026-11-29 09:30:00.000000+00"  # the server clock, UTC (sql/engine.py formats it)


def _clock_macros(now: str) -> list[str]:
    """The task's clock in place of the machine's: every function PostgreSQL or DuckDB reads
    the time with is a macro (in `main`, found before the built-in) of the declared moment."""
    day, time = now[:10], now[11:26]
    stamp = f"TIMESTAMPTZ '{now}'"
    values = {
        "now": stamp,
        "get_current_timestamp": stamp,  # current_timestamp
        "transaction_timestamp": stamp,
        "statement_timestamp": stamp,
        "clock_timestamp": stamp,
        "current_date": f"DATE '{day}'",
        "today": f"DATE '{day}'",
        "get_current_time": f"TIMETZ '{time}+00'",  # current_time
        "current_localtime": f"TIME '{time}'",  # localtime
        "current_localtimestamp": f"TIMESTAMP '{day} {time}'",  # localtimestamp
    }
    return [f"CREATE MACRO {name}() AS {value}" for name, value in values.items()]


def _die_with_parent() -> None:
    """SIGKILL when the parent process goes (Linux PR_SET_PDEATHSIG)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)


def _confine() -> None:
    _die_with_parent()
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, not kills
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    os.environ.clear()


def _build(setup: Setup) -> tuple[Any, Any]:
    """(primary, replica) connections of a fresh database holding the declared tables."""
    conn = duckdb.connect(":memory:", config=dict(CONFIG))
    conn.execute("SET TimeZone = 'UTC'")
    for table in setup.tables:
        conn.execute(
            f"CREATE TABLE {table.name} ({', '.join(f'{c} {t}' for c, t in table.columns)})"
        )
        if table.values and table.values[0]:
            casts = ", ".join(
                f"unnest(${i + 1}::VARCHAR[])::{t}" for i, (_, t) in enumerate(table.columns)
            )
            conn.execute(
                f"INSERT INTO {table.name} SELECT {casts}", [list(v) for v in table.values]
            )
    # PostgreSQL's recovery flag: false on the primary, true through the replica schema
    conn.execute("CREATE MACRO pg_is_in_recovery() AS false")
    conn.execute("CREATE SCHEMA replica")
    conn.execute("CREATE MACRO replica.pg_is_in_recovery() AS true")
    for macro in _clock_macros(setup.now):
        conn.execute(macro)
    conn.execute("SET lock_configuration = true")
    replica = conn.cursor()
    replica.execute("SET search_path = 'replica,main'")
    for name, select in setup.views:  # task SQL: only once the engine is locked
        conn.execute(f"CREATE VIEW {name} AS {select}")
    return conn, replica


def _size(value: Any) -> int:
    return len(value) if isinstance(value, str | bytes) else len(str(value))


def _execute(conn: Any, statements: list[str], timeout_s: float) -> tuple[Any, ...]:
    """Run the statements in order; the last one's (columns, rows), or the error and how many
    statements had succeeded before it."""
    if not statements:
        return ("ok", [], [])
    timer = threading.Timer(timeout_s, conn.interrupt)
    timer.start()
    done = 0
    try:
        for statement in statements:
            cursor = conn.execute(statement)
            done += 1
        columns = [d[0] for d in cursor.description or []]
        rows: list[tuple[Any, ...]] = []
        budget = MAX_BYTES
        while columns:
            chunk = cursor.fetchmany(1000)
            if not chunk:
                break
            rows += chunk
            budget -= sum(_size(v) for row in chunk for v in row if v is not None)
            if len(rows) > MAX_ROWS or budget < 0:
                return ("too_large", done)
        return ("ok", columns, rows)
    except duckdb.Error as exc:
        return ("error", str(exc), done)
    except MemoryError:
        return ("error", "Out of Memory Error: the result does not fit", done)
    finally:
        timer.cancel()
        timer.join()


def fork_server(control: socket.socket) -> None:
    """Fork one engine process per request: each request on `control` carries the socket the
    new engine talks over; the answer is its pid (8 bytes). Runs in a process started with an
    empty environment (sql/engine.py) that has imported DuckDB but never opened it, so every
    fork starts clean; it ends when the harness closes `control` (or dies: the kernel closes it;
    no parent-death signal, which would follow the harness thread that started it)."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # engines are reaped by the kernel
    while True:
        try:
            _, fds, _, _ = socket.recv_fds(control, 1, 1)
        except OSError:
            return
        if not fds:
            return
        pid = os.fork()
        if pid == 0:
            control.close()
            try:
                serve(Connection(fds[0]))
            finally:
                os._exit(0)
        os.close(fds[0])
        control.sendall(pid.to_bytes(8, "little"))


def serve(pipe: Connection) -> None:
    """The engine process: build the database, then answer requests until told to close.
    ("run", statements, replica) -> ("ok", columns, rows) | ("error", message, done) |
    ("too_large", done); ("begin",) and ("rollback",) bracket a dry run."""
    _confine()
    try:
        setup: Setup = pipe.recv()
        primary, replica = _build(setup)
    except (duckdb.Error, MemoryError, EOFError) as exc:
        pipe.send(("error", str(exc).split("\n")[0]))
        return
    pipe.send(("ready",))
    dry: list[tuple[list[str], bool]] | None = None  # what ran since BEGIN, to replay
    while True:
        try:
            message = pipe.recv()
        except EOFError:
            return
        if message[0] == "close":
            return
        if message[0] in ("begin", "rollback"):
            try:
                if dry is not None:
                    primary.execute("ROLLBACK")
                if message[0] == "begin":
                    primary.execute("BEGIN")
            except duckdb.Error:
                pass  # no transaction to end: nothing ran in it
            dry = [] if message[0] == "begin" else None
            pipe.send(("ok",))
            continue
        try:
            pipe.send(_answer(message, primary, replica, setup, dry))
        except Exception as exc:  # never a traceback from the engine process: say what failed
            pipe.send(("error", f"{type(exc).__name__}: {exc}", 0))


def _answer(
    message: tuple[Any, ...],
    primary: Any,
    replica: Any,
    setup: Setup,
    dry: list[tuple[list[str], bool]] | None,
) -> tuple[Any, ...]:
    """One ("run", statements, on_replica) request; inside a dry run, `dry` keeps what ran."""
    statements, on_replica = message[1], message[2]
    reply = _execute(replica if on_replica else primary, statements, setup.timeout_s)
    if dry is not None and reply[0] != "ok":
        # an error aborts a transaction but not psql's autocommit: start the dry run's
        # transaction again with what had succeeded in it
        primary.execute("ROLLBACK")
        primary.execute("BEGIN")
        dry.append((statements[: reply[-1]], on_replica))
        for done, where in dry:
            _execute(replica if where else primary, done, setup.timeout_s)
    elif dry is not None:
        dry.append((statements, on_replica))
    return reply


if __name__ == "__main__":
    fork_server(socket.socket(fileno=int(sys.argv[1])))
