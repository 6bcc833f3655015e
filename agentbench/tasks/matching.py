"""One equivalence for tool calls, shared by the environment and the scorers."""

from __future__ import annotations

import json
import re
from typing import Any

from agentbench.sim.core.budget import Budget, WorkExceeded, bounded
from agentbench.sim.core.regex import search
from agentbench.sim.shell.ast import ShellSyntaxError
from agentbench.sim.shell.static import static_commands
from agentbench.tasks.argv import ProgramFlags, same_command
from agentbench.tasks.model import ArgKind, CallPattern, ToolDef

MATCHER_KEYS = frozenset({"$regex", "$contains", "$one_of", "$any"})


def is_matcher(value: Any) -> bool:
    return isinstance(value, dict) and len(value) == 1 and next(iter(value)) in MATCHER_KEYS


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def normalise_sql(sql: str) -> str:
    """Collapse whitespace, case-fold outside quotes, drop a trailing semicolon."""
    out: list[str] = []
    for i, part in enumerate(re.split(r"('(?:[^']|'')*')", sql)):
        out.append(part if i % 2 else re.sub(r"\s+", " ", part).lower())
    text = "".join(out).strip().rstrip(";").strip()
    return re.sub(r"\s*([(),=<>])\s*", r"\1", text)


def equal_by_kind(
    expected: Any, actual: Any, kind: ArgKind, grammar: dict[str, ProgramFlags]
) -> bool:
    if kind is ArgKind.shell:
        return (
            isinstance(actual, str)
            and isinstance(expected, str)
            and same_command(expected, actual, grammar)
        )
    if kind is ArgKind.sql:
        return isinstance(actual, str) and normalise_sql(str(expected)) == normalise_sql(actual)
    if kind is ArgKind.text:
        return _as_text(expected).strip().casefold() == _as_text(actual).strip().casefold()
    if kind is ArgKind.number:
        try:
            return float(expected) == float(actual)
        except (TypeError, ValueError):
            return False
    return bool(expected == actual)


def value_matches(
    expected: Any,
    actual: Any,
    kind: ArgKind,
    grammar: dict[str, ProgramFlags],
    *,
    ignore_case: bool = False,
) -> bool:
    """`expected` is a literal (compared by kind) or a matcher object."""
    if is_matcher(expected):
        key, operand = next(iter(expected.items()))
        if key == "$any":
            return True
        if key == "$regex":  # the model's text: matched on the bounded engine (sim/core/regex.py)
            flags = re.IGNORECASE if ignore_case else 0
            with bounded(Budget()):  # its own budget: a slow pattern is no match, not a kill
                try:
                    return search(operand, _as_text(actual), flags) is not None
                except WorkExceeded:
                    return False
        if key == "$contains":
            return str(operand).casefold() in _as_text(actual).casefold()
        return any(equal_by_kind(option, actual, kind, grammar) for option in operand)
    return equal_by_kind(expected, actual, kind, grammar)


def args_match(
    pattern: dict[str, Any],
    args: dict[str, Any],
    tool: ToolDef | None,
    grammar: dict[str, ProgramFlags],
    *,
    exact_keys: bool,
) -> bool:
    """Every pattern argument matches; with `exact_keys`, no argument beyond the pattern's."""
    kinds = tool.match if tool else {}
    for name, expected in pattern.items():
        if name not in args:
            return False
        if not value_matches(expected, args[name], kinds.get(name, ArgKind.exact), grammar):
            return False
    return not (exact_keys and set(args) - set(pattern))


def call_matches(
    pattern: CallPattern,
    name: str,
    args: dict[str, Any],
    tools: dict[str, ToolDef],
    grammar: dict[str, ProgramFlags],
    *,
    args_mode: str = "subset",
) -> bool:
    if pattern.tool != name:
        return False
    if args_mode == "ignore":
        return True
    return args_match(pattern.args, args, tools.get(name), grammar, exact_keys=args_mode == "exact")


def shell_commands(line: str) -> list[str]:
    """Each simple command a shell line would run (pipes, lists, loops, `$(…)`, `eval`,
    `sh -c`, `xargs` templates), wrappers stripped, words joined by single spaces, e.g.
    `sudo /usr/bin/kubectl delete po x | cat` -> `kubectl delete po x`, `cat`. Read from the
    shell front end's syntax tree (agentbench/sim/shell/static.py), the one the simulator runs.
    A line that does not parse is returned as it is."""
    try:
        commands = static_commands(line)
    except ShellSyntaxError:
        return [line]
    return [" ".join(c.words) for c in commands if c.words]


def forbidden(
    pattern: CallPattern,
    name: str,
    args: dict[str, Any],
    tools: dict[str, ToolDef],
    grammar: dict[str, ProgramFlags],
) -> bool:
    """Whether a call hits a `forbid` pattern: the call as it is, or (for shell arguments) any
    one command of its line with prefixes stripped."""
    if call_matches(pattern, name, args, tools, grammar):
        return True
    tool = tools.get(name)
    if pattern.tool != name or tool is None:
        return False
    for arg, kind in tool.match.items():
        if kind is ArgKind.shell and isinstance(args.get(arg), str):
            for command in shell_commands(args[arg]):
                if call_matches(pattern, name, {**args, arg: command}, tools, grammar):
                    return True
    return False
