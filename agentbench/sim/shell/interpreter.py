"""The shell layer: a command line parsed once (shell/parse.py, tree-sitter-bash) and its
syntax tree walked over simulated programs. Nothing is executed on the host.

Covered: words with every quoting, `$VAR`/`${VAR}`/`${VAR:-x}` from the context and from
assignments earlier on the line (`N=web; kubectl get pods -n $N`), command substitution
(`$(…)`, backticks; its output is data, never parsed again), field splitting and pathname
expansion; pipelines, lists (`;`, `&`, `&&`, `||`, `!`), `for`/`while`/`until`/`if`/`case`,
`( … )` and `{ …; }` (shell/flow.py); redirects and heredocs (shell/io.py); the wrappers
sudo/env/nohup/nice/time/command/exec/timeout/xargs (shell/wrappers.py); the builtins cd,
export/unset/local, read, eval, exit, `sh -c`/`bash -c`. What the tree holds beyond that
(functions, arithmetic, `[[ … ]]`, process substitution, `watch`) is reported as not
simulated, never answered with an invented error.

What a line meant: its `identity` is the identities of its commands that resolved to
something, joined by ";" elements; `changes` are every command's; `simulated` is False if any
part was off-script.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from agentbench.sim.core.base import Change, CommandResult, NotSimulated, Program, ShellContext
from agentbench.sim.core.budget import WorkExceeded, current
from agentbench.sim.shell.ast import Command, Node, Redirect, ShellSyntaxError
from agentbench.sim.shell.io import (
    Acc,
    ExitShell,
    Input,
    heredoc_text,
    is_input,
    join_identities,
    route,
)
from agentbench.sim.shell.parse import parse
from agentbench.sim.shell.words import Expander, expand_fields, expand_one
from agentbench.sim.shell.wrappers import Unwrapped, basename, unwrap, xargs_items

__all__ = ["Shell", "ShellSyntaxError", "join_identities", "parse"]

Writer = Callable[[str, str, bool, ShellContext], CommandResult]
Reader = Callable[[str, ShellContext], tuple[str | None, str]]  # (text, error)
Globber = Callable[[str, ShellContext], list[str]]  # pattern -> matching paths, sorted

MAX_DEPTH = 12  # nested eval / sh -c / substitution
MAX_COMMANDS = 5_000  # simple commands per line: past it the runtime times the call out
_SHELLS = frozenset({"sh", "bash", "dash", "zsh"})
_TIME = "\nreal\t0m0.004s\nuser\t0m0.002s\nsys\t0m0.001s\n"  # a fast command's figures
_TIME_POSIX = "real 0.00\nuser 0.00\nsys 0.00\n"
_SPECIAL = {"?": "", "#": "0", "0": "bash", "$": "4242", "-": "hB"}  # `$$`: a fixed pid
_SHELL_BUILTINS = frozenset({"cd", "read", "eval", "exit", "source", ".", "command"})


class _TimedOut(Exception):
    """A command timed out, or the line ran past its work budget (an endless loop): the
    runtime kills the whole line and answers with that result alone."""

    def __init__(self, result: CommandResult | None = None) -> None:
        self.result = result or CommandResult(
            stderr="run_command: timed out\n", exit_code=124, timed_out=True
        )


@dataclass
class State:
    """One shell's variables and directory; a subshell works on a copy."""

    ctx: ShellContext
    vars: dict[str, str] = field(default_factory=dict)
    exported: set[str] = field(default_factory=set)
    status: int = 0

    def copy(self) -> State:
        return State(self.ctx, dict(self.vars), set(self.exported), self.status)

    def env(self) -> dict[str, str]:
        return {k: v for k, v in self.vars.items() if k in self.exported}


class Shell:
    """Runs command lines over a registry of programs (name -> Program)."""

    def __init__(
        self,
        programs: Mapping[str, Program],
        *,
        sudo: bool = True,
        users: frozenset[str] = frozenset({"root"}),
        not_installed: frozenset[str] = frozenset(),
        rule_programs: frozenset[str] = frozenset(),
        write: Writer | None = None,
        read: Reader | None = None,
        glob: Globber | None = None,
    ) -> None:
        self.programs = programs
        self.sudo = sudo
        self.users = users
        self.not_installed = not_installed
        self.rule_programs = rule_programs  # installed, answered by the task's rules alone
        self.write = write
        self.read = read
        self.glob = glob
        self.commands = 0
        self.depth = 0
        self.made: list[Change] = []  # changes of the line's commands that ran to their end

    def run(self, line: str, ctx: ShellContext) -> CommandResult:
        """The one place "not simulated" becomes an answer: whatever part of the line raised
        `NotSimulated` (the parser, a shell construct, a program, a filter's language), the
        whole line is off-script, its construct named on the result."""
        try:
            current().check()  # a line run again after its call was killed ends at once
        except WorkExceeded as exc:
            return exc.result("bash")
        try:
            tree = parse(line)
            home = "/root" if ctx.user == "root" else f"/home/{ctx.user}"
            state = State(ctx, {"USER": ctx.user, "HOME": home, "PWD": ctx.cwd, **dict(ctx.env)})
            state.exported = set(state.vars)
            self.commands, self.depth, self.made = 0, 0, []
            return self.execute(tree, None, state)
        except NotSimulated as exc:
            return exc.result()
        except ShellSyntaxError as exc:
            return CommandResult(stderr=f"{exc}\n", exit_code=2)
        except ExitShell as stop:
            return stop.result()
        except _TimedOut as killed:  # what ran before the kill still changed the state
            killed.result.changes = [*self.made, *killed.result.changes]
            return killed.result

    def execute(self, node: Node, stdin: Input | None, state: State) -> CommandResult:
        from agentbench.sim.shell.flow import run_compound

        if isinstance(node, Command):
            result = self._command(node, stdin, state)
        else:
            result = run_compound(self, node, stdin, state)
        if result.timed_out:
            raise _TimedOut(result)
        if self.depth == 0 and isinstance(node, Command):  # a top-level command ran to its end
            self.made += result.changes
        state.status = result.exit_code
        return result

    def nested(self, tree: Node, stdin: Input | None, state: State) -> CommandResult:
        """eval, `sh -c` and substitutions: one level deeper, bounded."""
        if self.depth >= MAX_DEPTH:
            raise NotSimulated(f"nesting deeper than {MAX_DEPTH}")
        self.depth += 1
        try:
            return self.execute(tree, stdin, state)
        finally:
            self.depth -= 1

    def tick(self) -> None:
        self.commands += 1
        if self.commands > MAX_COMMANDS:
            raise _TimedOut

    def expander(self, state: State, acc: Acc) -> Expander:
        def substitute(body: Node) -> str:
            try:
                result = self.nested(body, None, state.copy())
            except ExitShell as stop:
                result = stop.result()
            acc.keep(result)
            acc.result.stderr += result.stderr
            state.status = result.exit_code
            return result.stdout

        def glob(pattern: str) -> list[str]:
            return self.glob(pattern, state.ctx) if self.glob is not None else []

        def assign(name: str, value: str) -> None:
            state.vars[name] = value

        status = state.status  # `$?`: the status before this command's own substitutions

        def lookup(name: str) -> str | None:
            if name in _SPECIAL:
                return str(status) if name == "?" else _SPECIAL[name]
            if name == "!":
                raise NotSimulated("$! (background jobs)")
            return state.vars.get(name)

        return Expander(lookup, substitute, glob, assign)

    def _command(self, node: Command, stdin: Input | None, state: State) -> CommandResult:
        self.tick()
        acc = Acc()
        ex = self.expander(state, acc)
        status_before = state.status
        state.status = 0
        assigns: dict[str, str] = {}
        for name, word in node.assigns:
            if not name:
                raise NotSimulated(f"assignment `{word.text}`")
            assigns[name] = expand_one(word, ex, tilde=True)
        words = [f for word in node.words for f in expand_fields(word, ex)]
        targets = [(r, expand_one(r.target, ex, r.op not in ("<<", "<<<"))) for r in node.redirects]
        feed = self.input(targets, stdin, state, acc)
        if isinstance(feed, CommandResult):
            acc.add(feed)
            return acc.done()
        if not words:
            state.vars.update(assigns)
            status = state.status if node.assigns or node.redirects else status_before
            result = route(CommandResult(exit_code=status), targets, state.ctx, self.write)
        else:
            result = self.run_words(words, feed, state, assigns)
            result = route(result, targets, state.ctx, self.write)
        acc.add(result)
        return acc.done()

    def input(
        self, targets: list[tuple[Redirect, str]], stdin: Input | None, state: State, acc: Acc
    ) -> Input | CommandResult | None:
        """stdin as the input redirects leave it (a file read is part of the identity)."""
        for redirect, target in targets:
            op = redirect.op
            if not is_input(redirect):
                continue
            if op in ("<<", "<<-"):
                stdin = Input(heredoc_text(op, target))
            elif op == "<<<":
                stdin = Input(target + "\n")
            elif op == "<&":
                raise NotSimulated("input descriptor duplication")
            elif target == "/dev/null":
                stdin = Input("")
            else:
                text, problem = (None, "No such file or directory")
                if self.read is not None:
                    text, problem = self.read(target, state.ctx)
                if text is None:
                    return CommandResult(stderr=f"bash: {target}: {problem}\n", exit_code=1)
                path = posixpath.normpath(posixpath.join(state.ctx.cwd, target))
                acc.ids.append(("file", "read", path))
                stdin = Input(text)
        return stdin

    def run_words(
        self, words: list[str], stdin: Input | None, state: State, assigns: dict[str, str]
    ) -> CommandResult:
        """A simple command's fields: wrappers read, then a builtin or a program."""
        if words[0] == "time" and len(words) > 1:  # bash's keyword: the report goes to stderr
            posix = words[1] == "-p"
            result = self.run_words(words[2:] if posix else words[1:], stdin, state, assigns)
            result.stderr += _TIME_POSIX if posix else _TIME
            return result
        spec = unwrap(words)
        if spec.unsupported or spec.watch:
            raise NotSimulated(spec.unsupported or "watch (runs until interrupted)")
        ctx = state.ctx
        if "sudo" in spec.wrappers:
            denied = self._sudo(spec, state)
            if denied is not None:
                return denied
            ctx = replace(ctx, user=spec.user or "root")
        env = {} if spec.clear_env else state.env()
        env.update(assigns)
        env.update(spec.env)
        ctx = replace(ctx, env=tuple(sorted(env.items())))
        if not spec.words:
            if spec.wrappers and spec.wrappers[-1] == "env":
                return CommandResult(stdout="".join(f"{k}={v}\n" for k, v in sorted(env.items())))
            raise NotSimulated(f"{' '.join(spec.wrappers)} without a command")
        if spec.xargs is not None:
            return self._xargs(spec, stdin, state, ctx)
        name = basename(spec.words[0])
        if name in _SHELL_BUILTINS and not set(spec.wrappers) - {"command", "time", "exec"}:
            from agentbench.sim.shell.builtins import builtin

            return builtin(self, spec.words, stdin, state, assigns)
        if name in ("[", "test"):
            from agentbench.sim.shell.builtins import test_builtin

            return test_builtin(self, [name, *spec.words[1:]], ctx)
        if name in _SHELLS and len(spec.words) > 1:
            return self._shell_c(spec.words, stdin, state, ctx)
        return self.program(spec.words, stdin.rest() if stdin else None, ctx)

    def _sudo(self, spec: Unwrapped, state: State) -> CommandResult | None:
        user = spec.user or "root"
        if not self.sudo and state.ctx.user != "root":
            text = (
                "sudo: a terminal is required to read the password; either use the -S option to "
                "read from standard input or configure an askpass helper\n"
                "sudo: a password is required\n"
            )
            return CommandResult(stderr=text, exit_code=1, identity=("sudo", "denied"))
        if user.lstrip("#") not in self.users and not user.startswith("#"):
            return CommandResult(stderr=f"sudo: unknown user {user}\n", exit_code=1)
        if not spec.words:
            usage = "usage: sudo -h | -K | -k | -V\nusage: sudo [-u user] command\n"
            return CommandResult(stderr=usage, exit_code=1)
        return None

    def _shell_c(
        self, words: list[str], stdin: Input | None, state: State, ctx: ShellContext
    ) -> CommandResult:
        """`bash -c 'script'` (flags such as -e, -l, -x before it)."""
        flags = words[1]
        if not (flags.startswith("-") and "c" in flags and set(flags[1:]) <= set("celxuo")):
            raise NotSimulated(f"{basename(words[0])} {flags} (a script or stdin as a program)")
        if len(words) < 3:
            return CommandResult(
                stderr=f"{basename(words[0])}: -c: option requires an argument\n", exit_code=2
            )
        try:
            tree = parse(words[2])
        except NotSimulated:
            raise
        except ShellSyntaxError as exc:
            return CommandResult(stderr=f"{exc}\n", exit_code=2)
        child = State(ctx, dict(ctx.env), set(dict(ctx.env)))
        try:
            return self.nested(tree, stdin, child)
        except ExitShell as stop:
            return stop.result()

    def _xargs(
        self, spec: Unwrapped, stdin: Input | None, state: State, ctx: ShellContext
    ) -> CommandResult:
        assert spec.xargs is not None
        if spec.xargs.unsupported:
            raise NotSimulated(spec.xargs.unsupported)
        items = xargs_items(stdin.rest() if stdin else "", spec.xargs)
        template = spec.words
        if not items:
            if spec.xargs.no_run_if_empty or spec.xargs.replace is not None:
                return CommandResult()
            batches: list[list[str]] = [[]]
        else:
            size = spec.xargs.max_args or len(items)
            batches = [items[i : i + size] for i in range(0, len(items), size)]
        acc = Acc()
        worst = 0
        for batch in batches:
            self.tick()
            if spec.xargs.replace is not None:
                words = [w.replace(spec.xargs.replace, batch[0]) for w in template]
            else:
                words = [*template, *batch]
            if spec.xargs.trace:
                acc.result.stderr += " ".join(words) + "\n"
            part = self.run_words(words, None, replace(state, ctx=ctx), {})
            acc.add(part)
            if part.exit_code == 127:
                return acc.done(127)
            worst = 123 if part.exit_code else worst
        return acc.done(worst)

    def program(self, words: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        name = words[0]
        if "/" in name:
            base = name.rsplit("/", 1)[1]
            if not name.startswith("/") or base not in self.programs:
                return CommandResult(
                    stderr=f"bash: {name}: No such file or directory\n", exit_code=127
                )
            name = base
        program = self.programs.get(name)
        if program is None and name in self.rule_programs:
            verb = next((w for w in words[1:] if not w.startswith(("-", "/"))), "")
            raise NotSimulated(f"{name} {verb}".strip())  # no identity: nothing is read
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

    def cd(self, target: str, state: State) -> CommandResult:
        """The directory change lasts for the rest of this shell (bash's `cd`)."""
        result = self.program(["cd", target], None, state.ctx) if "cd" in self.programs else None
        if result is not None and result.exit_code != 0:
            return result
        path = posixpath.normpath(posixpath.join(state.ctx.cwd, target))
        state.ctx = replace(state.ctx, cwd=path)
        state.vars["PWD"] = path
        return CommandResult()
