"""The `World`: every simulator of one episode, built from the task's declared environment.

A World answers tool calls from state: `run_command` through the shell layer and the program
registry (kubectl over the `cluster`, file and system tools over `files`/`system`, `psql` over
`sql`, `curl` over `http`, filters everywhere), `sql_query` on the embedded DuckDB, `http_get`
from the routes, `read_file` from the filesystem. Tools it does not serve (validate_document)
stay with the task's rules.

A system the task does not declare still answers as a real host without it would (simulated,
not off-script): kubectl without a cluster cannot reach its API server, psql and `sql_query`
without a database cannot connect, curl, wget and `http_get` without routes cannot resolve the
host. Those programs are the World's `stand_ins`; `from_state()` tells an answer from declared
state apart from such an error (`tasks validate` flags only rules that shadow the former).

`copy()` builds a fresh World at the start of the episode (scoring resolves expected calls on
it); `identify()` says what a call would mean without changing anything (every stateful part is
checkpointed and restored around a dry run).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from agentbench.sim.core.base import CommandResult, Identity, Program, ShellContext, Stateful
from agentbench.sim.core.budget import WorkExceeded, bounded
from agentbench.sim.core.fs import FileSystem
from agentbench.sim.core.spec import FileSpec, HttpRoute, SystemSpec
from agentbench.sim.core.system import SystemState, system_programs
from agentbench.sim.files.writes import file_programs
from agentbench.sim.host.nginx import Nginx
from agentbench.sim.kube.schema.model import Cluster
from agentbench.sim.shell.interpreter import Shell
from agentbench.sim.shell.static import static_commands
from agentbench.sim.sql.spec import SqlSpec
from agentbench.sim.text.awk.program import awk
from agentbench.sim.text.filters import FILTERS, Filter, FilterProgram
from agentbench.sim.text.jq.program import jq
from agentbench.sim.text.sed.program import sed
from agentbench.sim.text.sort import sort

# tool name -> (its argument that carries the request, which part of the world answers)
TOOL_ARGUMENTS = {
    "run_command": "cmd",
    "sql_query": "query",
    "http_get": "url",
    "read_file": "path",
}
TEXT_FILTERS: dict[str, Filter] = {**FILTERS, "sort": sort, "awk": awk, "sed": sed, "jq": jq}


@dataclass(frozen=True)
class WorldSpec:
    """The declared parts of a task's `environment` (see agentbench/tasks/model.py)."""

    cluster: Cluster | None = None
    files: dict[str, str | FileSpec] = field(default_factory=dict)
    system: SystemSpec | None = None
    sql: SqlSpec | None = None
    http: tuple[HttpRoute, ...] = ()

    @property
    def host(self) -> bool:
        """A host is simulated (files and system tools) when files or system are declared."""
        return bool(self.files) or self.system is not None


@dataclass
class Answer:
    """A call the World answered: the result and the program that answered ("kubectl", "sql")."""

    result: CommandResult
    program: str


class World:
    """All simulators of one episode. Deterministic; nothing runs on the host."""

    def __init__(self, spec: WorldSpec) -> None:
        self.spec = spec
        system = spec.system or SystemSpec()
        self.user = system.user
        self.programs: dict[str, Program] = {}
        self.stateful: list[Stateful] = []
        self.fs: FileSystem | None = None
        self.sql: Any = None
        self.http: Any = None
        if spec.host:
            self.fs = FileSystem(spec.files, system)
            for disk in system.disks:
                self.fs.mkdirs(disk.mount)
            state = SystemState(system, self.fs)
            self.programs.update(file_programs(self.fs))
            if "/etc/nginx/nginx.conf" in self.fs.nodes:
                self.programs["nginx"] = Nginx(self.fs)
            self.programs.update(system_programs(state))
            self.stateful += [self.fs, state]
        self.stand_ins: set[str] = set()  # programs answering for an undeclared system
        if spec.cluster is not None:
            from agentbench.sim.kube.program import build_kubectl

            fs = self.fs
            kubectl = build_kubectl(spec.cluster, (lambda p: fs.read(p, "root")[0]) if fs else None)
            self.programs["kubectl"] = kubectl
            self.stateful.append(kubectl if isinstance(kubectl, Stateful) else _Attributes(kubectl))
        else:
            from agentbench.sim.kube.unreachable import UnreachableKubectl

            self.programs["kubectl"] = UnreachableKubectl()
            self.stand_ins.add("kubectl")
        if spec.sql is not None:
            from agentbench.sim.sql.database import Database
            from agentbench.sim.sql.psql import psql_program

            self.sql = Database(spec.sql)
            self.programs["psql"] = psql_program(self.sql)
            self.stateful.append(self.sql)
        else:
            from agentbench.sim.sql.psql import NoServer

            self.sql = NoServer()
            self.programs["psql"] = self.sql
            self.stand_ins |= {"psql", "sql"}
        from agentbench.sim.http.routes import Routes, curl_program
        from agentbench.sim.http.wget import wget_program

        self.http = Routes(spec.http)
        self.programs["curl"] = curl_program(self.http)
        self.programs["wget"] = wget_program(self.http)
        if not spec.http:
            self.stand_ins |= {"curl", "wget", "http"}
        for name, fn in TEXT_FILTERS.items():
            self.programs.setdefault(name, FilterProgram(name, fn, self.fs))
        for name, program in file_programs(None).items():
            self.programs.setdefault(name, program)
        users = frozenset({"root", system.user, *(u.name for u in system.users)})
        self.shell = Shell(
            self.programs,
            sudo=system.sudo,
            users=users,
            not_installed=frozenset(system.not_installed),
            write=self.fs.redirect_write if self.fs else None,
            read=self.fs.redirect_read if self.fs else None,
            glob=self.fs.shell_glob if self.fs else None,
        )

    def copy(self) -> World:
        """A fresh World in the declared start state."""
        return World(self.spec)

    def serves(self, tool: str) -> bool:
        """True when this World answers `tool` (else the task's rules alone do)."""
        if tool == "read_file":
            return self.fs is not None
        return tool in ("run_command", "sql_query", "http_get")

    def call(self, tool: str, args: dict[str, Any]) -> Answer | None:
        """Answer a tool call from state; None when this World does not serve the tool. The
        call runs under the budget installed by the caller (a fresh one if none: core/budget.py);
        one that goes past a limit answers with the killed command's error and names the limit."""
        if not self.serves(tool):
            return None
        value = args.get(TOOL_ARGUMENTS[tool])
        if not isinstance(value, str):
            return None
        # A line answered off-script (a part not simulated) takes no effect: what its other
        # commands changed is put back (the database, whose snapshot is a transaction, aside).
        parts = [p for p in self.stateful if p is not self.sql] if tool == "run_command" else []
        tokens = [part.snapshot() for part in parts]
        with bounded() as budget:
            if self.sql is not None:  # an abandoned query stops in the engine process too
                budget.on_cancel(self.sql.interrupt)
            try:
                answer = self._answer(tool, value)
            except WorkExceeded as exc:
                program = _first_program(value) if tool == "run_command" else tool
                answer = Answer(exc.result(program), program)
            if budget.exceeded is not None and answer.result.limit is None:
                if tool == "run_command":  # what the line printed and changed stays
                    answer.result.limit = budget.exceeded.limit
                else:  # an engine interrupted at the deadline: the kill, not its error text
                    answer = Answer(budget.exceeded.result(tool), answer.program)
        if not answer.result.simulated:
            for part, token in zip(parts, tokens, strict=True):
                part.restore(token)
            answer.result.changes = []
        return answer

    def _answer(self, tool: str, value: str) -> Answer:
        if tool == "run_command":
            ctx = ShellContext(user=self.user, cwd=self._home())
            return Answer(self.shell.run(value, ctx), _first_program(value))
        if tool == "sql_query":
            return Answer(self.sql.query(value), "sql")
        if tool == "http_get":
            return Answer(self.http.get(value), "http")
        assert self.fs is not None
        return Answer(self.fs.read_tool(value, self.user), "read_file")

    def identify(self, tool: str, args: dict[str, Any]) -> Identity | None:
        """What `call(tool, args)` would resolve to, leaving every state as it was."""
        answer = self._dry_run(tool, args)
        return answer.result.identity if answer else None

    def from_state(self, tool: str, args: dict[str, Any]) -> bool:
        """True when the World answers this call from declared state, not with the error of a
        system the task does not declare (kubectl with no cluster, ...); changes nothing."""
        answer = self._dry_run(tool, args)
        if answer is None or answer.result.identity is None:
            return False
        return answer.program not in self.stand_ins

    def _dry_run(self, tool: str, args: dict[str, Any]) -> Answer | None:
        tokens = [part.snapshot() for part in self.stateful]
        try:
            return self.call(tool, args)
        finally:
            for part, token in zip(self.stateful, tokens, strict=True):
                part.restore(token)

    def _home(self) -> str:
        return "/root" if self.user == "root" else f"/home/{self.user}"


class _Attributes:
    """Checkpoints a simulator that does not implement `Stateful` by copying its attributes."""

    def __init__(self, target: object) -> None:
        self.target = target

    def snapshot(self) -> object:
        return copy.deepcopy(vars(self.target))

    def restore(self, token: object) -> None:
        assert isinstance(token, dict)
        vars(self.target).clear()
        vars(self.target).update(token)


def _first_program(line: str) -> str:
    """The program a command line runs first, after wrappers ("kubectl" for sudo kubectl ...)."""
    try:
        commands = static_commands(line)
    except ValueError:
        return "bash"
    first = next((c.words[0] for c in commands if c.words), None)
    return first or "bash"
