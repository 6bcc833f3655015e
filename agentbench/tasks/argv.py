"""Shell commands compared as parsed argv, with declared flag aliases.

`kubectl get pods -n web`, `kubectl -n web get pods` and `kubectl get pods --namespace=web` all
canonicalise to the same `Argv`: the program, its positional words in order, and its flags as a
sorted set of (long name, value) pairs. Which flags are boolean (take no value) and which short
flags alias which long ones is declared per program in `tasks/tools/flags.yaml`; the environment
and the scorers use this one function, so what the simulator accepts is what scoring accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from agentbench.sim.shell.ast import ShellSyntaxError
from agentbench.sim.shell.static import line_words, quote_words


class ProgramFlags(BaseModel):
    """Flag grammar of one program (a key of `tasks/tools/flags.yaml`)."""

    aliases: dict[str, str] = Field(
        default_factory=dict, description="Short or alternative flag -> canonical long flag."
    )
    boolean: list[str] = Field(
        default_factory=list, description="Flags (canonical names) that never take a value."
    )


@dataclass(frozen=True)
class Argv:
    """A shell command in canonical form."""

    program: str
    positionals: tuple[str, ...]
    flags: tuple[tuple[str, str | None], ...] = field(default=())

    def render(self) -> str:
        parts = [self.program, *self.positionals]
        for name, value in self.flags:
            parts.append(name if value is None else f"{name}={value}")
        return quote_words(parts)


class ArgvError(ValueError):
    """The text is not a parseable shell command (unbalanced quotes, empty)."""


def split_command(command: str) -> list[str]:
    """The command's words, read by the shell front end (agentbench/sim/shell/static.py)."""
    try:
        words = line_words(command)
    except ShellSyntaxError as exc:
        raise ArgvError(f"cannot parse shell command {command!r}: {exc}") from exc
    if not words:
        raise ArgvError("empty shell command")
    return words


def canonical_argv(command: str, grammar: dict[str, ProgramFlags] | None = None) -> Argv:
    """Parse `command` into its canonical `Argv` under the flag grammar of its program.

    `sudo X …` is X's canonical form under program `sudo X` (sudo's own flags are not parsed).
    Pipelines are not special: a pipeline is compared word for word after its first program's
    flags are normalised.
    """
    words = split_command(command)
    if words[0] == "sudo" and len(words) > 1 and not words[1].startswith("-"):
        inner = canonical_argv(quote_words(words[1:]), grammar)
        return Argv(f"sudo {inner.program}", inner.positionals, inner.flags)
    program = words[0].rsplit("/", 1)[-1]
    spec = (grammar or {}).get(program, ProgramFlags())
    booleans = {spec.aliases.get(b, b) for b in spec.boolean}
    positionals: list[str] = []
    flags: list[tuple[str, str | None]] = []
    i = 1
    while i < len(words):
        word = words[i]
        if word == "--":
            positionals.extend(words[i + 1 :])
            break
        if word.startswith("-") and len(word) > 1 and not _is_number(word):
            name, eq, value = word.partition("=")
            if not eq and _is_short_cluster(name, spec, booleans):
                for letter in name[1:-1]:
                    flags.append((spec.aliases.get(f"-{letter}", f"-{letter}"), None))
                name = f"-{name[-1]}"  # the last letter may take a value: -xeu nginx
            if not eq and len(name) > 2 and not name.startswith("--"):
                # -nweb: a short flag glued to its value
                short = name[:2]
                if spec.aliases.get(short, short) not in booleans and short in spec.aliases:
                    name, value, eq = short, name[2:], "="
            canonical = spec.aliases.get(name, name)
            if eq:
                flags.append((canonical, value))
            elif canonical in booleans:
                flags.append((canonical, None))
            elif i + 1 < len(words) and not words[i + 1].startswith("-"):
                flags.append((canonical, words[i + 1]))
                i += 1
            else:
                flags.append((canonical, None))
        else:
            positionals.append(word)
        i += 1
    return Argv(program, tuple(positionals), tuple(sorted(flags, key=lambda f: (f[0], f[1] or ""))))


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _is_short_cluster(name: str, spec: ProgramFlags, booleans: set[str]) -> bool:
    """`-it` / `-xeu` clusters: declared short flags, all boolean but possibly the last."""
    if name.startswith("--") or len(name) <= 2:
        return False
    letters = [f"-{c}" for c in name[1:]]
    if not all(flag in spec.aliases or flag in booleans for flag in letters):
        return False
    return all(spec.aliases.get(flag, flag) in booleans for flag in letters[:-1])


def same_command(a: str, b: str, grammar: dict[str, ProgramFlags] | None = None) -> bool:
    """True when two shell commands are equivalent under the grammar; False if either is invalid."""
    try:
        return canonical_argv(a, grammar) == canonical_argv(b, grammar)
    except ArgvError:
        return False
