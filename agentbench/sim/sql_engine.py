"""The DuckDB database of one `sql:` declaration, loaded once and shared by every episode.

Loading is the slow part (a task may declare thousands of rows), so each `SqlSpec` keeps one
in-memory template database; an episode gets its own copy (`COPY FROM DATABASE`, a few
milliseconds) attached to the same connection, works on it in autocommit as psql does (an error
aborts nothing), and the copy is detached when the episode's World goes away. Rows reach DuckDB
through its CSV reader (an empty field is NULL), an order of magnitude faster than row-by-row
inserts.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
import tempfile
import threading
import weakref
from typing import Any

from agentbench.sim.spec import SqlSpec

# PostgreSQL type names DuckDB spells differently; numeric keeps cents as psql shows them.
_TYPES = {
    "numeric": "DECIMAL(18,2)",
    "serial": "INTEGER",
    "bigserial": "BIGINT",
    "jsonb": "JSON",
    "money": "DECIMAL(18,2)",
}
_LOCK = threading.Lock()
_NAMES = itertools.count(1)


def duck_type(sql_type: str) -> str:
    return _TYPES.get(sql_type.strip().lower(), sql_type)


def _csv_text(rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()


def _load(conn: Any, name: str, columns: dict[str, str], text: str) -> None:
    """Rows (CSV without a header) into table `name`, through a private temporary file."""
    if not text.strip():
        return
    types = ", ".join(f"'{c}': '{duck_type(t)}'" for c, t in columns.items())
    handle, path = tempfile.mkstemp(suffix=".csv")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as fh:
            fh.write(text)
        conn.execute(
            f'INSERT INTO "{name}" SELECT * FROM read_csv(?, header = false, '
            f"columns = {{{types}}}, quote = '\"', escape = '\"', nullstr = '')",
            [path],
        )
    finally:
        os.unlink(path)


def engine(spec: SqlSpec) -> Any:
    """The loaded database of `spec` (a DuckDB connection), built on first use."""
    import duckdb

    with _LOCK:
        built = spec.engine_cache()
        if built is not None:
            return built
        conn = duckdb.connect(":memory:")
        conn.execute("SET TimeZone = 'UTC'")
        # PostgreSQL's recovery flag: false on the primary, true through the replica schema
        conn.execute("CREATE MACRO pg_is_in_recovery() AS false")
        conn.execute("CREATE SCHEMA replica")
        conn.execute("CREATE MACRO replica.pg_is_in_recovery() AS true")
        for name, table in spec.tables.items():
            columns = ", ".join(f'"{c}" {duck_type(t)}' for c, t in table.columns.items())
            conn.execute(f'CREATE TABLE "{name}" ({columns})')
            if table.csv is not None:
                body = table.csv.strip().split("\n", 1)[1] if "\n" in table.csv.strip() else ""
                _load(conn, name, table.columns, body + "\n")
            else:
                _load(conn, name, table.columns, _csv_text(table.rows))
        for name, select in spec.views.items():
            conn.execute(f'CREATE VIEW "{name}" AS {select}')
        spec.engine_cache(conn)
        return conn


def episode_database(spec: SqlSpec, source: str = "memory") -> tuple[str, Any]:
    """(name, cursor) of a fresh copy of `source` (the template, or an episode's database)."""
    conn = engine(spec)
    with _LOCK:
        name = f"episode_{next(_NAMES)}"
        conn.execute(f"ATTACH ':memory:' AS {name}")
        conn.execute(f"COPY FROM DATABASE {source} TO {name}")
    cursor = conn.cursor()
    cursor.execute(f"USE {name}")
    cursor.execute("SET TimeZone = 'UTC'")
    weakref.finalize(cursor, drop_database, spec, name)
    return name, cursor


def drop_database(spec: SqlSpec, name: str) -> None:
    """Detach an episode's copy (idempotent)."""
    conn = spec.engine_cache()
    if conn is None:
        return
    with _LOCK:
        conn.execute(f"DETACH DATABASE IF EXISTS {name}")
