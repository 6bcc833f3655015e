"""Reading a command line's syntax tree without running it: every simple command it would run.

Call identity, forbid matching, the rules' canonical argv and the read/write classifier all
read lines through this, on the same tree the executor walks. Nothing runs, so a word whose
value only exists at run time (`$(kubectl get pods -o name)`, `$p` in a loop over such a list)
stays as written; variables assigned literally earlier on the line (`N=web; … -n $N`) and the
words of a literal `for` list are known. Commands inside `$(…)`, loop bodies, `eval`,
`sh -c '…'` and `xargs` templates are listed too, each saying how it was reached (`via`).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field

from agentbench.sim.shell.ast import (
    Case,
    Command,
    Declare,
    For,
    Group,
    If,
    Lit,
    Node,
    Param,
    Pipeline,
    Redirected,
    Sequence,
    ShellSyntaxError,
    Subst,
    Unsupported,
    While,
    Word,
)
from agentbench.sim.shell.parse import parse
from agentbench.sim.shell.wrappers import basename, unwrap

XARGS_INPUT = "…"  # the argument(s) xargs appends from its input, unknown statically
_SHELLS = frozenset({"sh", "bash", "dash", "zsh"})
_MAX_DEPTH = 8
_MAX_LOOP = 32


@dataclass(frozen=True)
class StaticRedirect:
    op: str
    target: str
    fd: int | None


@dataclass(frozen=True)
class StaticCommand:
    """One simple command: `words` after its wrappers (program by basename), the wrappers
    read off, its redirects, and how it was reached (e.g. ("xargs",), ("$(…)",), ("sh -c",))."""

    words: tuple[str, ...]
    redirects: tuple[StaticRedirect, ...] = ()
    wrappers: tuple[str, ...] = ()
    via: tuple[str, ...] = ()
    stdin: str | None = None  # a heredoc or here-string body, when literal


MAX_KNOWN = 65_536  # characters of a value the static reader keeps (reading, never running)


@dataclass
class _Walk:
    known: dict[str, str] = field(default_factory=dict)
    out: list[StaticCommand] = field(default_factory=list)


def static_commands(line: str) -> list[StaticCommand]:
    """Every simple command `line` would run, in order; ShellSyntaxError if it does not parse."""
    walk = _Walk()
    _node(parse(line), walk, (), 0)
    return walk.out


def static_word(word: Word, known: dict[str, str]) -> str:
    """The word's value when it is known without running anything, else the word as written."""
    value = known_word(word, known)
    return word.text if value is None else value


def known_word(word: Word, known: dict[str, str]) -> str | None:
    """The word's value when it is known without running anything, else None."""
    out: list[str] = []
    size = 0
    for part in word.parts:
        if isinstance(part, Lit):
            out.append(part.text)
        elif isinstance(part, Param) and not part.op and part.name in known:
            out.append(known[part.name])
        else:
            return None
        size += len(out[-1])
        if size > MAX_KNOWN:  # `x=$x$x` in a loop: nothing static needs a value that long
            return None
    return "".join(out)


def _node(node: Node, walk: _Walk, via: tuple[str, ...], depth: int) -> None:
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, Command):
        _command(node, walk, via, depth)
    elif isinstance(node, Sequence):
        for _, item in node.items:
            _node(item, walk, via, depth)
    elif isinstance(node, Pipeline):
        carry: str | None = None
        for stage in node.stages:
            if isinstance(stage, Command):
                _command(stage, walk, via, depth, piped=carry)
                carry = _literal_output(walk.out[-1]) if walk.out else None
            else:
                _node(stage, walk, via, depth)
                carry = None
    elif isinstance(node, For):
        _substitutions(node.words, walk, via, depth)
        found = [known_word(w, walk.known) for w in node.words]
        values = [v for v in found if v is not None]
        if values and len(values) == len(found):
            for value in values[:_MAX_LOOP]:  # a literal list: the body once per value
                walk.known[node.var] = value
                _node(node.body, walk, via, depth)
            walk.known.pop(node.var, None)
        else:
            _node(node.body, walk, via, depth)
    elif isinstance(node, While):
        _node(node.cond, walk, via, depth)
        _node(node.body, walk, via, depth)
    elif isinstance(node, If):
        for cond, body in node.arms:
            _node(cond, walk, via, depth)
            _node(body, walk, via, depth)
        if node.otherwise is not None:
            _node(node.otherwise, walk, via, depth)
    elif isinstance(node, Case):
        for _, body in node.arms:
            _node(body, walk, via, depth)
    elif isinstance(node, Group):
        _node(node.body, walk, via, depth)
    elif isinstance(node, Redirected):
        _node(node.body, walk, via, depth)
        for redirect in node.redirects:
            target = static_word(redirect.target, walk.known)
            walk.out.append(
                StaticCommand((), (StaticRedirect(redirect.op, target, redirect.fd),), via=via)
            )
    elif isinstance(node, Declare):
        for name, declared in node.names:
            if declared is not None:
                walk.known[name] = static_word(declared, walk.known)
    elif isinstance(node, Unsupported):
        walk.out.append(StaticCommand((node.text,), via=(*via, node.kind)))


def _substitutions(words: tuple[Word, ...], walk: _Walk, via: tuple[str, ...], depth: int) -> None:
    for word in words:
        for part in word.parts:
            if isinstance(part, Subst):
                _node(part.body, walk, (*via, "$(…)"), depth + 1)
            elif isinstance(part, Param) and part.arg is not None:
                _substitutions((part.arg,), walk, via, depth)


def _literal_output(command: StaticCommand) -> str | None:
    """What `echo TEXT`, `printf TEXT` or `cat <<EOF` prints, when it is known statically
    (so `echo "DELETE …" | psql` is read as the SQL it feeds)."""
    if not command.words:
        return None
    if command.words[0] == "echo":
        return " ".join(w for w in command.words[1:] if not w.startswith("-")) + "\n"
    if command.words[0] == "printf" and len(command.words) > 1:
        return command.words[1]
    if command.words == ("cat",) and command.stdin is not None:
        return command.stdin
    return None


def _command(
    node: Command, walk: _Walk, via: tuple[str, ...], depth: int, piped: str | None = None
) -> None:
    _substitutions(tuple(w for _, w in node.assigns) + node.words, walk, via, depth)
    _substitutions(tuple(r.target for r in node.redirects), walk, via, depth)
    words = [static_word(w, walk.known) for w in node.words]
    if not words:
        for name, value in node.assigns:
            walk.known[name] = static_word(value, walk.known)
    redirects = tuple(
        StaticRedirect(r.op, static_word(r.target, walk.known), r.fd)
        for r in node.redirects
        if r.op not in ("<<", "<<-", "<<<")
    )
    stdin = next(
        (static_word(r.target, walk.known) for r in node.redirects if r.op in ("<<", "<<-", "<<<")),
        piped,
    )
    _words(words, walk, via, depth, redirects, stdin)


def _words(
    words: list[str],
    walk: _Walk,
    via: tuple[str, ...],
    depth: int,
    redirects: tuple[StaticRedirect, ...] = (),
    stdin: str | None = None,
) -> None:
    spec = unwrap(words)
    inner = list(spec.words)
    if inner:
        inner[0] = basename(inner[0])
    wrappers = tuple(spec.wrappers)
    if spec.xargs is not None:
        walk.out.append(StaticCommand(("xargs",), redirects, wrappers, via, stdin))
        template = (
            [*inner, XARGS_INPUT]
            if spec.xargs.replace is None
            else [w.replace(spec.xargs.replace, XARGS_INPUT) for w in inner]
        )
        _words(template, walk, (*via, "xargs"), depth + 1)
        return
    walk.out.append(StaticCommand(tuple(inner), redirects, wrappers, via, stdin))
    if not inner:
        return
    script = shell_script(inner)
    if script is not None:
        with contextlib.suppress(ShellSyntaxError):
            _node(parse(script[1]), walk, (*via, script[0]), depth + 1)


def shell_script(words: list[str]) -> tuple[str, str] | None:
    """The text another shell would parse: `eval ARGS`, `sh -c SCRIPT`."""
    if words[0] == "eval" and len(words) > 1:
        return "eval", " ".join(words[1:])
    if words[0] in _SHELLS and len(words) > 2:
        flags = words[1]
        if flags.startswith("-") and "c" in flags and set(flags[1:]) <= set("celxuo"):
            return f"{words[0]} -c", words[2]
    return None


def line_words(line: str) -> list[str]:
    """The line's words as a task rule compares them: each command's words unquoted (wrappers
    kept, `sudo` included), assignments and redirects as single words (`N=web`, `2>&1`,
    `>/dev/null`), joined by the operators (`|`, `&&`, `||`, `;`). A compound command counts
    as the commands it runs, joined by `;`. ShellSyntaxError if the line does not parse."""
    out: list[str] = []
    _flat(parse(line), out)
    return out


def _flat(node: Node, out: list[str]) -> None:
    if isinstance(node, Command):
        out += [f"{name}={static_word(value, {})}" for name, value in node.assigns]
        out += [static_word(w, {}) for w in node.words]
        for r in node.redirects:
            fd = "" if r.fd is None else str(r.fd)
            body = r.op in ("<<", "<<-")
            out.append(f"{fd}{r.op}" + ("" if body else static_word(r.target, {})))
            if body:
                out.append(static_word(r.target, {}))
    elif isinstance(node, Pipeline):
        if node.negated:
            out.append("!")
        for index, stage in enumerate(node.stages):
            if index:
                out.append("|&" if node.both[index - 1 : index] == (True,) else "|")
            _flat(stage, out)
    elif isinstance(node, Sequence):
        for index, (connector, item) in enumerate(node.items):
            if index:
                out.append(connector or ";")
            _flat(item, out)
    else:
        walk = _Walk()
        _node(node, walk, (), 0)
        for index, command in enumerate(c for c in walk.out if c.words):
            out += ([";"] if index else []) + list(command.words)


def quote_words(words: list[str]) -> str:
    """Words joined into a line the front end reads back as the same words."""
    safe = re.compile(r"[\w@%+=:,./-]+")
    return " ".join(
        w if safe.fullmatch(w) else "'" + w.replace("'", "'\"'\"'") + "'" for w in words
    )
