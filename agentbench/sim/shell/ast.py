"""The shell front end's syntax tree: what a command line *is*, before anything runs.

parse.py builds it from tree-sitter-bash's parse of the line; interpreter.py executes it,
static.py reads it without running anything (call identity, forbid matching, the
read/write classifier). Words keep their parts (quoted or not, expansions, substitutions) so
that expansion happens once, at run time, and substituted output is never parsed again.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentbench.sim.core.base import NotSimulated


class ShellSyntaxError(ValueError):
    """The line does not parse; the message is bash's."""


class LineTooComplex(NotSimulated, ShellSyntaxError):
    """A line past the front end's bounds (size, nesting): the executor reports it not
    simulated; readers that only look at a line treat it as one they cannot read."""


@dataclass(frozen=True)
class Lit:
    """Literal text; `quoted` text is neither split nor globbed."""

    text: str
    quoted: bool = False


@dataclass(frozen=True)
class Param:
    """`$NAME`, `${NAME}`, `${NAME:-word}` (op ":-"), `${#NAME}` (op "#")."""

    name: str
    quoted: bool = False
    op: str = ""
    arg: Word | None = None


@dataclass(frozen=True)
class Subst:
    """`$(…)` or backticks: the body's stdout, trailing newlines dropped."""

    body: Node
    quoted: bool = False


@dataclass(frozen=True)
class Opaque:
    """A word part the simulator does not expand (`$((…))`, `<(…)`, `${x//a/b}`)."""

    kind: str
    text: str


Part = Lit | Param | Subst | Opaque


@dataclass(frozen=True)
class Word:
    parts: tuple[Part, ...]
    text: str  # as written

    @staticmethod
    def literal(text: str) -> Word:
        return Word((Lit(text, quoted=True),), text)


@dataclass(frozen=True)
class Redirect:
    """`fd` None means the operator's default (0 for `<`, 1 for `>`); op is one of
    `<`, `>`, `>>`, `>|`, `&>`, `&>>`, `>&`, `<&`, `<<`, `<<<`. For `<<`, `target` is the body."""

    op: str
    target: Word
    fd: int | None = None


@dataclass(frozen=True)
class Command:
    assigns: tuple[tuple[str, Word], ...]
    words: tuple[Word, ...]
    redirects: tuple[Redirect, ...]
    text: str


@dataclass(frozen=True)
class Pipeline:
    stages: tuple[Node, ...]
    negated: bool = False
    both: tuple[bool, ...] = ()  # per stage after the first: joined by `|&` (stderr too)


@dataclass(frozen=True)
class Sequence:
    """Statements joined by `;`, `&`, newlines ("" / ";") or `&&` / `||`."""

    items: tuple[tuple[str, Node], ...]


@dataclass(frozen=True)
class For:
    var: str
    words: tuple[Word, ...]
    body: Node


@dataclass(frozen=True)
class While:
    cond: Node
    body: Node
    until: bool = False


@dataclass(frozen=True)
class If:
    arms: tuple[tuple[Node, Node], ...]  # (condition, body): `if` then each `elif`
    otherwise: Node | None = None


@dataclass(frozen=True)
class Case:
    subject: Word
    arms: tuple[tuple[tuple[Word, ...], Node], ...]


@dataclass(frozen=True)
class Group:
    """`{ …; }` (shares the shell's variables) or `( … )` when `subshell`."""

    body: Node
    subshell: bool = False


@dataclass(frozen=True)
class Redirected:
    """A compound command with redirects: `for … done > out`, `{ a; b; } 2>&1`."""

    body: Node
    redirects: tuple[Redirect, ...]


@dataclass(frozen=True)
class Declare:
    """`export`, `local`, `readonly`, `unset`: names with optional values."""

    keyword: str
    names: tuple[tuple[str, Word | None], ...]


@dataclass(frozen=True)
class Unsupported:
    kind: str
    text: str


Node = (
    Command
    | Pipeline
    | Sequence
    | For
    | While
    | If
    | Case
    | Group
    | Redirected
    | Declare
    | Unsupported
)
