"""The embedded engine's errors in PostgreSQL's words and psql's layout.

DuckDB says `Catalog Error: Table with name x does not exist!`; a PostgreSQL server says
`relation "x" does not exist`, and psql shows where, with the statement's line and a caret:

    ERROR:  relation "x" does not exist
    LINE 1: SELECT * FROM x
                          ^

The common errors a model meets (a missing table, view, column or function, a syntax error, a
statement timeout, out of memory, a file function the sandbox refuses) are translated; any other
keeps the engine's text behind psql's `ERROR:  ` prefix.
"""

from __future__ import annotations

import re

_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"^Catalog Error: (?:Table|View|Table Function) with name ([\w.\"]+) does not exist"
        ),
        'relation "{0}" does not exist',
    ),
    (
        re.compile(r'^Binder Error: Referenced column "([^"]+)" not found'),
        'column "{0}" does not exist',
    ),
    (
        re.compile(r'^Binder Error: Table "([^"]+)" does not have a column named "([^"]+)"'),
        "column {0}.{1} does not exist",
    ),
    (
        re.compile(r'^Parser Error: syntax error at or near "([^"]*)"'),
        'syntax error at or near "{0}"',
    ),
    (re.compile(r"^Parser Error: syntax error at end of input"), "syntax error at end of input"),
    (
        re.compile(r"^Catalog Error: (?:Scalar|Table|Aggregate) Function with name (\w+) does not"),
        "function {0} does not exist",
    ),
    (re.compile(r"^INTERRUPT Error"), "canceling statement due to statement timeout"),
    (re.compile(r"^Out of Memory Error"), "out of memory"),
)
# PostgreSQL built-ins of the server and session (notify, sleep, backends, WAL, sizes, locks,
# settings) that the embedded engine lacks: a call to one is not simulated (off-script), never
# "function does not exist", which a PostgreSQL server would not say.
POSTGRES_ONLY = frozenset(
    {
        "pg_notify", "pg_sleep", "pg_sleep_for", "pg_sleep_until", "pg_terminate_backend",
        "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile", "pg_backend_pid",
        "pg_current_wal_lsn", "pg_last_wal_receive_lsn", "pg_last_wal_replay_lsn",
        "pg_wal_lsn_diff", "pg_last_xact_replay_timestamp", "pg_switch_wal", "pg_promote",
        "pg_create_restore_point", "pg_postmaster_start_time", "pg_conf_load_time",
        "pg_database_size", "pg_relation_size", "pg_total_relation_size", "pg_table_size",
        "pg_indexes_size", "pg_size_pretty", "pg_advisory_lock", "pg_advisory_unlock",
        "pg_try_advisory_lock", "pg_advisory_xact_lock", "txid_current", "pg_current_xact_id",
        "set_config", "inet_server_addr", "inet_client_addr", "pg_export_snapshot",
        "pg_stat_reset", "pg_get_viewdef", "pg_get_indexdef", "pg_get_functiondef",
        "has_table_privilege", "dblink", "dblink_exec", "lo_import", "lo_export",
    }
)  # fmt: skip
_MISSING_FUNCTION = re.compile(
    r"^Catalog Error: (?:Scalar|Table|Aggregate) Function with name (\w+)"
)


def postgres_only_function(engine_message: str) -> str | None:
    """The PostgreSQL built-in the engine said it lacks, or None."""
    match = _MISSING_FUNCTION.match(engine_message.split("\n")[0].strip())
    name = match.group(1).lower() if match else ""
    return name if name in POSTGRES_ONLY else None


# a function the sandbox keeps from the host's files (the engine says only which path)
_FILE_FUNCTION = re.compile(r'(?<![\w.])"?((?:read|parquet|sniff|csv|json)_?\w*|glob)"?\s*\(', re.I)


def postgres_error(engine_message: str, statement: str) -> str:
    """psql's text for an engine error on `statement` (ends with a newline)."""
    first = engine_message.split("\n")[0].strip()
    if first.startswith("Permission Error"):
        called = _FILE_FUNCTION.search(statement)
        if called is not None:
            return f"ERROR:  permission denied for function {called.group(1).lower()}\n"
        return "ERROR:  permission denied: the server's files and network are not accessible\n"
    for pattern, template in _RULES:
        match = pattern.match(first)
        if match is None:
            continue
        names = [g.strip('"') for g in match.groups()]
        text = f"ERROR:  {template.format(*names)}\n"
        return text + _position(statement, names, at_end="end of input" in template)
    message = engine_message.split("\n\nLINE")[0].split("\nLINE")[0]
    return f"ERROR:  {message}\n"


def _position(statement: str, names: list[str], at_end: bool) -> str:
    """`LINE n: <line>` and a caret under the name (`alias.column` for a qualified column),
    or after the last character; nothing when the name is not in the statement."""
    lines = statement.split("\n")
    if at_end:
        number, column = len(lines), len(lines[-1].rstrip())
    else:
        if not names:
            return ""
        words = r"\s*\.\s*".join(re.escape(n) for n in names)
        pattern = re.compile(rf"(?<![\w.]){words}(?!\w)", re.I)
        found = next(
            ((i + 1, m.start()) for i, line in enumerate(lines) if (m := pattern.search(line))),
            None,
        )
        if found is None:
            return ""
        number, column = found
    label = f"LINE {number}: "
    return f"{label}{lines[number - 1]}\n{' ' * (len(label) + column)}^\n"
