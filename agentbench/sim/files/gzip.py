"""Compressed logs: zcat zless zgrep and `gzip -dc`/`gunzip -c` over declared `.gz` files.

A declared file whose name ends in `.gz` (or `.tgz`, `.z`) holds its *decompressed* text; the
tools print that text. Any other file is not gzip data: zcat and gunzip answer gzip's "not in gzip
format", while zgrep, like the real script (`gzip -cdfq`), reads it as plain text. Reads resolve
to ("file", "read", PATH), the same identity as `cat PATH`.
"""

from __future__ import annotations

from dataclasses import replace

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.core.fs import UserFiles, failure_token
from agentbench.sim.core.options import parse_options
from agentbench.sim.core.registry import Call, program
from agentbench.sim.text.filters import grep

_SUFFIXES = (".gz", ".tgz", ".z", ".Z")


def compressed(path: str) -> bool:
    return path.endswith(_SUFFIXES)


class _Decompressed(UserFiles):
    """Files as zgrep sees them: the decompressed text; a missing one is gzip's error."""

    def read(self, operand: str) -> tuple[str, str | None, str]:
        full, text, error = self._raw(operand)
        if text is None and not compressed(full) and error == "No such file or directory":
            full2, text2, error2 = self._raw(operand + ".gz")
            if text2 is not None:
                return full2, text2, error2
        return full, text, error

    def _raw(self, operand: str) -> tuple[str, str | None, str]:
        full = self.path(operand)
        if self.fs is None:
            return full, None, "No such file or directory"
        text, error = self.fs.read(full, self.user)
        return full, text, error


@program("zcat", "zless", "zmore", "gunzip", "gzip", needs=("system",))
def zcat(call: Call) -> CommandResult:
    state, argv, stdin, ctx = call.system, call.argv, call.stdin, call.ctx
    prog = argv[0]
    opts, operands, error = parse_options("gzip", argv[1:], "cdfqk", ["stdout", "decompress"])
    if error:
        return error
    if prog in ("gzip", "gunzip"):
        flags = {o for o, _ in opts}
        decompress = prog == "gunzip" or flags & {"-d", "--decompress"}
        if not decompress or not flags & {"-c", "--stdout"}:
            raise NotSimulated(f"{prog} without -c (changing files in place)")
    files = _Decompressed(state.fs, ctx)
    result = CommandResult()
    ids: list[str] = []
    if not operands:
        if stdin:  # text on a pipe is never gzip data here
            return CommandResult(stderr="gzip: stdin: not in gzip format\n", exit_code=1)
        return result
    for operand in operands:
        full, text, problem = files.read(operand)
        ids += ([";"] if ids else []) + ["file", "read", full]
        if text is None:
            result.stderr += f"gzip: {operand}: {problem}\n"
            result.exit_code = 1
            ids.append(failure_token(problem))
        elif not compressed(full):
            result.stderr += f"gzip: {operand}: not in gzip format\n"
            result.exit_code = 1
        else:
            result.stdout += text
    if state.fs is None:
        raise NotSimulated(f"{prog} FILE (no filesystem declared)", tuple(ids))
    result.identity = tuple(ids)
    return result


@program("zgrep", needs=("system",))
def zgrep(call: Call) -> CommandResult:
    view = _Decompressed(call.system.fs, call.ctx)
    result = grep(replace(call, argv=["grep", *call.argv[1:]], view=view))
    result.stderr = "".join(
        (
            "gzip: " + line[len("grep: ") :]
            if line.startswith("grep: ") and "such file" in line
            else line
        )
        + "\n"
        for line in result.stderr.splitlines()
    )
    return result


@program("zegrep", needs=("system",))
def zegrep(call: Call) -> CommandResult:
    return zgrep(replace(call, argv=["zgrep", "-E", *call.argv[1:]]))
