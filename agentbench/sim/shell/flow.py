"""Compound commands, walked from the syntax tree: lists, pipelines, `for`, `while`/`until`,
`if`/`elif`/`else`, `case`, `{ …; }`, `( … )`, redirected compounds and declarations.

Each nests anything (a `for` whose body pipes into `sort`, an `if` inside a `while read`):
the parts run through the shell again, and what they read and changed counts for the line.
Pipeline stages and `( … )` work on a copy of the shell's variables and directory, as bash's
subshells do; `{ …; }` and lists share them.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.shell.ast import (
    Case,
    Declare,
    For,
    Group,
    If,
    Node,
    Pipeline,
    Redirected,
    Sequence,
    Unsupported,
    While,
)
from agentbench.sim.shell.io import Acc, ExitShell, Input, route
from agentbench.sim.shell.words import case_pattern, expand_fields, expand_one

if TYPE_CHECKING:
    from agentbench.sim.shell.interpreter import Shell, State


def run_compound(shell: Shell, node: Node, stdin: Input | None, state: State) -> CommandResult:
    if isinstance(node, Sequence):
        return _sequence(shell, node, stdin, state)
    if isinstance(node, Pipeline):
        return _pipeline(shell, node, stdin, state)
    if isinstance(node, For):
        return _for(shell, node, stdin, state)
    if isinstance(node, While):
        return _while(shell, node, stdin, state)
    if isinstance(node, If):
        return _if(shell, node, stdin, state)
    if isinstance(node, Case):
        return _case(shell, node, stdin, state)
    if isinstance(node, Group):
        return _group(shell, node, stdin, state)
    if isinstance(node, Redirected):
        return _redirected(shell, node, stdin, state)
    if isinstance(node, Declare):
        return _declare(node, state, shell)
    if isinstance(node, Unsupported):
        raise NotSimulated(node.kind.replace("_", " "))
    raise NotSimulated(type(node).__name__)


def _sequence(shell: Shell, node: Sequence, stdin: Input | None, state: State) -> CommandResult:
    acc = Acc()
    code = state.status
    for connector, item in node.items:
        if (connector == "&&" and code != 0) or (connector == "||" and code == 0):
            continue
        part = acc.run(shell.execute, item, stdin, state)
        code = part.exit_code
        if part.timed_out:
            break
    return acc.done(code)


def _pipeline(shell: Shell, node: Pipeline, stdin: Input | None, state: State) -> CommandResult:
    acc = Acc()
    feed = stdin
    last = CommandResult()
    for index, stage in enumerate(node.stages):
        own = state if len(node.stages) == 1 else state.copy()
        try:
            last = shell.execute(stage, feed, own)
        except ExitShell as stop:
            if len(node.stages) == 1:
                raise
            last = stop.result()  # a pipeline stage is a subshell: `exit` ends only it
        acc.keep(last)
        if last.timed_out:
            return acc.done(last.exit_code)
        both = index < len(node.both) and node.both[index]
        if index < len(node.stages) - 1:
            text = last.stdout + last.stderr if both else last.stdout
            acc.result.stderr += "" if both else last.stderr
            feed = Input(text)
        else:
            # An earlier stage's stderr reaches the terminal before the last stage has
            # read (and printed) what that stage wrote to the pipe.
            acc.result.stderr_first = bool(acc.result.stderr) or last.stderr_first
            acc.result.stderr += last.stderr
    acc.result.stdout = last.stdout
    code = last.exit_code
    if node.negated:
        code = 0 if code else 1
    return acc.done(code)


def _for(shell: Shell, node: For, stdin: Input | None, state: State) -> CommandResult:
    acc = Acc()
    ex = shell.expander(state, acc)
    words = [f for word in node.words for f in expand_fields(word, ex)]
    code = 0
    for word in words:
        state.vars[node.var] = word
        part = acc.run(shell.execute, node.body, stdin, state)
        code = part.exit_code
        if part.timed_out:
            break
    return acc.done(code)


def _while(shell: Shell, node: While, stdin: Input | None, state: State) -> CommandResult:
    acc = Acc()
    code = 0
    while True:
        shell.tick()
        cond = acc.run(shell.execute, node.cond, stdin, state)
        if cond.timed_out or (cond.exit_code == 0) == node.until:
            break
        part = acc.run(shell.execute, node.body, stdin, state)
        code = part.exit_code
        if part.timed_out:
            break
    return acc.done(code)


def _if(shell: Shell, node: If, stdin: Input | None, state: State) -> CommandResult:
    acc = Acc()
    for cond, body in node.arms:
        if acc.run(shell.execute, cond, stdin, state).exit_code == 0:
            return acc.done(acc.run(shell.execute, body, stdin, state).exit_code)
    otherwise = node.otherwise
    if otherwise is not None:
        return acc.done(acc.run(shell.execute, otherwise, stdin, state).exit_code)
    return acc.done(0)  # no branch taken: `if` succeeds


def _case(shell: Shell, node: Case, stdin: Input | None, state: State) -> CommandResult:
    acc = Acc()
    ex = shell.expander(state, acc)
    subject = expand_one(node.subject, ex)
    for patterns, body in node.arms:
        if any(fnmatchcase(subject, case_pattern(p, ex)) for p in patterns):
            return acc.done(acc.run(shell.execute, body, stdin, state).exit_code)
    return acc.done(0)


def _group(shell: Shell, node: Group, stdin: Input | None, state: State) -> CommandResult:
    if not node.subshell:
        return shell.execute(node.body, stdin, state)
    try:
        return shell.execute(node.body, stdin, state.copy())
    except ExitShell as stop:  # `exit` leaves only the subshell
        return stop.result()


def _redirected(shell: Shell, node: Redirected, stdin: Input | None, state: State) -> CommandResult:
    acc = Acc()
    ex = shell.expander(state, acc)
    targets = [(r, expand_one(r.target, ex, r.op not in ("<<", "<<<"))) for r in node.redirects]
    feed = shell.input(targets, stdin, state, acc)
    if isinstance(feed, CommandResult):
        acc.add(feed)
        return acc.done()
    try:
        inner = shell.execute(node.body, feed, state)
    except ExitShell as stop:  # what ran before `exit` still goes where the redirects say
        routed = route(stop.result(), targets, state.ctx, shell.write)
        raise ExitShell(stop.code, routed) from None
    acc.add(route(inner, targets, state.ctx, shell.write))
    return acc.done()


def _declare(node: Declare, state: State, shell: Shell) -> CommandResult:
    if node.keyword == "local":
        return CommandResult(stderr="bash: local: can only be used in a function\n", exit_code=1)
    acc = Acc()
    ex = shell.expander(state, acc)
    for name, value in node.names:
        if name == "-p" or not name:
            raise NotSimulated(f"{node.keyword} {name or 'array'}")
        if node.keyword == "unset":
            state.vars.pop(name, None)
            state.exported.discard(name)
            continue
        if value is not None:
            state.vars[name] = expand_one(value, ex, tilde=True)
        if node.keyword == "export":
            state.exported.add(name)
    return acc.done(0)
