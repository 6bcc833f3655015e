"""Task-file names and column types, checked before any of them becomes SQL.

A table, column or view name is a PostgreSQL identifier (a letter or `_`, then letters, digits,
`_`; at most 63 characters) and is double-quoted wherever the engine sees it. A column type is
one of the type names below, optionally with a precision (`varchar(20)`, `numeric(10,2)`) and
array brackets (`text[]`); anything else (`int); COPY …`) is refused when the task file loads,
so nothing a task file says is pasted into SQL unchecked.
"""

from __future__ import annotations

import re

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
_TYPE = re.compile(r"([a-z][a-z0-9 ]*?)\s*(\(\s*\d{1,3}\s*(?:,\s*\d{1,3}\s*)?\))?\s*((?:\[\])*)")
# PostgreSQL type names DuckDB spells differently; numeric keeps cents as psql shows them.
_RENAMED = {
    "numeric": "DECIMAL(18,2)",
    "serial": "INTEGER",
    "bigserial": "BIGINT",
    "smallserial": "SMALLINT",
    "jsonb": "JSON",
    "money": "DECIMAL(18,2)",
    "bytea": "BLOB",
    "timestamptz": "TIMESTAMPTZ",
    "timestamp with time zone": "TIMESTAMPTZ",
    "timestamp without time zone": "TIMESTAMP",
    "time without time zone": "TIME",
    "character varying": "VARCHAR",
    "character": "VARCHAR",
    "char": "VARCHAR",
    "double precision": "DOUBLE",
}
_KNOWN = {
    *_RENAMED,
    "text",
    "varchar",
    "bigint",
    "int8",
    "integer",
    "int",
    "int4",
    "smallint",
    "int2",
    "boolean",
    "bool",
    "date",
    "time",
    "timestamp",
    "interval",
    "real",
    "float4",
    "float",
    "float8",
    "double",
    "decimal",
    "json",
    "uuid",
    "blob",
    "hugeint",
    "ubigint",
    "uinteger",
    "tinyint",
}


def check_identifier(name: str) -> str:
    """`name` when it is a plain identifier; ValueError saying what is allowed otherwise."""
    if not IDENTIFIER.fullmatch(name):
        raise ValueError(
            f"{name[:40]!r} is not a SQL identifier (a letter or _, then letters, digits or _; "
            "at most 63 characters)"
        )
    return name


def quoted(name: str) -> str:
    """The identifier double-quoted for the engine (checked first: never pasted raw)."""
    return '"' + check_identifier(name).replace('"', '""') + '"'


def engine_type(sql_type: str) -> str:
    """The engine's spelling of a declared column type; ValueError for anything that is not a
    known type name with an optional precision and array brackets."""
    text = " ".join(sql_type.strip().lower().split())
    match = _TYPE.fullmatch(text)
    if match is None or match.group(1) not in _KNOWN:
        raise ValueError(
            f"{sql_type[:40]!r} is not a column type (e.g. text, bigint, integer, numeric, "
            "numeric(10,2), timestamptz, date, boolean, jsonb, text[])"
        )
    base, size, arrays = match.groups()
    if size is None:
        return _RENAMED.get(base, base.upper()) + arrays
    size = size.replace(" ", "")
    if base in ("numeric", "decimal"):
        return "DECIMAL" + size + arrays
    if base in ("varchar", "character varying", "character", "char"):
        return "VARCHAR" + arrays  # the engine keeps no length limit; psql shows the declared one
    raise ValueError(f"{sql_type[:40]!r}: only numeric, decimal and varchar take a size")
