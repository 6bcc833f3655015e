"""The contract every simulator keeps: a command in, a `CommandResult` out, nothing executed.

A simulator answers from a declared state (a cluster, a filesystem, tables, routes), the way
the real system would: the same output layout, the same error text, the same exit code. Writes
change that state and are reported as `Change`s, so scoring can tell a read-only diagnosis from
one that deleted a deployment. Each result carries an `identity`: what the call *meant*
(verb, resource, namespace, name; a query's result), so two spellings of one read compare
equal (`kubectl get po -n web` and `kubectl get pods --namespace=web -o wide`).

Data flow: tool call -> `World` (world.py) -> shell layer (shell/interpreter.py: pipes, `&&`,
`sudo`/`env` prefixes) -> one `Program` per command name -> `CommandResult`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

Identity = tuple[str, ...]


@dataclass(frozen=True)
class Change:
    """One state change a call made. `system`: kubernetes, filesystem, sql, systemd, http."""

    system: str
    action: str  # delete, scale, cordon, drain, patch, set-image, write, chmod, restart, ...
    target: str  # e.g. "deployment/web/nginx", "node/worker-4", "/etc/nginx/nginx.conf"
    detail: str = ""

    def __str__(self) -> str:
        extra = f" ({self.detail})" if self.detail else ""
        return f"{self.system}: {self.action} {self.target}{extra}"


@dataclass
class CommandResult:
    """What one command (or one non-shell tool call) returned."""

    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0
    identity: Identity | None = None  # what the call resolved to; None when it resolved nothing
    changes: list[Change] = field(default_factory=list)
    simulated: bool = True  # False: no simulator covers this command (an off-script fallback)
    not_simulated: str = ""  # with simulated False: the construct no simulator covers
    timed_out: bool = False  # the tool runtime killed it: the shell stops the whole line here
    limit: str | None = None  # the resource limit that ended it (sim/core/budget.py), if one did
    stderr_first: bool = False  # its stderr was written before its stdout (a leading notice)

    @property
    def output(self) -> str:
        """stdout then stderr (or stderr first, when it was written first), as a terminal
        shows a command's combined output."""
        if self.stdout and self.stderr:
            first, second = (
                (self.stderr, self.stdout) if self.stderr_first else (self.stdout, self.stderr)
            )
            return first.rstrip("\n") + "\n" + second
        return self.stdout or self.stderr


class NotSimulated(Exception):
    """Raised by any program, filter or language construct the simulator does not carry out
    (a jq builtin it lacks, `docker exec`, a shell function definition, …). The shell turns it
    into an off-script result in one place (`Shell.run`), so the call goes to the task's
    fallback and is counted, never answered with an error the real tool would not give. The
    message names the construct; `identity` is what the call meant when that is known."""

    def __init__(self, construct: str, identity: Identity | None = None) -> None:
        super().__init__(construct)
        self.construct = construct
        self.identity = identity

    def result(self) -> CommandResult:
        """The off-script answer: `simulated` False, the construct named."""
        return CommandResult(
            stderr=f"not simulated: {self.construct}\n",
            exit_code=1,
            identity=self.identity,
            simulated=False,
            not_simulated=self.construct,
        )


@dataclass(frozen=True)
class ShellContext:
    """Who runs a command: `sudo` makes the user root; `env VAR=...` adds variables."""

    user: str = "ops"
    env: tuple[tuple[str, str], ...] = ()
    cwd: str = "/home/ops"


class Program(Protocol):
    """A simulated command-line program (kubectl, cat, journalctl, psql, ...)."""

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        """argv[0] is the program name (path prefixes already stripped)."""
        ...


@runtime_checkable
class Stateful(Protocol):
    """A simulator that holds mutable state (a filesystem, a cluster, a database).

    The `World` checkpoints every stateful part before a dry run (`World.identify`: what a call
    would mean, without changing anything) and restores it after. A kubectl simulator whose
    `Program` keeps its cluster in memory implements these two methods on that program.
    """

    def snapshot(self) -> object:
        """An opaque token that `restore` accepts; cheap enough to take once per call."""
        ...

    def restore(self, token: object) -> None:
        """Put the state back as it was when `token` was taken."""
        ...
