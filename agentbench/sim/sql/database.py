"""SQL on a real embedded engine: the task's tables in an in-memory DuckDB, one per episode.

Any query runs for real, so every correct formulation (half-open ranges, `date_trunc`,
`BETWEEN ... 23:59:59.999999`, `AT TIME ZONE`) returns the true figure and every wrong one its
own wrong figure. Results print like psql's aligned table with `(N rows)`; errors are PostgreSQL's
text in psql's layout (sql/errors.py). A read's identity is its columns and sorted rows
(sql/identity.py: two queries that read the same rows are the same read); a write is a
`Change` per statement (on a declared read-only replica it fails with PostgreSQL's error).
"""

from __future__ import annotations

import datetime as dt
import re
import weakref
from decimal import Decimal
from typing import Any

from agentbench.sim.core.base import Change, CommandResult, NotSimulated
from agentbench.sim.sql.classify import SqlStatement, SqlSyntaxError, split_statements
from agentbench.sim.sql.engine import Session
from agentbench.sim.sql.errors import postgres_error, postgres_only_function
from agentbench.sim.sql.identity import read_identity
from agentbench.sim.sql.spec import SqlSpec

# DuckDB's type names, and the spellings task files declare, as PostgreSQL's catalog spells them
# (information_schema answers, psql's \d): the one table of them.
PG_TYPES = {
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
    "TIMESTAMPTZ": "timestamp with time zone",
    "INT": "integer",
    "INT4": "integer",
    "INT8": "bigint",
    "FLOAT8": "double precision",
    "BOOL": "boolean",
}
_CONTROL_TAGS = {"start": "BEGIN", "end": "COMMIT", "abort": "ROLLBACK"}
_COUNTED = ("insert", "update", "delete")  # writes whose touched rows are reported
MAX_PRINTED = 16 * 2**20  # characters of an aligned table; more is psql's out-of-memory error
_LOST = {
    "timeout": ("ERROR:  canceling statement due to statement timeout\n", 1),
    "crashed": (
        "server closed the connection unexpectedly\n\tThis probably means the server "
        "terminated abnormally\n\tbefore or while processing the request.\n",
        2,
    ),
}
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
    if isinstance(value, dt.datetime | dt.time):  # time with time zone: 09:30:00+00
        text = value.strftime("%H:%M:%S" if isinstance(value, dt.time) else "%Y-%m-%d %H:%M:%S")
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
    """One episode's database (sql/engine.py: its own engine process, started on first use,
    gone with the episode's World)."""

    def __init__(self, spec: SqlSpec) -> None:
        self.spec = spec
        self.session = Session(spec)
        self._prepared: dict[str, tuple[str, str]] = {}
        weakref.finalize(self, self.session.close)

    def snapshot(self) -> object:
        """A dry run works in a transaction of the episode's database, rolled back by `restore`."""
        return self.session.snapshot()

    def restore(self, token: object) -> None:
        self.session.restore(token)

    def interrupt(self) -> None:
        """Stop the statement in flight (another thread: the call was cancelled)."""
        self.session.interrupt()

    def run(
        self, sql: str, replica: bool = False
    ) -> tuple[list[str], list[tuple[Any, ...]], CommandResult]:
        """(columns, rows, result with identity/changes or the error) of one query text;
        `replica`: as a hot-standby replica answers it (read-only, in recovery)."""
        try:
            statements = split_statements(sql, self._prepared)
        except SqlSyntaxError as exc:
            return _failed(postgres_error(str(exc), sql.strip().rstrip(";")))
        if not statements:  # psql sends nothing for an empty command
            return [], [], CommandResult()
        # BEGIN/COMMIT around statements: the episode's own transaction stays open, so only the
        # statements between them run; a control statement alone gets psql's echoed tag.
        body = [s for s in statements if s.kind != "control"]
        if not body:
            verb = statements[-1].verb
            return [], [], CommandResult(stdout=f"{_CONTROL_TAGS.get(verb, verb.upper())}\n")
        refused = next((s for s in body if s.kind == "refused"), None)
        if refused is not None:  # nothing of the text runs, as in one implicit transaction
            assert refused.refusal is not None
            return _failed(refused.refusal, ("sql", refused.verb, "!refused"))
        writes = [s for s in body if s.kind == "write"]
        if writes and (replica or self.spec.read_only):
            text = f"ERROR:  cannot execute {writes[0].verb.upper()} in a read-only transaction\n"
            return _failed(text, ("sql", "write", "!read-only"))
        last = body[-1]
        # an INSERT/UPDATE/DELETE reports the rows it touched (their first column): what it meant
        returning = (
            last.kind == "write"
            and last.type in ("INSERT", "UPDATE", "DELETE")
            and last.verb in _COUNTED
            and not re.search(r"\breturning\b", last.text, re.I)
        )
        texts = [s.text for s in body]
        texts[-1] += " RETURNING *" if returning else ""
        reply = self.session.run(texts, replica, writes=bool(writes))
        statement = sql.strip().rstrip(";").rstrip()  # errors point into the text as sent
        if reply[0] == "lost":
            text, code = _LOST[reply[1]]
            return _failed(text, exit_code=code)
        if reply[0] == "error":
            function = postgres_only_function(reply[1])
            if function is not None:
                raise NotSimulated(f"SQL function {function}()")
            return _failed(postgres_error(reply[1], statement))
        columns = [_column_name(c) for c in reply[1]] if reply[0] == "ok" else []
        rows = reply[2] if reply[0] == "ok" else []
        if reply[0] == "too_large" or _printed_size(columns, rows) > MAX_PRINTED:
            failed = _failed("out of memory for query result\n")  # psql's words for it
            failed[2].limit = "total_bytes"
            return failed
        # every write of the text is a change, not only a last one
        earlier = [Change("sql", s.verb, _table(s)) for s in writes if s is not last]
        if last.kind == "write":
            explained = last.type == "EXPLAIN"  # EXPLAIN ANALYZE of a write: the plan; it ran
            # a write inside a SELECT's CTE returns the SELECT's rows, not the written ones
            inside = last.type == "SELECT"
            touched = rows if last.verb in _COUNTED and not explained and not inside else None
            written = self._written(last, touched)
            if explained or inside:
                written[2].stdout = aligned(columns, rows) if columns else ""
            elif not returning and columns and last.verb in _COUNTED:  # its own RETURNING rows
                written[2].stdout = aligned(columns, rows) + written[2].stdout
            written[2].changes[:0] = earlier
            return written
        if "information_schema" in statement.lower():
            rows = [
                tuple(PG_TYPES.get(v, v) if isinstance(v, str) else v for v in r) for r in rows
            ]
        identity = read_identity(columns, [[cell(v) for v in row] for row in rows])
        return columns, rows, CommandResult(identity=identity, changes=earlier)

    def _written(
        self, statement: SqlStatement, touched: list[tuple[Any, ...]] | None
    ) -> tuple[list[str], list[tuple[Any, ...]], CommandResult]:
        verb, table = statement.verb, _table(statement)
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
        out = (
            tag.get(verb, verb.upper() + " TABLE")
            if count is not None or verb not in tag
            else verb.upper()
        )
        out += "\n"
        change = Change("sql", verb, table, detail)
        identity = ("sql", verb, table, *keys)
        return [], [], CommandResult(stdout=out, identity=identity, changes=[change])

    def query(self, sql: str) -> CommandResult:
        """The `sql_query` tool: psql's aligned table, or the error."""
        try:
            columns, rows, result = self.run(sql)
        except NotSimulated as exc:  # the tool's answer, as Shell.run makes it for a shell line
            return exc.result()
        if columns:
            result.stdout = aligned(columns, rows)
        return result


def _table(statement: SqlStatement) -> str:
    """The table a write names ("?" when the clause names none the pattern knows)."""
    target = _TARGET.match(statement.clause)
    return target.group(1).strip('"') if target else "?"


def _failed(
    text: str, identity: tuple[str, ...] | None = None, exit_code: int = 1
) -> tuple[list[str], list[tuple[Any, ...]], CommandResult]:
    return [], [], CommandResult(stderr=text, exit_code=exit_code, identity=identity)


def _printed_size(columns: list[str], rows: list[tuple[Any, ...]]) -> int:
    """Characters psql's aligned table of these rows takes (every cell padded to its column)."""
    widths = [len(c) for c in columns]
    for row in rows:
        for i, value in enumerate(row):
            widths[i] = max(widths[i], len(cell(value)))
    return (sum(widths) + 3 * len(widths)) * (len(rows) + 3)
