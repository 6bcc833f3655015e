"""The program registry: every simulated program registers here, by name, with the parts of
the environment it needs.

A program is one function of one signature, `(call: Call) -> CommandResult`, registered with
`@program("lsof", "fuser", needs=("system",))`. `Call` carries the command line (argv, stdin,
who runs it) and the parts of this episode's environment the World built (`fs`, `system`,
`cluster`, `sql`, `http`, `terraform`: see sim/environment.py). The World binds the
registrations to its parts (`bind`): a program is in the table when every part it needs is
declared; a registration marked `stand_in` answers instead when one is not (kubectl with no
cluster cannot reach an API server), and the World names those programs its stand-ins.

`--help` is answered only by a program registered with `help=True` (kubectl's usage, or a
builtin that takes no options: `echo --help` prints `--help`); for every other program it is
not simulated, never an "unrecognized option" the real tool would not print.

Registering happens when a program module is imported; sim/programs.py imports them all, so
nothing here imports a program module and the registry sits in the core layer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from agentbench.sim.core.base import CommandResult, NotSimulated, Program, ShellContext
from agentbench.sim.core.fs import FileSystem, UserFiles
from agentbench.sim.core.system import SystemState

T = TypeVar("T")
Parts = Mapping[str, object]


@dataclass(frozen=True)
class Call:
    """One run of a program: its command line and the environment parts it may use."""

    argv: list[str]
    stdin: str | None
    ctx: ShellContext
    parts: Parts = field(default_factory=dict)
    view: UserFiles | None = None  # the files as the program reads them (default: `fs`, as ctx)

    def part(self, name: str, kind: type[T]) -> T:
        """The part `name`, which the registration declared it needs."""
        value = self.parts.get(name)
        if not isinstance(value, kind):
            raise LookupError(f"{self.argv[0]} uses the part {name!r} it did not declare")
        return value

    @property
    def fs(self) -> FileSystem | None:
        """The declared filesystem, or None (tools that work without one: echo, cd, filters)."""
        value = self.parts.get("fs")
        return value if isinstance(value, FileSystem) else None

    @property
    def filesystem(self) -> FileSystem:
        return self.part("fs", FileSystem)

    @property
    def system(self) -> SystemState:
        return self.part("system", SystemState)

    @property
    def files(self) -> UserFiles:
        """File operands as the user running the program sees them."""
        return self.view if self.view is not None else UserFiles(self.fs, self.ctx)


Run = Callable[[Call], CommandResult]


@dataclass(frozen=True)
class Registration:
    """One program name, the function that answers it and what it needs."""

    name: str
    run: Run
    needs: tuple[str, ...] = ()
    stand_in: bool = False  # answers when a needed part is not declared (a real host's error)
    reads_files: bool = False  # a file operand with no filesystem declared is not simulated
    when: Callable[[Parts], bool] | None = None  # a further condition on the parts (nginx.conf)
    help: bool = False  # answers `--help` itself (else `--help` is not simulated)


REGISTRY: list[Registration] = []


def program(
    *names: str,
    needs: tuple[str, ...] = (),
    stand_in: bool = False,
    reads_files: bool = False,
    when: Callable[[Parts], bool] | None = None,
    help: bool = False,
) -> Callable[[Run], Run]:
    """Register the decorated function under each of `names` (see the module docstring)."""

    def register(run: Run) -> Run:
        for name in names:
            REGISTRY.append(Registration(name, run, needs, stand_in, reads_files, when, help))
        return run

    return register


class Bound:
    """A registration bound to one World's parts: the `Program` the shell runs."""

    def __init__(self, registration: Registration, parts: Parts) -> None:
        self.registration = registration
        self.parts = parts

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        reg = self.registration
        if not reg.help and "--help" in argv[1 : argv.index("--") if "--" in argv else None]:
            raise NotSimulated(f"{reg.name} --help")  # its help text is not carried
        result = reg.run(Call(argv, stdin, ctx, self.parts))
        if reg.reads_files and result.identity is not None and self.parts.get("fs") is None:
            raise NotSimulated(f"{reg.name} FILE (no filesystem declared)", result.identity)
        return result


def bind(parts: Parts, declared: frozenset[str]) -> tuple[dict[str, Program], frozenset[str]]:
    """The program table over `parts` (built by the World; `declared`: the parts the task
    declares), and the names of the stand-ins in it."""
    table: dict[str, Program] = {}
    stand_ins: set[str] = set()
    for reg in REGISTRY:
        complete = all(need in declared for need in reg.needs)
        if reg.stand_in == complete or (reg.when is not None and not reg.when(parts)):
            continue
        if reg.name in table:
            raise RuntimeError(f"two programs registered as {reg.name!r} for the same parts")
        table[reg.name] = Bound(reg, parts)
        if reg.stand_in:
            stand_ins.add(reg.name)
    return table, frozenset(stand_ins)
