"""`psql` in the shell over the declared database: -c or stdin, -h (the primary or a replica),
-d, conninfo strings and URIs, -t -A -F; an unknown host or database fails as psql does."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentbench.sim.core.base import CommandResult
from agentbench.sim.sql.database import Database, aligned, cell
from agentbench.sim.sql.psql_meta import meta_command

# Options that take a value: short letter -> long name.
_VALUED = {
    "c": "command",
    "d": "dbname",
    "h": "host",
    "U": "username",
    "p": "port",
    "F": "field-separator",
    "f": "file",
    "v": "set",
    "P": "pset",
    "o": "output",
    "R": "record-separator",
    "L": "log-file",
    "T": "table-attr",
}
_LONG_VALUED = set(_VALUED.values()) | {"variable"}


@dataclass
class Options:
    """A parsed psql command line."""

    commands: list[str] = field(default_factory=list)
    database: str | None = None
    host: str | None = None
    tuples_only: bool = False
    unaligned: bool = False
    separator: str = "|"


def parse_options(args: list[str]) -> Options:
    """psql's options: `-c SQL`, `-cSQL`, `--command=SQL`, bundled flags (`-tAc SQL`, `-qtAX`),
    a positional database name, `host=H dbname=D` or a postgresql:// URI."""
    out = Options()
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        pairs: list[tuple[str, str | None]] = []
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            if name in _LONG_VALUED and not eq:
                value, i = (args[i] if i < len(args) else ""), i + 1
            pairs.append((name, value if name in _LONG_VALUED else None))
        elif arg.startswith("-") and len(arg) > 1:
            letters = arg[1:]
            for k, letter in enumerate(letters):
                if letter in _VALUED:
                    value = letters[k + 1 :]
                    if not value:
                        value, i = (args[i] if i < len(args) else ""), i + 1
                    pairs.append((_VALUED[letter], value))
                    break
                pairs.append((letter, None))
        else:
            out.database, out.host = _conninfo(arg, out.database, out.host)
        for name, given in pairs:
            if name == "command" and given is not None:
                out.commands.append(given)
            elif name == "dbname":
                out.database, out.host = _conninfo(given or "", None, out.host)
            elif name == "host":
                out.host = given
            elif name == "field-separator" and given is not None:
                out.separator = given
            out.tuples_only |= name in ("t", "tuples-only")
            out.unaligned |= name in ("A", "no-align")
    return out


class Psql:
    """`psql [-h H] [-U U] [-d DB | DB] -c 'SQL'` (or SQL on stdin); -t -A -F -X -q."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def run(self, argv: list[str], stdin: str | None, ctx: Any) -> CommandResult:
        options = parse_options(argv[1:])
        commands, database = options.commands, options.database
        host = options.host if options.host is not None else self.db.spec.host
        tuples_only, unaligned, separator = (
            options.tuples_only,
            options.unaligned,
            options.separator,
        )
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


def _conninfo(arg: str, database: str | None, host: str | None) -> tuple[str | None, str | None]:
    """A positional psql argument: a database name, `host=H dbname=D`, or postgresql://U@H/D."""
    if arg.startswith(("postgresql://", "postgres://")):
        rest = arg.split("://", 1)[1]
        location, _, name = rest.partition("/")
        return name.split("?")[0] or database, location.rsplit("@", 1)[-1].split(":")[0]
    if "=" in arg:
        pairs = dict(p.split("=", 1) for p in arg.split() if "=" in p)
        return pairs.get("dbname", database), pairs.get("host", host)
    return database or arg, host


class NoServer:
    """psql and `sql_query` on a host whose task declares no database: nothing listens on the
    local socket, and a named host does not resolve (psql's texts, exit 2)."""

    def run(self, argv: list[str], stdin: str | None, ctx: Any) -> CommandResult:
        return self._refused(parse_options(argv[1:]).host)

    def interrupt(self) -> None:
        """Nothing runs: nothing to stop."""

    def query(self, sql: str) -> CommandResult:
        """The `sql_query` tool: its connection to the local server is refused (the tool's
        driver says what psql says, without psql's prefix)."""
        result = self._refused("localhost")
        result.stderr = result.stderr.removeprefix("psql: error: ")
        return result

    @staticmethod
    def _refused(host: str | None) -> CommandResult:
        if not host or host.startswith("/"):
            text = (
                'psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" '
                "failed: No such file or directory\n\tIs the server running locally and "
                "accepting connections on that socket?\n"
            )
        elif host in ("localhost", "127.0.0.1"):
            address = "127.0.0.1"
            text = (
                f'psql: error: connection to server at "{host}" ({address}), port 5432 failed: '
                "Connection refused\n\tIs the server running on that host and accepting TCP/IP "
                "connections?\n"
            )
        else:
            text = (
                f'psql: error: could not translate host name "{host}" to address: '
                "Name or service not known\n"
            )
        return CommandResult(stderr=text, exit_code=2, identity=("sql", "connect", "!no-server"))


def psql_program(db: Database) -> Psql:
    return Psql(db)
