"""psql's backslash commands over the declared database: `\\dt` (tables), `\\dv` (views),
`\\d NAME` (a table's columns), `\\l` (databases); others answer as psql does for an unknown one."""

from __future__ import annotations

from agentbench.sim.core.base import CommandResult
from agentbench.sim.sql.database import PG_TYPES, Database, aligned


def _titled(title: str, table: str) -> str:
    width = len(table.splitlines()[1])
    pad = max(0, (width - len(title)) // 2)
    return " " * pad + title + "\n" + table


def meta_command(db: Database, command: str) -> CommandResult:
    """Answer one backslash command."""
    words = command.strip().split()
    name = words[0]
    spec = db.spec
    if (name in ("\\dt", "\\dt+", "\\d") and len(words) == 1) or name in ("\\dv", "\\dv+"):
        views = name.startswith("\\dv")
        kinds = [(t, "view") for t in spec.views] if views else [(t, "table") for t in spec.tables]
        if name == "\\d":
            kinds = [(t, "table") for t in spec.tables] + [(v, "view") for v in spec.views]
        if not kinds:
            return CommandResult(stderr="Did not find any relations.\n")
        rows = [("public", t, kind, "postgres") for t, kind in sorted(kinds)]
        table = aligned(["Schema", "Name", "Type", "Owner"], rows)
        return CommandResult(stdout=_titled("List of relations", table), identity=("sql", "list"))
    if name in ("\\d", "\\d+") and len(words) == 2:
        relation = words[1].split(".")[-1].strip('"')
        columns = spec.tables[relation].columns if relation in spec.tables else None
        if columns is None and relation not in spec.views:
            text = f'Did not find any relation named "{words[1]}".\n'
            return CommandResult(stderr=text, exit_code=1, identity=("sql", "describe", "!missing"))
        if columns is None:
            names, _, _ = db.run(f'SELECT * FROM "{relation}" LIMIT 0')
            found = [(c, "text", "", "", "") for c in names]
            title = f'View "public.{relation}"'
        else:
            found = [(c, PG_TYPES.get(t.upper(), t), "", "", "") for c, t in columns.items()]
            title = f'Table "public.{relation}"'
        table = aligned(["Column", "Type", "Collation", "Nullable", "Default"], found)
        body = "\n".join(table.splitlines()[:-1]) + "\n"  # \d prints no row count
        return CommandResult(stdout=_titled(title, body), identity=("sql", "describe", relation))
    if name == "\\l":
        databases: list[tuple[object, ...]] = [
            (spec.database, "postgres", "UTF8"),
            ("postgres", "postgres", "UTF8"),
        ]
        table = aligned(["Name", "Owner", "Encoding"], sorted(databases, key=str))
        return CommandResult(stdout=_titled("List of databases", table), identity=("sql", "list"))
    return CommandResult(stderr=f"invalid command {name}\nTry \\? for help.\n", exit_code=1)
