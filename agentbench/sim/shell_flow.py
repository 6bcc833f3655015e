"""Compound commands the shell layer runs as a whole line: `for`, `if` and `while read`.

Covered (one level, no nesting, the forms models write in one tool call):
`for VAR in WORDS; do BODY; done` (WORDS globbed), `if COND; then BODY; [else OTHER;] fi`
(`elif` is not), `PRODUCER | while [IFS=…] read [-r] VAR...; do BODY; done` and
`while read [-r] VAR...; do BODY; done < FILE`. Each part runs through the shell again, so
pipes, prefixes and redirects inside work as elsewhere; what the parts read and changed counts
for the line.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from agentbench.sim.base import CommandResult, Identity, ShellContext

if TYPE_CHECKING:
    from agentbench.sim.shell import Shell

_FOR = re.compile(r"^\s*for\s+(\w+)\s+in\s+([^;]*);\s*do\s+(.*?);?\s*done\s*$", re.S)
_IF = re.compile(
    r"^\s*if\s+(.+?);\s*then\s+(.+?);?\s*(?:else\s+(.+?);?\s*)?fi\s*$",
    re.S,
)
_READ = r"while\s+(?:IFS=\S*\s+)?read\s+(?:-r\s+)?(\w+(?:\s+\w+)*)\s*;\s*do\s+(.*?);?\s*done"
_WHILE_PIPE = re.compile(r"^(.+)\|\s*" + _READ + r"\s*$", re.S)
_WHILE_FILE = re.compile(r"^\s*" + _READ + r"\s*<\s*(\S+)\s*$", re.S)


def compound(shell: Shell, line: str, ctx: ShellContext) -> CommandResult | None:
    """The result of `line` when it is one compound command, else None."""
    total = CommandResult()
    ids: list[Identity] = []
    if match := _FOR.match(line):
        for word in shell.expand_words(match.group(2).split(), ctx):
            _merge(total, ids, shell.run(match.group(3), _with(ctx, {match.group(1): word})))
    elif match := _IF.match(line):
        cond = shell.run(match.group(1), ctx)
        _merge(total, ids, cond)
        branch = match.group(2) if cond.exit_code == 0 else match.group(3)
        if branch is not None:
            _merge(total, ids, shell.run(branch, ctx))
        else:
            total.exit_code = 0  # no branch taken: `if` succeeds
    elif match := _WHILE_PIPE.match(line):
        source = shell.run(match.group(1), ctx)
        total.stderr += source.stderr
        _keep(total, ids, source)
        _loop(shell, total, ids, source.stdout, match.group(2).split(), match.group(3), ctx)
    elif match := _WHILE_FILE.match(line):
        if shell.read is None:
            return CommandResult(
                stderr=f"bash: {match.group(3)}: No such file or directory\n", exit_code=1
            )
        text, problem = shell.read(match.group(3), ctx)
        if text is None:
            return CommandResult(stderr=f"bash: {match.group(3)}: {problem}\n", exit_code=1)
        ids.append(("file", "read", posixpath.normpath(posixpath.join(ctx.cwd, match.group(3)))))
        _loop(shell, total, ids, text, match.group(1).split(), match.group(2), ctx)
    else:
        return None
    total.identity = join_identities(ids)
    return total


def _loop(
    shell: Shell,
    total: CommandResult,
    ids: list[Identity],
    text: str,
    names: list[str],
    body: str,
    ctx: ShellContext,
) -> None:
    """The body once per input line; `read` splits on blanks, the last name takes the rest."""
    for line in text.splitlines():
        fields = line.split(None, len(names) - 1)
        values = {n: (fields[i] if i < len(fields) else "") for i, n in enumerate(names)}
        _merge(total, ids, shell.run(body, _with(ctx, values)))
    # bash: the status of the last body command run, 0 when the body never ran


def _with(ctx: ShellContext, values: dict[str, str]) -> ShellContext:
    return replace(ctx, env=tuple(sorted({**dict(ctx.env), **values}.items())))


def _keep(total: CommandResult, ids: list[Identity], result: CommandResult) -> None:
    total.changes += result.changes
    total.simulated = total.simulated and result.simulated
    if result.identity is not None:
        ids.append(result.identity)


def _merge(total: CommandResult, ids: list[Identity], result: CommandResult) -> None:
    total.stdout += result.stdout
    total.stderr += result.stderr
    total.exit_code = result.exit_code
    _keep(total, ids, result)


def join_identities(identities: list[Identity]) -> Identity | None:
    """Several resolved calls as one identity, joined by ";" elements (None when none)."""
    if not identities:
        return None
    out: list[str] = list(identities[0])
    for identity in identities[1:]:
        out += [";", *identity]
    return tuple(out)
