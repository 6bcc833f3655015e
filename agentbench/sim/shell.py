"""The shell layer: parse a command line as bash would and run it through simulated programs.

Grammar covered: words with '…', "…" and backslash quoting; `$VAR`/`${VAR}` from the context;
lists joined by `;`, `&&`, `||`; pipelines `|`; redirects `>`, `>>`, `<`, `2>`, `2>&1`, `&>`,
`>/dev/null`; prefixes `VAR=x cmd`, `env [-i] VAR=x cmd`, `sudo [-u USER] [-E|-n|-H] cmd`,
`time`, `command`, `nohup`; a program named by path (`/usr/bin/kubectl`) runs as its basename.

What a line meant: its `identity` is the identities of its stages that resolved to something
(filters reading stdin are presentation and resolve to None), joined by ";" elements when
several; `changes` are every stage's; `simulated` is False if any stage was off-script.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from agentbench.sim.base import CommandResult, Identity, Program, ShellContext

_OPERATORS = ("&&", "||", "|", ";", "&")
_VAR = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
_ASSIGN = re.compile(r"^[A-Za-z_]\w*=")


class ShellSyntaxError(ValueError):
    """The line does not parse; the message is bash's."""


@dataclass
class Redirect:
    fd: int  # 0 stdin, 1 stdout, 2 stderr, -1 both (&>)
    op: str  # ">", ">>", "<", ">&"
    target: str


@dataclass
class SimpleCommand:
    words: list[str] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)


Pipeline = list[SimpleCommand]

# A file writer for `>`/`>>`: (path, text, append, ctx) -> its result (error, changes, identity).
Writer = Callable[[str, str, bool, ShellContext], CommandResult]
Reader = Callable[[str, ShellContext], tuple[str | None, str]]  # (text, error)


def _tokens(line: str, env: Mapping[str, str]) -> list[str | tuple[str]]:
    """Words as str; operators and redirect markers as 1-tuples."""
    out: list[str | tuple[str]] = []
    word: list[str] = []
    started = False  # a word is open (even an empty quoted one)
    quoted = False  # the open word has quoted parts (so "2">x is not a redirect of fd 2)
    i, n = 0, len(line)

    def close() -> None:
        nonlocal started, quoted
        if started:
            out.append("".join(word))
        word.clear()
        started = quoted = False

    while i < n:
        c = line[i]
        if c in " \t\n":
            close()
            i += 1
        elif c == "'":
            end = line.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("bash: unexpected EOF while looking for matching `''")
            word.append(line[i + 1 : end])
            started = quoted = True
            i = end + 1
        elif c == '"':
            i += 1
            while i < n and line[i] != '"':
                if line[i] == "\\" and i + 1 < n and line[i + 1] in '"\\$`':
                    word.append(line[i + 1])
                    i += 2
                elif line[i] == "$":
                    i = _expand(line, i, env, word)
                else:
                    word.append(line[i])
                    i += 1
            if i >= n:
                raise ShellSyntaxError("bash: unexpected EOF while looking for matching `\"'")
            started = quoted = True
            i += 1
        elif c == "\\":
            if i + 1 < n:
                word.append(line[i + 1])
            started = True
            i += 2
        elif c == "$":
            i = _expand(line, i, env, word)
            started = True
        elif c == "#" and not started:
            break
        elif c in "<>":
            fd = "".join(word) if started and not quoted and "".join(word).isdigit() else None
            if fd is None:
                close()
            else:
                word.clear()
                started = False
            op = c
            if c == ">" and line.startswith(">>", i):
                op, i = ">>", i + 2
            elif c == ">" and line.startswith(">&", i):
                op, i = ">&", i + 2
            else:
                i += 1
            out.append((f"{fd or ('0' if c == '<' else '1')}{op}",))
        elif c in "|&;":
            if c == "&" and line.startswith("&>", i) and not started:
                out.append(("-1>",))
                i += 2
                continue
            close()
            two = line[i : i + 2]
            op = two if two in ("&&", "||") else c
            out.append((op,))
            i += len(op)
        else:
            word.append(c)
            started = True
            i += 1
    close()
    return out


def _expand(line: str, i: int, env: Mapping[str, str], word: list[str]) -> int:
    match = _VAR.match(line, i)
    if not match:
        word.append("$")
        return i + 1
    word.append(env.get(match.group(1) or match.group(2), ""))
    return match.end()


def parse(line: str, env: Mapping[str, str] | None = None) -> list[tuple[str, Pipeline]]:
    """[(connector before it: "" | ";" | "&&" | "||", pipeline), ...]."""
    items: list[tuple[str, Pipeline]] = []
    connector = ""
    pipeline: Pipeline = [SimpleCommand()]
    tokens = _tokens(line, env or {})
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        if isinstance(tok, str):
            pipeline[-1].words.append(tok)
        elif tok[0] in _OPERATORS:
            op = tok[0]
            if not pipeline[-1].words:
                raise ShellSyntaxError(f"bash: syntax error near unexpected token `{op}'")
            if op == "|":
                pipeline.append(SimpleCommand())
            else:
                items.append((connector, pipeline))
                connector, pipeline = (";" if op == "&" else op), [SimpleCommand()]
        else:
            spec = tok[0]
            target = tokens[k + 1] if k + 1 < len(tokens) else None
            if not isinstance(target, str):
                shown = "newline" if target is None else target[0]
                raise ShellSyntaxError(f"bash: syntax error near unexpected token `{shown}'")
            op = spec.lstrip("-0123456789")
            pipeline[-1].redirects.append(Redirect(int(spec[: -len(op)]), op, target))
            k += 1
        k += 1
    if pipeline[-1].words:
        items.append((connector, pipeline))
    elif connector in ("&&", "||") or len(pipeline) > 1:
        raise ShellSyntaxError("bash: syntax error: unexpected end of file")
    return items


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
    ) -> None:
        self.programs = programs
        self.sudo = sudo
        self.users = users
        self.not_installed = not_installed
        self.write = write
        self.read = read

    def run(self, line: str, ctx: ShellContext) -> CommandResult:
        try:
            home = "/root" if ctx.user == "root" else f"/home/{ctx.user}"
            items = parse(line, {"USER": ctx.user, "HOME": home, **dict(ctx.env)})
        except ShellSyntaxError as exc:
            return CommandResult(stderr=f"{exc}\n", exit_code=2)
        total = CommandResult()
        identities: list[Identity] = []
        code = 0
        for connector, pipeline in items:
            if (connector == "&&" and code != 0) or (connector == "||" and code == 0):
                continue
            result, stage_ids = self._pipeline(pipeline, ctx)
            if result.timed_out:  # the runtime kills the whole command line
                return result
            total.stdout += result.stdout
            total.stderr += result.stderr
            total.changes += result.changes
            total.simulated = total.simulated and result.simulated
            identities += stage_ids
            code = result.exit_code
        total.exit_code = code
        total.identity = _join(identities)
        return total

    def _pipeline(
        self, pipeline: Pipeline, ctx: ShellContext
    ) -> tuple[CommandResult, list[Identity]]:
        out = CommandResult()
        stdin: str | None = None
        ids: list[Identity] = []
        for index, command in enumerate(pipeline):
            result = self._simple(command, stdin, ctx)
            if result.timed_out:
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
        for redirect in command.redirects:
            if redirect.op == "<":
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
        return program.run([name, *words[1:]], stdin, ctx)

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
                result.identity = _join([i for i in (result.identity, written.identity) if i])
        return result


def _missing_file(path: str) -> CommandResult:
    return CommandResult(stderr=f"bash: {path}: No such file or directory\n", exit_code=1)


def _join(identities: list[Identity]) -> Identity | None:
    if not identities:
        return None
    out: list[str] = list(identities[0])
    for identity in identities[1:]:
        out += [";", *identity]
    return tuple(out)
