"""Which statements of an SQL text write, by the engine's own parser: the SQL half of the
read/write classifier (`psql -c`, a heredoc into psql, the `sql_query` tool)."""

from __future__ import annotations

import re

from agentbench.sim.sql.classify import SqlSyntaxError, split_statements

# Statement types that change nothing (DuckDB's names); anything else is a write.
_SQL_SESSION = frozenset({"set", "reset", "pragma"})  # refused, but no write
_SQL_WRITE_WORDS = re.compile(
    r"\b(INSERT|UPDATE|DELETE|MERGE|UPSERT|DROP|ALTER|CREATE|TRUNCATE|GRANT|REVOKE|COPY|"
    r"VACUUM|REINDEX|CLUSTER|COMMENT|ATTACH|DETACH|EXPORT|IMPORT|INSTALL|LOAD|CHECKPOINT)\b",
    re.IGNORECASE,
)


def sql_writes(sql: str) -> list[tuple[str, str]]:
    """(statement, why) for each statement of `sql` that writes or reaches outside the database,
    as sim/sql/classify.py says (the engine's parser, and its parse tree for a write in a CTE)."""
    try:
        statements = split_statements(sql)
    except SqlSyntaxError:
        unquoted = re.sub(r"'(?:[^']|'')*'|\"[^\"]*\"|--[^\n]*|/\*.*?\*/", " ", sql, flags=re.S)
        words = sorted({m.upper() for m in _SQL_WRITE_WORDS.findall(unquoted)})
        return [(" ".join(sql.split())[:120], f"SQL {w} (unparsed)") for w in words[:1]]
    out: list[tuple[str, str]] = []
    for statement in statements:
        if statement.kind == "write" or (
            statement.kind == "refused" and statement.verb not in _SQL_SESSION
        ):
            why = f"SQL {statement.verb.upper()}"
            if statement.type in ("SELECT", "EXPLAIN"):  # a write the statement type hides
                why += f" (inside {statement.type}, which runs it)"
            out.append((" ".join(statement.text.split())[:120], why))
    return out
