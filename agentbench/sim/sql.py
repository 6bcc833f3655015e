"""SQL on a real embedded engine: the task's tables in an in-memory DuckDB, one per episode.

Any query runs for real, so every correct formulation (half-open ranges, `date_trunc`,
`BETWEEN ... 23:59:59.999999`, `AT TIME ZONE`) returns the true figure and every wrong one its
own wrong figure. Results print like psql's aligned table with `(N rows)`; errors are PostgreSQL's
text in psql's layout (sql_errors.py). A read's identity is its columns and sorted rows
(sql_identity.py: two queries that read the same rows are the same read); a write is a
`Change` per statement (on a declared read-only replica it fails with PostgreSQL's error).
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from agentbench.sim.base import Change, CommandResult
from agentbench.sim.budget import fetch_rows
from agentbench.sim.spec import SqlSpec
from agentbench.sim.sql_engine import drop_database, episode_database
from agentbench.sim.sql_errors import postgres_error
from agentbench.sim.sql_identity import read_identity

# DuckDB's type names as PostgreSQL's catalog spells them (information_schema answers).
_PG_TYPES = {
    "BIGINT": "bigint",
    "INTEGER": "integer",
    "SMALLINT": "smallint",
    "VARCHAR": "text",
    "BOOLEAN": "boolean",
    "DATE": "date",
    "DOUBLE": "double precision",
    "FLOAT": "real",
    "TIMESTAMP WITH TIME ZONE": "timestamp with time zone",
    "TIMESTAMP": "timestamp without time zone",
    "DECIMAL(18,2)": "numeric",
    "JSON": "jsonb",
    "INTERVAL": "interval",
    "UUID": "uuid",
}
_CONTROL = re.compile(r"^\s*(begin|start|commit|end|rollback|abort)\b(?!\s*[;(]?\s*\w+\s*\()", re.I)
_WRITE = re.compile(r"^\s*(insert|update|delete|drop|alter|create|truncate|merge|copy)\b", re.I)
_TARGET = re.compile(
    r"^\s*(?:insert\s+into|update|delete\s+from|drop\s+table(?:\s+if\s+exists)?|alter\s+table|truncate(?:\s+table)?|create\s+(?:table|view|index)(?:\s+\w+)?(?:\s+on)?)\s+([\w.\"]+)",
    re.I,
)


def _column_name(name: str) -> str:
    """PostgreSQL names an unaliased call by its function (`sum`, `count`), not its text."""
    match = re.fullmatch(r"(\w+)\(.*\)", name, re.S)
    if not match:
        return name if re.fullmatch(r"\w+", name) else "?column?"
    return {"count_star": "count"}.get(match.group(1), match.group(1))


def cell(value: Any) -> str:
    """A value as psql prints it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, dt.datetime):
        text = value.strftime("%Y-%m-%d %H:%M:%S")
        if value.microsecond:
            text += f".{value.microsecond:06d}".rstrip("0")
        if value.tzinfo is not None:
            offset = value.utcoffset() or dt.timedelta()
            hours = int(offset.total_seconds() // 3600)
            text += f"{'+' if hours >= 0 else '-'}{abs(hours):02d}"
        return text
    if isinstance(value, dt.timedelta):
        days, seconds = value.days, value.seconds
        clock = f"{seconds // 3600:02}:{seconds % 3600 // 60:02}:{seconds % 60:02}"
        if days and not seconds:
            return f"{days} day{'s' if abs(days) != 1 else ''}"
        return f"{days} days {clock}" if days else clock
    if isinstance(value, float):
        return repr(value) if value != int(value) else str(int(value))
    return str(value)


def aligned(columns: list[str], rows: list[tuple[Any, ...]]) -> str:
    """psql's aligned format: centred headers, numbers right-aligned, `(N rows)`."""
    texts = [[cell(v) for v in row] for row in rows]
    numeric = [
        bool(rows)
        and all(
            (isinstance(r[i], int | float | Decimal) and not isinstance(r[i], bool)) or r[i] is None
            for r in rows
        )
        for i in range(len(columns))
    ]
    widths = [max([len(c)] + [len(t[i]) for t in texts]) for i, c in enumerate(columns)]
    heads = [
        " " * ((w - len(c)) // 2) + c + " " * (w - len(c) - (w - len(c)) // 2)
        for c, w in zip(columns, widths, strict=True)
    ]
    lines = [(" " + " | ".join(heads)).rstrip()]
    lines.append("+".join("-" * (w + 2) for w in widths))
    for t in texts:
        cells = [
            v.rjust(w) if numeric[i] else v.ljust(w)
            for i, (v, w) in enumerate(zip(t, widths, strict=True))
        ]
        lines.append((" " + " | ".join(cells)).rstrip())
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines) + "\n"


class Database:
    """One episode's copy of the declared tables (see sql_engine.py: loaded once, copied per
    episode; dropped when the episode's World is)."""

    def __init__(self, spec: SqlSpec) -> None:
        import duckdb

        self.spec = spec
        self.error_types: tuple[type[Exception], ...] = (duckdb.Error,)
        self.name, self.conn = episode_database(self.spec)

    def _written(
        self, statement: str, verb: str, touched: list[tuple[Any, ...]] | None
    ) -> tuple[list[str], list[tuple[Any, ...]], CommandResult]:
        target = _TARGET.match(statement)
        table = target.group(1).strip('"') if target else "?"
        keys = sorted(cell(row[0]) for row in touched) if touched is not None else []
        count = len(touched) if touched is not None else None
        detail = f"{count} row{'s' if count != 1 else ''}" if count is not None else ""
        if keys:
            detail += ": " + ", ".join(keys[:10]) + (" ..." if len(keys) > 10 else "")
        tag = {
            "insert": f"INSERT 0 {count}",
            "update": f"UPDATE {count}",
            "delete": f"DELETE {count}",
        }
        out = tag.get(verb, verb.upper() + " TABLE") + "\n"
        change = Change("sql", verb, table, detail)
        identity = ("sql", verb, table, *keys)
        return [], [], CommandResult(stdout=out, identity=identity, changes=[change])

    def snapshot(self) -> object:
        """A dry run works on a copy of the episode's database, dropped by `restore`."""
        token = (self.name, self.conn)
        self.name, self.conn = episode_database(self.spec, source=self.name)
        return token

    def restore(self, token: object) -> None:
        assert isinstance(token, tuple)
        drop_database(self.spec, self.name)
        self.name, self.conn = token

    def run(
        self, sql: str, replica: bool = False
    ) -> tuple[list[str], list[tuple[Any, ...]], CommandResult]:
        """(columns, rows, result with identity/changes or the error) of one query text;
        `replica`: as a hot-standby replica answers it (read-only, in recovery)."""
        if replica:
            self.conn.execute(f"SET search_path = '{self.name}.replica,{self.name}.main'")
            try:
                return self._run(sql, read_only=True)
            finally:
                self.conn.execute(f"SET search_path = '{self.name}.main'")
        return self._run(sql, read_only=self.spec.read_only)

    def _run(
        self, sql: str, read_only: bool
    ) -> tuple[list[str], list[tuple[Any, ...]], CommandResult]:
        statement = sql.strip().rstrip(";").strip()
        if not statement:  # psql sends nothing for an empty command
            return [], [], CommandResult()
        parts = [p for p in statement.split(";") if p.strip()]
        # BEGIN/COMMIT around statements: the episode's own transaction stays open, so only the
        # statements between them run; a control statement alone gets psql's echoed tag.
        body = [p for p in parts if not _CONTROL.match(p)]
        if not body:
            control = _CONTROL.match(parts[-1])
            assert control is not None
            tag = {"start": "BEGIN", "end": "COMMIT", "abort": "ROLLBACK"}.get(
                control.group(1).lower(), control.group(1).upper()
            )
            return [], [], CommandResult(stdout=f"{tag}\n")
        if len(body) < len(parts):
            parts, statement = body, ";".join(body).strip()
        writes = [m for m in (_WRITE.match(p) for p in parts) if m]
        if writes and read_only:
            verb = writes[0].group(1).upper()
            text = f"ERROR:  cannot execute {verb} in a read-only transaction\n"
            result = CommandResult(
                stderr=text, exit_code=1, identity=("sql", "write", "!read-only")
            )
            return [], [], result
        write = _WRITE.match(parts[-1]) if parts else None
        # an INSERT/UPDATE/DELETE reports the rows it touched (their first column): what it meant
        returning = (
            write is not None
            and write.group(1).lower() in ("insert", "update", "delete")
            and not re.search(r"\breturning\b", parts[-1], re.I)
        )
        try:
            cursor = self.conn.execute(statement + (" RETURNING *" if returning else ""))
            columns = [_column_name(d[0]) for d in cursor.description or []]
            rows = fetch_rows(cursor, len(columns)) if columns else []
        except self.error_types as exc:
            text = postgres_error(str(exc), statement)
            return [], [], CommandResult(stderr=text, exit_code=1, identity=None)
        if write is not None:
            verb = write.group(1).lower()
            touched = rows if verb in ("insert", "update", "delete") else None
            written = self._written(parts[-1], verb, touched)
            if not returning and columns:  # the statement's own RETURNING: psql prints the rows
                written[2].stdout = aligned(columns, rows) + written[2].stdout
            return written
        if "information_schema" in statement.lower():
            rows = [
                tuple(_PG_TYPES.get(v, v) if isinstance(v, str) else v for v in r) for r in rows
            ]
        identity = read_identity(columns, [[cell(v) for v in row] for row in rows])
        return columns, rows, CommandResult(identity=identity)

    def query(self, sql: str) -> CommandResult:
        """The `sql_query` tool: psql's aligned table, or the error."""
        columns, rows, result = self.run(sql)
        if columns:
            result.stdout = aligned(columns, rows)
        return result
