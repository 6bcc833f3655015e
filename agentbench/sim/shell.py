"""The shell layer: run a command line (parsed by shell_parse.py) through simulated programs.

Grammar covered: words with '…', "…" and backslash quoting; `$VAR`/`${VAR}` from the context;
lists joined by `;`, `&&`, `||`; pipelines `|`; redirects `>`, `>>`, `<`, `2>`, `2>&1`, `&>`,
`>/dev/null`; prefixes `VAR=x cmd`, `env [-i] VAR=x cmd`, `sudo [-u USER] [-E|-n|-H] cmd`,
`time`, `command`, `nohup`; a program named by path (`/usr/bin/kubectl`) runs as its basename;
command substitution `$(cmd)`/`` `cmd` ``; pathname expansion of unquoted `*`, `?`, `[...]`;
compound lines `for`, `if` and `while read` (shell_flow.py).

What a line meant: its `identity` is the identities of its stages that resolved to something
(filters reading stdin are presentation and resolve to None), joined by ";" elements when
several; `changes` are every stage's; `simulated` is False if any stage was off-script.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from agentbench.sim.base import CommandResult, Identity, Program, ShellContext
from agentbench.sim.budget import WorkExceeded, current
from agentbench.sim.shell_flow import compound, join_identities
from agentbench.sim.shell_parse import (
    GlobWord,
    Pipeline,
    Redirect,
    ShellSyntaxError,
    SimpleCommand,
    parse,
)

_ASSIGN = re.compile(r"^[A-Za-z_]\w*=")
_SUBST = re.compile(r"\$\(([^()]*)\)|`([^`]*)`")

# A file writer for `>`/`>>`: (path, text, append, ctx) -> its result (error, changes, identity).
Writer = Callable[[str, str, bool, ShellContext], CommandResult]
Reader = Callable[[str, ShellContext], tuple[str | None, str]]  # (text, error)
Globber = Callable[[str, ShellContext], list[str]]  # pattern -> matching paths, sorted


class Shell:
    """Runs command lines over a registry of programs (name -> Program)."""

    def __init__(
        self,
        programs: Mapping[str, Program],
        *,
        sudo: bool = True,
        users: frozenset[str] = frozenset({"root"}),
        not_installed: frozenset[str] = frozenset(),
        write: Writer | None = None,
        read: Reader | None = None,
        glob: Globber | None = None,
    ) -> None:
        self.programs = programs
        self.sudo = sudo
        self.users = users
        self.not_installed = not_installed
        self.write = write
        self.read = read
        self.glob = glob

    def run(self, line: str, ctx: ShellContext) -> CommandResult:
        try:
            current().check()  # a line run again after its call was killed ends at once
        except WorkExceeded as exc:
            return exc.result("bash")
        total = CommandResult()
        identities: list[Identity] = []
        flow = compound(self, line, ctx)
        if flow is not None:  # for / if / while read: the whole line is one compound command
            return flow
        line = self._substitute(line, ctx, total, identities)
        try:
            home = "/root" if ctx.user == "root" else f"/home/{ctx.user}"
            items = parse(line, {"USER": ctx.user, "HOME": home, **dict(ctx.env)})
        except ShellSyntaxError as exc:
            return CommandResult(stderr=f"{exc}\n", exit_code=2)
        code = 0
        for connector, pipeline in items:
            if (connector == "&&" and code != 0) or (connector == "||" and code == 0):
                continue
            result, stage_ids = self._pipeline(pipeline, ctx)
            if result.timed_out:  # the runtime kills the whole command line
                result.changes = total.changes + result.changes  # what ran before still counts
                return result
            total.stdout += result.stdout
            total.stderr += result.stderr
            total.changes += result.changes
            total.simulated = total.simulated and result.simulated
            identities += stage_ids
            code = result.exit_code
        total.exit_code = code
        total.identity = join_identities(identities)
        return total

    def _substitute(
        self, line: str, ctx: ShellContext, total: CommandResult, identities: list[Identity]
    ) -> str:
        """`$(cmd)` and `` `cmd` `` (innermost first): the command's output, trailing newlines
        dropped; what it read and changed counts for the line."""
        while True:
            match = next(
                (m for m in _SUBST.finditer(line) if not _single_quoted(line, m.start())), None
            )
            if not match:
                return line
            inner = match.group(1) if match.group(1) is not None else match.group(2)
            result = self.run(inner, ctx)
            total.stderr += result.stderr
            total.changes += result.changes
            total.simulated = total.simulated and result.simulated
            if result.identity is not None:
                identities.append(result.identity)
            line = line[: match.start()] + result.stdout.rstrip("\n") + line[match.end() :]

    def _pipeline(
        self, pipeline: Pipeline, ctx: ShellContext
    ) -> tuple[CommandResult, list[Identity]]:
        out = CommandResult()
        stdin: str | None = None
        ids: list[Identity] = []
        for index, command in enumerate(pipeline):
            result = self._simple(command, stdin, ctx)
            if result.timed_out:
                result.changes = out.changes + result.changes
                return result, ids
            if result.identity is not None:
                ids.append(result.identity)
            out.changes += result.changes
            out.simulated = out.simulated and result.simulated
            out.stderr += result.stderr
            last = index == len(pipeline) - 1
            stdin = result.stdout
            if last:
                out.stdout, out.exit_code = result.stdout, result.exit_code
        return out, ids

    def _simple(
        self, command: SimpleCommand, stdin: str | None, ctx: ShellContext
    ) -> CommandResult:
        words, ctx, error = self._prefixes(list(command.words), ctx)
        if error is not None:
            return error
        words = self.expand_words(words, ctx, raw=False)
        for redirect in command.redirects:
            if redirect.op == "<":
                if redirect.target == "/dev/null":
                    stdin = ""
                    continue
                if self.read is None:
                    return _missing_file(redirect.target)
                text, problem = self.read(redirect.target, ctx)
                if text is None:
                    return CommandResult(
                        stderr=f"bash: {redirect.target}: {problem}\n", exit_code=1
                    )
                stdin = text
        if not words:
            return CommandResult()
        result = self._program(words, stdin, ctx)
        return self._redirect_output(result, command.redirects, ctx)

    def expand_words(self, words: list[str], ctx: ShellContext, *, raw: bool = True) -> list[str]:
        """Pathname expansion: a word with unquoted `*`, `?` or `[` becomes the matching paths;
        with no match it stays as written (bash without nullglob). `raw`: the words are
        unparsed text (a `for` list), globbed unless quoted; else parsed words (`GlobWord`)."""
        if self.glob is None:
            return words
        out: list[str] = []
        for word in words:
            pattern = word.pattern if isinstance(word, GlobWord) else None
            if raw and not any(q in word for q in "'\"\\") and any(c in word for c in "*?["):
                pattern = word
            matches = self.glob(pattern, ctx) if pattern else []
            out += matches or [str(word)]
        return out

    def _prefixes(
        self, words: list[str], ctx: ShellContext
    ) -> tuple[list[str], ShellContext, CommandResult | None]:
        env = dict(ctx.env)
        while words:
            head = words[0]
            if _ASSIGN.match(head):
                name, _, value = head.partition("=")
                env[name] = value
                words = words[1:]
            elif head in ("env", "/usr/bin/env"):
                words = words[1:]
                while words and (words[0].startswith("-") or _ASSIGN.match(words[0])):
                    if words[0] == "-i":
                        env = {}
                    elif _ASSIGN.match(words[0]):
                        name, _, value = words[0].partition("=")
                        env[name] = value
                    words = words[1:]
            elif head in ("time", "command", "nohup", "exec"):
                words = words[1:]
            elif head in ("sudo", "/usr/bin/sudo"):
                words, user, error = self._sudo(words[1:], ctx)
                if error is not None:
                    return words, ctx, error
                ctx = replace(ctx, user=user)
            else:
                break
        return words, replace(ctx, env=tuple(sorted(env.items()))), None

    def _sudo(
        self, words: list[str], ctx: ShellContext
    ) -> tuple[list[str], str, CommandResult | None]:
        user = "root"
        while words and words[0].startswith("-"):
            flag = words.pop(0)
            if flag in ("-u", "--user") and words:
                user = words.pop(0)
            elif flag.startswith("--user="):
                user = flag.split("=", 1)[1]
            elif flag.startswith("-u") and len(flag) > 2:
                user = flag[2:]
            elif flag == "--":
                break
        if not self.sudo and ctx.user != "root":
            text = (
                "sudo: a terminal is required to read the password; either use the -S option to "
                "read from standard input or configure an askpass helper\n"
                "sudo: a password is required\n"
            )
            return words, user, CommandResult(stderr=text, exit_code=1, identity=("sudo", "denied"))
        if user.lstrip("#") not in self.users and not user.startswith("#"):
            return words, user, CommandResult(stderr=f"sudo: unknown user {user}\n", exit_code=1)
        if not words:
            usage = "usage: sudo -h | -K | -k | -V\nusage: sudo [-u user] command\n"
            return words, user, CommandResult(stderr=usage, exit_code=1)
        return words, user, None

    def _program(self, words: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        name = words[0]
        if "/" in name:
            base = name.rsplit("/", 1)[1]
            if not name.startswith("/") or base not in self.programs:
                return CommandResult(
                    stderr=f"bash: {name}: No such file or directory\n", exit_code=127
                )
            name = base
        program = self.programs.get(name)
        if program is None:
            known = name in self.not_installed
            return CommandResult(
                stderr=f"bash: {name}: command not found\n",
                exit_code=127,
                identity=("not-installed", name) if known else None,
                simulated=known,
            )
        budget = current()  # one step a command; a command past a limit is killed
        try:
            budget.step()
            result = program.run([name, *words[1:]], stdin, ctx)
            budget.built(len(result.stdout) + len(result.stderr))
        except WorkExceeded as exc:
            return exc.result(name)
        return result

    def _redirect_output(
        self, result: CommandResult, redirects: list[Redirect], ctx: ShellContext
    ) -> CommandResult:
        for redirect in redirects:
            if redirect.op == "<":
                continue
            if redirect.op == ">&":
                if redirect.fd == 2 and redirect.target == "1":
                    result.stdout, result.stderr = result.stdout + result.stderr, ""
                elif redirect.fd == 1 and redirect.target == "2":
                    result.stdout, result.stderr = "", result.stderr + result.stdout
                continue
            streams = {1: "stdout", 2: "stderr", -1: "both"}[
                redirect.fd if redirect.fd in (1, 2, -1) else 1
            ]
            text = result.stdout if streams == "stdout" else result.stderr
            if streams == "both":
                text = result.stdout + result.stderr
            if streams in ("stdout", "both"):
                result.stdout = ""
            if streams in ("stderr", "both"):
                result.stderr = ""
            if redirect.target == "/dev/null":
                continue
            if self.write is None:
                result.stderr += f"bash: {redirect.target}: Read-only file system\n"
                result.exit_code = 1
                continue
            written = self.write(redirect.target, text, redirect.op == ">>", ctx)
            result.stderr += written.stderr
            result.exit_code = written.exit_code or result.exit_code
            result.changes += written.changes
            if written.identity is not None:
                result.identity = join_identities(
                    [i for i in (result.identity, written.identity) if i]
                )
        return result


def _single_quoted(line: str, index: int) -> bool:
    """Whether `index` lies inside '...' (where bash expands nothing)."""
    current().step(1 + index)  # a scan from the start, run once per match: a step a character
    inside = double = False
    for i, c in enumerate(line[:index]):
        if c == "'" and not double and (i == 0 or line[i - 1] != "\\" or inside):
            inside = not inside
        elif c == '"' and not inside:
            double = not double
    return inside


def _missing_file(path: str) -> CommandResult:
    return CommandResult(stderr=f"bash: {path}: No such file or directory\n", exit_code=1)
