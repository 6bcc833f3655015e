"""The host's mutable state (units, journal) and the registry of system programs.

`SystemState` holds what system tools read and what `systemctl` writes: unit states and the
journal. Programs: `systemctl`, `journalctl` (host/systemd.py), `ps ss free uptime hostname id
whoami uname date df du` (host/facts.py), all answering from the declared `system:` section.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime

from agentbench.sim.core.base import CommandResult, ShellContext
from agentbench.sim.core.fs import FileSystem
from agentbench.sim.core.spec import JournalEntry, ProcessSpec, SocketSpec, SystemSpec, UnitSpec
from agentbench.sim.core.units import parse_time


class SystemState:
    """Units and journal of one host (copied from the spec; systemctl changes them)."""

    def __init__(self, spec: SystemSpec, fs: FileSystem | None) -> None:
        self.spec = spec
        self.fs = fs
        self.units: dict[str, UnitSpec] = {u.name: u.model_copy() for u in spec.units}
        self.journal: list[JournalEntry] = sorted(spec.journal, key=lambda e: parse_time(e.time))
        self.processes: list[ProcessSpec] = list(spec.processes)  # kill/pkill remove from it
        self.sockets: list[SocketSpec] = list(spec.sockets)  # closed with their process
        self.now: datetime = parse_time(spec.now)
        self.users = {spec.user: (1000, [spec.user, "adm", *(["sudo"] if spec.sudo else [])])}
        self.users["root"] = (0, ["root"])
        for user in spec.users:
            self.users[user.name] = (user.uid, user.groups or [user.name])

    def snapshot(self) -> object:
        return copy.deepcopy((self.units, self.journal, self.processes, self.sockets))

    def restore(self, token: object) -> None:
        assert isinstance(token, tuple)
        self.units, self.journal, self.processes, self.sockets = token

    def end_process(self, pid: int | None) -> None:
        """The process exits: it leaves the process table and its sockets close."""
        self.processes = [p for p in self.processes if p.pid != pid]
        self.sockets = [s for s in self.sockets if s.pid != pid or pid is None]

    def port_holder(self, address: str) -> SocketSpec | None:
        """The live socket bound to the port of `address` (host:port), if any."""
        port = address.rsplit(":", 1)[-1]
        live = {p.pid for p in self.processes}
        return next(
            (
                s
                for s in self.sockets
                if s.local.rsplit(":", 1)[-1] == port and (s.pid is None or s.pid in live)
            ),
            None,
        )

    def next_pid(self) -> int:
        """The pid the kernel hands out next: above every pid this host has seen."""
        seen = [p.pid for p in [*self.spec.processes, *self.processes]]
        seen += [u.main_pid or 0 for u in self.units.values()]
        return max([*seen, 1000]) + 1

    def spawn(self, unit: UnitSpec) -> int:
        """Start the unit's ExecStart as a new main process (listening on `unit.listen`)."""
        pid = self.next_pid()
        command = unit.exec_start or unit.name
        self.processes.append(
            ProcessSpec(pid=pid, command=command, start=self.now.strftime("%H:%M"))
        )
        if unit.listen:
            self.sockets.append(SocketSpec(local=unit.listen, pid=pid, send_q=511))
        return pid

    def unit(self, name: str) -> UnitSpec | None:
        """A unit by its name, with or without the .service suffix."""
        return self.units.get(name) or self.units.get(f"{name}.service")

    def unit_name(self, name: str) -> str:
        return name if "." in name else f"{name}.service"

    def log(self, unit: str, message: str, priority: int = 6) -> None:
        ident = "systemd"
        self.journal.append(
            JournalEntry(
                time=self.spec.now,
                message=message,
                unit=unit,
                ident=ident,
                pid=1,
                priority=priority,
                transport="journal",
            )
        )


Command = Callable[[SystemState, list[str], str | None, ShellContext], CommandResult]


class SystemProgram:
    """A system tool as a `Program` over one host's state."""

    def __init__(self, state: SystemState, command: Command) -> None:
        self.state = state
        self.command = command

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        return self.command(self.state, argv, stdin, ctx)


def system_programs(state: SystemState) -> dict[str, SystemProgram]:
    from agentbench.sim.files.gzip import GZIP_COMMANDS
    from agentbench.sim.host.docker import DOCKER_COMMANDS
    from agentbench.sim.host.facts import HOST_COMMANDS
    from agentbench.sim.host.journal import journalctl
    from agentbench.sim.host.netinfo import NET_COMMANDS
    from agentbench.sim.host.ports import PORT_COMMANDS
    from agentbench.sim.host.procs import PROCESS_COMMANDS
    from agentbench.sim.host.sessions import SESSION_COMMANDS
    from agentbench.sim.host.systemd import systemctl
    from agentbench.sim.host.tls import TLS_COMMANDS

    table: dict[str, Command] = {"systemctl": systemctl, "journalctl": journalctl, **HOST_COMMANDS}
    for extra in (
        PROCESS_COMMANDS,
        GZIP_COMMANDS,
        TLS_COMMANDS,
        NET_COMMANDS,
        PORT_COMMANDS,
        SESSION_COMMANDS,
        DOCKER_COMMANDS,
    ):
        table.update(extra)
    return {name: SystemProgram(state, command) for name, command in table.items()}
