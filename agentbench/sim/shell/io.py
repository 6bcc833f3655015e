"""A command's input, output and result: stdin as a stream, redirects, and results joined.

Redirects, as bash applies them: left to right over a table of file descriptors.

`cmd 2>&1 >/dev/null` sends stderr where stdout pointed *before* stdout moved (the pipe), and
`cmd >/dev/null 2>&1` silences both; `: > log` and `> log` truncate; `<<EOF`, `<<<` and `<`
feed stdin. Files are written through the shell's writer, so a write is a recorded change.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass

from agentbench.sim.core.base import CommandResult, Identity, NotSimulated, ShellContext
from agentbench.sim.shell.ast import Redirect

_INPUT = frozenset({"<", "<<", "<<-", "<<<"})
_STREAMS = {"/dev/stdout": "out", "/dev/stderr": "err", "/dev/null": "null", "/dev/tty": "out"}


@dataclass
class Input:
    """A command's stdin as a stream: `read` takes one line; a program sees the rest."""

    text: str
    pos: int = 0

    def rest(self) -> str:
        return self.text[self.pos :]

    def readline(self) -> str | None:
        if self.pos >= len(self.text):
            return None
        end = self.text.find("\n", self.pos)
        end = len(self.text) if end < 0 else end + 1
        line, self.pos = self.text[self.pos : end], end
        return line.rstrip("\n")


@dataclass(frozen=True)
class Target:
    kind: str  # "out", "err", "null", "file"
    path: str = ""
    append: bool = False


def is_input(redirect: Redirect) -> bool:
    return redirect.op in _INPUT or redirect.op == "<&"


def heredoc_text(op: str, body: str) -> str:
    if op == "<<-":
        return "".join(line.lstrip("\t") for line in body.splitlines(keepends=True))
    return body


def route(
    result: CommandResult,
    redirects: list[tuple[Redirect, str]],
    ctx: ShellContext,
    write: Callable[[str, str, bool, ShellContext], CommandResult] | None,
) -> CommandResult:
    """Sends the result's stdout and stderr where the output redirects (with their expanded
    targets) point."""
    fds = {1: Target("out"), 2: Target("err")}
    opened: list[Target] = []
    for redirect, target in redirects:
        if is_input(redirect):
            continue
        op, fd = redirect.op, redirect.fd
        if op == ">&" and (target.isdigit() or target == "-"):
            source = fds.get(int(target)) if target.isdigit() else Target("null")
            if source is None:
                raise NotSimulated(f"redirect to file descriptor {target}")
            fds[1 if fd is None else fd] = source
            continue
        place = _target(target, append=op in (">>", "&>>"))
        if place.kind == "file":
            opened.append(place)
        if op in ("&>", "&>>") or (op == ">&" and fd is None):
            fds[1] = fds[2] = place
        elif op in (">", ">>", ">|", ">&"):
            fds[1 if fd is None else fd] = place
        else:
            raise NotSimulated(f"redirect {op}")
    if not opened and fds[1].kind == "out" and fds[2].kind == "err":
        return result
    texts: dict[Target, str] = {}
    for sink, text in ((fds[1], result.stdout), (fds[2], result.stderr)):
        texts[sink] = texts.get(sink, "") + text
    routed = CommandResult(
        stdout=texts.get(Target("out"), ""),
        stderr=texts.get(Target("err"), ""),
        exit_code=result.exit_code,
        identity=result.identity,
        changes=list(result.changes),
        simulated=result.simulated,
        timed_out=result.timed_out,
        stderr_first=result.stderr_first,
        limit=result.limit,
    )
    done: set[str] = set()
    for place in opened:
        key = posixpath.normpath(posixpath.join(ctx.cwd, place.path))
        if key in done:
            continue
        done.add(key)
        text = next((t for k, t in texts.items() if k.kind == "file" and k.path == place.path), "")
        _write(routed, place, text, ctx, write)
    return routed


def _target(word: str, *, append: bool) -> Target:
    if word in _STREAMS:
        return Target(_STREAMS[word])
    return Target("file", word, append)


def _write(
    result: CommandResult,
    place: Target,
    text: str,
    ctx: ShellContext,
    write: Callable[[str, str, bool, ShellContext], CommandResult] | None,
) -> None:
    if write is None:
        result.stderr += f"bash: {place.path}: Read-only file system\n"
        result.exit_code = 1
        return
    written = write(place.path, text, place.append, ctx)
    result.stderr += written.stderr
    result.exit_code = written.exit_code or result.exit_code
    result.changes += written.changes
    if written.identity is not None:
        result.identity = join_identities([i for i in (result.identity, written.identity) if i])


def join_identities(identities: list[Identity]) -> Identity | None:
    """Several resolved calls as one identity, joined by ";" elements (None when none)."""
    if not identities:
        return None
    out: list[str] = list(identities[0])
    for identity in identities[1:]:
        out += [";", *identity]
    return tuple(out)


class ExitShell(Exception):
    """`exit N`: the shell stops; `partial` is what the line printed and did until then."""

    def __init__(self, code: int, partial: CommandResult | None = None) -> None:
        self.code = code
        self.partial = partial or CommandResult(exit_code=code)

    def result(self) -> CommandResult:
        self.partial.exit_code = self.code
        return self.partial


class Acc:
    """Results of the parts of a compound command, merged as the shell shows them."""

    def __init__(self) -> None:
        self.result = CommandResult()
        self.ids: list[Identity] = []

    def keep(self, part: CommandResult) -> None:
        """What a part read and changed, not what it printed (a substitution, a condition's
        redirected output is still printed: use add)."""
        self.result.changes += part.changes
        self.result.simulated = self.result.simulated and part.simulated
        self.result.timed_out = self.result.timed_out or part.timed_out
        self.result.limit = self.result.limit or part.limit
        if part.identity is not None:
            self.ids.append(part.identity)

    def add(self, part: CommandResult) -> CommandResult:
        if not self.result.stdout and not self.result.stderr:  # the first output sets the order
            self.result.stderr_first = part.stderr_first
        self.result.stdout += part.stdout
        self.result.stderr += part.stderr
        self.result.exit_code = part.exit_code
        self.keep(part)
        return part

    def run(self, execute: Callable[..., CommandResult], *args: object) -> CommandResult:
        """One part, `execute(*args)`; an `exit` inside it carries everything gathered so far
        upwards."""
        try:
            return self.add(execute(*args))
        except ExitShell as stop:
            self.add(stop.partial)
            raise ExitShell(stop.code, self.done(stop.code)) from None

    def done(self, exit_code: int | None = None) -> CommandResult:
        if exit_code is not None:
            self.result.exit_code = exit_code
        self.result.identity = join_identities(self.ids)
        return self.result
