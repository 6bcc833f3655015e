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

from dataclasses import dataclass
from typing import Any

import agentbench.sim.programs  # noqa: F401  (registers every program)
from agentbench.sim.core.base import CommandResult, Identity, Program, ShellContext, Stateful
from agentbench.sim.core.budget import WorkExceeded, bounded
from agentbench.sim.core.fs import FileSystem
from agentbench.sim.core.registry import bind
from agentbench.sim.core.spec import SystemSpec
from agentbench.sim.environment import WorldSpec
from agentbench.sim.parts import build_parts
from agentbench.sim.shell.interpreter import Shell
from agentbench.sim.shell.static import static_commands

__all__ = ["Answer", "World", "WorldSpec"]

# tool name -> (its argument that carries the request, which part of the world answers)
TOOL_ARGUMENTS = {
    "run_command": "cmd",
    "sql_query": "query",
    "http_get": "url",
    "read_file": "path",
}
TOOL_PARTS = {"sql": "sql", "http": "http"}  # what answers sql_query/http_get -> its part


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
        parts, declared = build_parts(spec)
        self.programs: dict[str, Program]
        self.programs, stand_ins = bind(parts, declared)
        # programs answering for an undeclared system, and tools whose part is not declared
        self.stand_ins = set(stand_ins) | {t for t, p in TOOL_PARTS.items() if p not in declared}
        self.stateful: list[Stateful] = [p for p in parts.values() if isinstance(p, Stateful)]
        fs = parts.get("fs")
        self.fs: FileSystem | None = fs if isinstance(fs, FileSystem) else None
        self.sql: Any = parts["sql"]
        self.http: Any = parts["http"]
        users = frozenset({"root", system.user, *(u.name for u in system.users)})
        self.shell = Shell(
            self.programs,
            sudo=system.sudo,
            users=users,
            not_installed=frozenset(system.not_installed),
            rule_programs=frozenset(spec.rule_programs),
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


def _first_program(line: str) -> str:
    """The program a command line runs first, after wrappers ("kubectl" for sudo kubectl ...)."""
    try:
        commands = static_commands(line)
    except ValueError:
        return "bash"
    first = next((c.words[0] for c in commands if c.words), None)
    return first or "bash"
