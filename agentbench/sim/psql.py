"""`psql` in the shell over the declared database: -c or stdin, -h (the primary or a replica),
-d, conninfo strings and URIs, -t -A -F; an unknown host or database fails as psql does."""

from __future__ import annotations

from typing import Any

from agentbench.sim.base import CommandResult
from agentbench.sim.psql_meta import meta_command
from agentbench.sim.sql import Database, aligned, cell


class Psql:
    """`psql [-h H] [-U U] [-d DB | DB] -c 'SQL'` (or SQL on stdin); -t -A -F -X -q."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def run(self, argv: list[str], stdin: str | None, ctx: Any) -> CommandResult:
        args = argv[1:]
        commands: list[str] = []
        database = None
        host = self.db.spec.host
        tuples_only = unaligned = False
        separator = "|"
        i = 0
        while i < len(args):
            arg = args[i]
            name, eq, value = arg.partition("=")
            takes = name in (
                "-c",
                "--command",
                "-d",
                "--dbname",
                "-h",
                "--host",
                "-U",
                "--username",
                "-p",
                "--port",
                "-F",
                "--field-separator",
                "-f",
                "--file",
            )
            if takes and not eq:
                value, i = (args[i + 1] if i + 1 < len(args) else ""), i + 1
            elif (
                len(name) > 2
                and name[:2] in ("-c", "-d", "-U", "-h", "-F")
                and not name.startswith("--")
            ):
                name, value = name[:2], name[2:]
            i += 1
            if name in ("-c", "--command"):
                commands.append(value)
            elif name in ("-d", "--dbname"):
                database = value
            elif name in ("-h", "--host"):
                host = value
            elif name in ("-F", "--field-separator"):
                separator = value
            elif not name.startswith("-"):
                database, host = _conninfo(arg, database, host)
            else:
                letters = name[1:] if not name.startswith("--") else ""
                tuples_only |= "t" in letters or name == "--tuples-only"
                unaligned |= "A" in letters or name == "--no-align"
        if database and database.split("/")[-1].split("?")[0] not in (
            self.db.spec.database,
            "postgres",
        ):
            socket = '"/var/run/postgresql/.s.PGSQL.5432"'
            text = (
                f"psql: error: connection to server on socket {socket} failed: "
                f'FATAL:  database "{database}" does not exist\n'
            )
            return CommandResult(
                stderr=text, exit_code=2, identity=("sql", "connect", "!no-database")
            )
        known = {self.db.spec.host, "localhost", "127.0.0.1", "", *self.db.spec.replicas}
        if host not in known:
            text = (
                f'psql: error: could not translate host name "{host}" to address: '
                "Name or service not known\n"
            )
            return CommandResult(stderr=text, exit_code=2, identity=("sql", "connect", "!no-host"))
        replica = host in self.db.spec.replicas
        if not commands and stdin:
            commands = [stdin]
        out = CommandResult()
        ids: list[str] = []
        for command in commands:
            if command.lstrip().startswith("\\"):
                meta = meta_command(self.db, command)
                out.stdout += meta.stdout
                out.stderr += meta.stderr
                out.exit_code = out.exit_code or meta.exit_code
                ids += ([";"] if ids else []) + list(meta.identity or ())
                continue
            columns, rows, result = self.db.run(command, replica=replica)
            out.stderr += result.stderr
            out.changes += result.changes
            out.exit_code = out.exit_code or result.exit_code
            if result.identity:
                ids += ([";"] if ids else []) + list(result.identity)
            if columns and unaligned:
                plain = [] if tuples_only else [separator.join(columns)]
                plain += [separator.join(cell(v) for v in row) for row in rows]
                if not tuples_only:
                    plain.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
                out.stdout += "\n".join(plain) + "\n"
            elif columns and tuples_only:
                body = aligned(columns, rows).splitlines()[2:-1]
                out.stdout += "\n".join(body) + "\n\n"
            elif columns:
                out.stdout += aligned(columns, rows) + "\n"
            else:
                out.stdout += result.stdout
        out.identity = tuple(ids) if ids else None
        return out


def _conninfo(arg: str, database: str | None, host: str) -> tuple[str | None, str]:
    """A positional psql argument: a database name, `host=H dbname=D`, or postgresql://U@H/D."""
    if arg.startswith(("postgresql://", "postgres://")):
        rest = arg.split("://", 1)[1]
        location, _, name = rest.partition("/")
        return name.split("?")[0] or database, location.rsplit("@", 1)[-1].split(":")[0]
    if "=" in arg:
        pairs = dict(p.split("=", 1) for p in arg.split() if "=" in p)
        return pairs.get("dbname", database), pairs.get("host", host)
    return database or arg, host


def psql_program(db: Database) -> Psql:
    return Psql(db)
