"""What each statement of a SQL text is, by the engine's own parser: a read, a write, a
transaction control statement, or one a restricted server refuses.

DuckDB splits the text and names each statement's type (`extract_statements`), so a comment
before a `COPY` (`/**/ COPY … TO '/tmp/x'`), a write behind a CTE (`WITH gone AS (…) DELETE …`)
or `EXPLAIN ANALYZE DELETE …` are what they are, whatever the first word looks like. Statements
that reach outside the database or change the server (`COPY`, `EXPORT`/`IMPORT DATABASE`,
`ATTACH`, `INSTALL`/`LOAD`, `PRAGMA`, `SET`/`RESET`, `CALL`, `CHECKPOINT`) are refused with the
text PostgreSQL gives an unprivileged role or a statement it does not know; nothing of the text
runs then. The engine process is locked down as well (sql/sandbox.py): this is the first wall.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Any

from agentbench.sim.sql.errors import postgres_error

_READS = {"SELECT", "EXPLAIN", "VACUUM", "PREPARE", "EXECUTE"}
_WRITES = {"INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "MERGE_INTO", "CREATE_FUNC"}
_VERBS = {"insert", "update", "delete", "truncate", "create", "drop", "alter", "merge"}
_COPY_HINT = (
    "HINT:  Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.\n"
)
_LOCK = threading.Lock()
_PARSER: list[Any] = []


@dataclass(frozen=True)
class SqlStatement:
    """One statement: `kind` is read, write, control or refused; `verb` its command in lower
    case (select, insert, truncate, copy, …); `text` the statement without the comments around
    it or its `;`; `refusal` PostgreSQL's error for a refused one; `type` the engine's statement
    type (SELECT, DELETE, COPY, …); `clause` a write from its command word on (after any WITH)."""

    kind: str
    verb: str
    text: str
    refusal: str | None = None
    type: str = ""
    clause: str = ""


class SqlSyntaxError(ValueError):
    """The engine's parser rejected the text (its message, for sql/errors.py)."""


def _parser() -> Any:
    """A private engine used only to parse, locked like the episode engines."""
    if not _PARSER:
        import duckdb

        from agentbench.sim.sql.sandbox import CONFIG

        conn = duckdb.connect(":memory:", config=dict(CONFIG))
        conn.execute("SET lock_configuration = true")
        _PARSER.append(conn)
    return _PARSER[0]


def _words(text: str) -> list[tuple[int, str, str]]:
    """(position, type, text) of each token that is not a comment."""
    import duckdb

    tokens = duckdb.tokenize(text)
    out = []
    for i, (pos, kind) in enumerate(tokens):
        end = tokens[i + 1][0] if i + 1 < len(tokens) else len(text)
        out.append((pos, kind.name, text[pos:end].strip()))
    return out


def _trimmed(text: str) -> tuple[str, list[tuple[int, str, str]]]:
    """The statement without leading/trailing comments and `;`, and its tokens."""
    words = _words(text)
    code = [w for w in words if w[1] != "comment"]
    if not code:
        return "", []
    last = words.index(code[-1])
    end = words[last + 1][0] if last + 1 < len(words) else len(text)
    body = text[code[0][0] : end].rstrip()
    body = body[:-1].rstrip() if body.endswith(";") else body
    return body, _words(body)


def _top_level(words: list[tuple[int, str, str]]) -> list[tuple[int, str]]:
    """(position, lower-case keyword) of the keywords outside any parentheses."""
    depth, out = 0, []
    for pos, kind, word in words:
        if word == "(":
            depth += 1
        elif word == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and kind in ("keyword", "identifier"):
            out.append((pos, word.lower().strip('"')))
    return out


def split_statements(
    sql: str, prepared: dict[str, tuple[str, str]] | None = None
) -> list[SqlStatement]:
    """Every statement of `sql`, classified; SqlSyntaxError when the parser rejects it.
    `prepared` (name -> (kind, verb)) carries `PREPARE`d statements across calls."""
    import duckdb

    prepared = {} if prepared is None else prepared
    with _LOCK:
        try:
            parsed = _parser().extract_statements(sql)
        except duckdb.Error as exc:
            raise SqlSyntaxError(str(exc)) from exc
        types = []
        for statement in parsed:
            try:
                types.append((statement.type.name, statement.query))
            except ValueError:  # a statement type this binding has no name for
                types.append(("UNKNOWN", statement.query))
    out = []
    for type_name, query in types:
        text, words = _trimmed(query)
        if text:
            out.append(replace(_classify(type_name, text, words, prepared), type=type_name))
    return out


def _classify(
    type_name: str,
    text: str,
    words: list[tuple[int, str, str]],
    prepared: dict[str, tuple[str, str]],
) -> SqlStatement:
    keywords = _top_level(words)
    first = keywords[0][1] if keywords else ""
    if type_name == "TRANSACTION":
        return SqlStatement("control", first, text)
    if type_name in _WRITES:
        at, verb = next(((p, w) for p, w in keywords if w in _VERBS), (0, first))
        verb = "create" if type_name == "CREATE_FUNC" else verb
        return SqlStatement("write", verb, text, clause=text[at:])
    if type_name == "EXPLAIN":
        return _explained(text, words, prepared)
    if type_name == "PREPARE":
        names = [w for _, w in keywords]
        body = next((p + 2 for p, w in keywords if w == "as"), None)
        if len(names) > 1 and body is not None:
            inner = split_statements(text[body:], prepared)
            if inner:
                prepared[names[1]] = (inner[0].kind, inner[0].verb)
        return SqlStatement("read", "prepare", text)
    if type_name == "EXECUTE":
        name = keywords[1][1] if len(keywords) > 1 else ""
        kind, verb = prepared.get(name, ("read", "execute"))
        return SqlStatement(kind, verb, text)
    if type_name == "SELECT" and (nested := _nested_write(text)) is not None:
        return SqlStatement("write", nested[0], text, clause=nested[1])
    if type_name in _READS:
        return SqlStatement("read", first, text)
    return SqlStatement("refused", first, text, _refusal(first, text, keywords))


_NESTED = {
    "UPDATE_QUERY_NODE": "update",
    "DELETE_QUERY_NODE": "delete",
    "INSERT_QUERY_NODE": "insert",
}
_CLAUSE = {"update": "update {}", "delete": "delete from {}", "insert": "insert into {}"}


def _nested_write(text: str) -> tuple[str, str] | None:
    """(verb, clause) of a data-modifying statement inside a SELECT (`WITH x AS (UPDATE …
    RETURNING *) SELECT …`): the statement type says SELECT, the parse tree says otherwise."""
    import json

    with _LOCK:
        row = _parser().execute("SELECT json_serialize_sql(?)", [text]).fetchone()
    tree = json.loads(row[0]) if row else {}
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            verb = _NESTED.get(str(node.get("type")))
            if verb is not None:
                table = node.get("table")  # a table reference, or (INSERT) the table's name
                if isinstance(table, dict):
                    table = table.get("table_name")
                return verb, _CLAUSE[verb].format(table if isinstance(table, str) else "?")
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


def _explained(
    text: str, words: list[tuple[int, str, str]], prepared: dict[str, tuple[str, str]]
) -> SqlStatement:
    """EXPLAIN only plans; EXPLAIN ANALYZE runs the statement, so it is what that one is."""
    code = [w for w in words if w[1] != "comment"]
    i, analyze = 1, False
    if i < len(code) and code[i][2] == "(":
        depth = 0
        while i < len(code):
            analyze |= code[i][2].lower() == "analyze"
            depth += {"(": 1, ")": -1}.get(code[i][2], 0)
            i += 1
            if depth == 0:
                break
    while i < len(code) and code[i][2].lower() in ("analyze", "analyse", "verbose"):
        analyze |= code[i][2].lower() in ("analyze", "analyse")
        i += 1
    if analyze and i < len(code):
        inner = split_statements(text[code[i][0] :], prepared)
        if inner and inner[0].kind != "read":
            return replace(inner[0], text=text)
    return SqlStatement("read", "explain", text)


def _refusal(first: str, text: str, keywords: list[tuple[int, str]]) -> str:
    """What PostgreSQL answers an unprivileged role (or any role, for DuckDB-only syntax)."""
    rest = [w for _, w in keywords[1:]]
    if first == "copy":
        into = next((w for w in rest if w in ("to", "from")), "to")
        role, way = ("write", "to") if into == "to" else ("read", "from")
        return (
            f"ERROR:  must be superuser or have privileges of the pg_{role}_server_files role "
            f"to COPY {way} a file\n{_COPY_HINT}"
        )
    if first in ("set", "reset"):
        names = [w for w in rest if w not in ("session", "local", "global", "variable")]
        name = names[0] if names else ""
        return f'ERROR:  permission denied to set parameter "{name}"\n'
    if first == "load":
        library = next((w for _, k, w in _words(text)[1:2]), "").strip("'\"")
        return f'ERROR:  access to library "{library}" is not allowed\n'
    if first == "checkpoint":
        return "ERROR:  must be superuser or have privileges of pg_checkpoint to do CHECKPOINT\n"
    if first == "call":
        name = rest[0] if rest else ""
        return f"ERROR:  permission denied for procedure {name}\n"
    word = text.split(None, 1)[0] if text.split() else text
    return postgres_error(f'Parser Error: syntax error at or near "{word}"', text)


def classify_sql(sql: str) -> tuple[str, ...]:
    """The kind of each statement of `sql` ("read", "write", "control", "refused"), e.g. for a
    `psql -c` string; ("invalid",) when the engine's parser rejects the text."""
    try:
        return tuple(s.kind for s in split_statements(sql))
    except SqlSyntaxError:
        return ("invalid",)


def check_view(name: str, select: str) -> str:
    """A task file's view body when it is exactly one SELECT; ValueError otherwise."""
    try:
        statements = split_statements(select)
    except SqlSyntaxError as exc:
        raise ValueError(f"view {name!r}: {str(exc).splitlines()[0]}") from exc
    if len(statements) != 1 or statements[0].type != "SELECT":
        found = "; ".join(s.verb.upper() for s in statements) or "nothing"
        raise ValueError(f"view {name!r} must be exactly one SELECT statement (found: {found})")
    return statements[0].text
