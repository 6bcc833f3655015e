"""The embedded engine's errors in PostgreSQL's words and psql's layout.

DuckDB says `Catalog Error: Table with name x does not exist!`; a PostgreSQL server says
`relation "x" does not exist`, and psql shows where, with the statement's line and a caret:

    ERROR:  relation "x" does not exist
    LINE 1: SELECT * FROM x
                          ^

The common errors a model meets (a missing table or view, a missing column, a syntax error) are
translated; any other keeps the engine's text behind psql's `ERROR:  ` prefix.
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
)


def postgres_error(engine_message: str, statement: str) -> str:
    """psql's text for an engine error on `statement` (ends with a newline)."""
    first = engine_message.split("\n")[0].strip()
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
