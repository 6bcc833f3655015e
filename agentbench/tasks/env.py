"""The simulated tool runtime of one episode. Deterministic; it never executes anything.

A call is answered, in order, by: the first rule (in file order) whose tool, argument pattern
and `when` state conditions match (rules are overrides for what no simulator can say); the
task's `World` (agentbench/sim: state-backed kubectl, shell, files, system tools, SQL, HTTP);
else the tool's `unmatched` text, a fallback that counts as off-script. Each result says which
(`source`), what the call meant (`identity`) and what it changed (`changes`); the environment
keeps every change of the episode. Unknown tools, malformed arguments and unmatched calls get
the error a real tool runtime would return, so a model's mistake is fed back to it.

A simulated call runs within a work budget (sim/core/budget.py: time, steps, bytes); one that goes
past it is answered with the killed command's error and the limit is recorded (`limit`). The
model is sent at most `OUTPUT_LIMIT` characters of a result: its start and its end around a
marker saying how much was left out, as agent runtimes truncate (`truncated_from` records the
full length).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

import jsonschema

from agentbench.jsontext import loads
from agentbench.records import AttemptedWriteRecord, ChangeRecord, ToolResultRecord
from agentbench.sim.core.base import Change, CommandResult, Identity
from agentbench.sim.shell.ast import ShellSyntaxError
from agentbench.sim.shell.intent.classify import AttemptedWrite, classify, classify_sql
from agentbench.sim.shell.intent.urls import classify_url
from agentbench.sim.shell.static import static_commands
from agentbench.sim.world import World, WorldSpec
from agentbench.tasks.argv import ProgramFlags
from agentbench.tasks.matching import args_match
from agentbench.tasks.model import ArgKind, Environment, Task, ToolDef
from agentbench.tasks.rule_lines import list_parts, runs

FALLBACK = "fallback"  # the source of a call no rule and no simulator answered (off-script)
# The fallback's text for what an installed program cannot do here (a construct NotSimulated),
# after the program and the construct: "command not found" would say the program is missing.
NOT_HERE = "not available in this environment"
OUTPUT_LIMIT = 64 * 1024  # characters of one tool result the model is sent


def clip(text: str, limit: int = OUTPUT_LIMIT) -> tuple[str, int | None]:
    """`text` as the model is sent it, and its full length when it was cut (else None)."""
    if len(text) <= limit:
        return text, None
    head = limit * 3 // 4
    tail = limit - head
    left_out = len(text) - head - tail
    marker = (
        f"\n[... output truncated: {left_out:,} of {len(text):,} characters left out; "
        "narrow the command (grep, head, tail) to see them ...]\n"
    )
    return text[:head] + marker + text[-tail:], len(text)


@dataclass(frozen=True)
class ToolResult:
    """What a tool call returned to the model."""

    output: str
    ok: bool
    exit_code: int | None
    latency_s: float
    rule: int | None  # index of the matching rule; None for runtime errors and unmatched calls
    kind: str  # "ok", "error", "unmatched", "unknown_tool", "invalid_arguments"
    source: str = "rule"  # "sim:<program>", "rule", "fallback" (off-script), "runtime_error"
    identity: Identity | None = None  # what the call meant, as the simulator resolved it
    changes: tuple[Change, ...] = field(default=())  # state changes the call made
    # writes the call asked for, classified before it ran (even when nothing carried them out)
    attempted_writes: tuple[AttemptedWrite, ...] = field(default=())
    limit: str | None = None  # the resource limit that ended the call (sim/core/budget.py)

    def content(self) -> str:
        """The text sent back to the model as the tool message (clipped to OUTPUT_LIMIT)."""
        output = clip(self.output)[0]
        if self.exit_code not in (None, 0):
            return f"{output.rstrip()}\n[exit code {self.exit_code}]"
        return output

    def record(self, name: str) -> ToolResultRecord:
        """The result as the episode records it."""
        return ToolResultRecord(
            name=name,
            output=self.content(),
            limit=self.limit,
            truncated_from=clip(self.output)[1],
            ok=self.ok,
            kind=self.kind,
            latency_s=self.latency_s,
            source=self.source,
            identity=list(self.identity) if self.identity is not None else None,
            changes=[
                ChangeRecord(system=c.system, action=c.action, target=c.target, detail=c.detail)
                for c in self.changes
            ],
            attempted_writes=[
                AttemptedWriteRecord(program=w.program, target=w.target, why=w.why)
                for w in self.attempted_writes
            ],
        )


def attempted_writes(tool: ToolDef, args: dict[str, Any]) -> tuple[AttemptedWrite, ...]:
    """The writes a call asks for by intent: each shell argument's commands, each SQL
    argument's statements (agentbench/sim/shell/intent/classify.py), each URL that asks a
    service to act (agentbench/sim/shell/intent/urls.py)."""
    out: list[AttemptedWrite] = []
    for arg, kind in tool.match.items():
        value = args.get(arg)
        if not isinstance(value, str):
            continue
        if kind is ArgKind.shell:
            out += classify(value)
        elif kind is ArgKind.sql:
            out += classify_sql(value)
        elif arg == "url":
            out += classify_url(value)
    return tuple(out)


def world_spec(environment: Environment) -> WorldSpec | None:
    """The declared simulator state of a task; None when it declares none (rules only)."""
    if not environment.declared:
        return None
    return environment.world_fields()


def parse_arguments(raw: str | dict[str, Any] | None) -> tuple[dict[str, Any] | None, str | None]:
    """Tool-call arguments as sent by a model -> (dict, None) or (None, error text)."""
    if raw is None or raw == "":
        return {}, None
    if isinstance(raw, dict):
        return raw, None
    try:
        value = loads(raw)  # bounded: `[[[…` is invalid JSON here, never a RecursionError
    except json.JSONDecodeError as exc:
        return None, f"arguments are not valid JSON ({exc.msg} at position {exc.pos})"
    if not isinstance(value, dict):
        return None, "arguments must be a JSON object"
    return value, None


class SimulatedEnvironment:
    """Tools, rules and state for one episode of one task."""

    def __init__(
        self, task: Task, tools: dict[str, ToolDef], grammar: dict[str, ProgramFlags]
    ) -> None:
        self.task = task
        self.tools = {name: tools[name] for name in task.tools}
        self.grammar = grammar
        self.state: dict[str, Any] = copy.deepcopy(task.environment.state)
        # Every task gets a World: a system it does not declare answers with a real host's
        # error (kubectl: connection refused; psql: cannot connect), not as off-script.
        self.world = World(world_spec(task.environment) or WorldSpec())
        self.changes: list[Change] = []  # every state change of the episode, in order
        # what the simulator could not answer (each call went off-script): its exceptions, and
        # the constructs it reported not simulated ("not simulated: jq `limit/2`")
        self.simulator_errors: list[str] = []

    def execute(self, name: str, raw_args: str | dict[str, Any] | None) -> ToolResult:
        result = self._execute(name, raw_args)
        tool = self.tools.get(name)
        args, _ = parse_arguments(raw_args)
        if tool is None or args is None or result.kind == "invalid_arguments":
            return result
        return replace(result, attempted_writes=attempted_writes(tool, args))

    def _execute(self, name: str, raw_args: str | dict[str, Any] | None) -> ToolResult:
        tool = self.tools.get(name)
        if tool is None:
            offered = ", ".join(sorted(self.tools)) or "none"
            return self._runtime_error(
                "unknown_tool", f"Error: tool '{name}' does not exist. Available tools: {offered}."
            )
        args, problem = parse_arguments(raw_args)
        if args is None:
            return self._runtime_error("invalid_arguments", f"Error calling {name}: {problem}.")
        try:
            jsonschema.validate(args, tool.parameters)
        except jsonschema.ValidationError as exc:
            return self._runtime_error(
                "invalid_arguments", f"Error calling {name}: invalid arguments: {exc.message}."
            )
        ruled = self._rule(name, tool, args)
        if ruled is None and self.task.environment.rules and self._is_shell(tool):
            ruled = self._ruled_list(name, tool, args)
        if ruled is not None:
            self.changes += ruled.changes
            return ruled
        try:
            answer = self.world.call(name, args)
        except Exception as exc:  # a simulator bug must not end the run: off-script, noted
            self.simulator_errors.append(f"{name}({args}): {type(exc).__name__}: {exc}")
            answer = None
        if answer is not None and answer.result.not_simulated:
            self.simulator_errors.append(f"not simulated: {answer.result.not_simulated}")
        if answer is not None and answer.result.simulated:
            self.changes += answer.result.changes
            return self._simulated(tool, answer.result, answer.program)
        construct = answer.result.not_simulated if answer is not None else ""
        return self._unmatched(tool, args, construct)

    def _simulated(self, tool: ToolDef, result: CommandResult, program: str) -> ToolResult:
        shell = self._is_shell(tool)
        return ToolResult(
            output=result.output if shell else (result.stdout or result.stderr),
            ok=result.exit_code == 0,
            exit_code=result.exit_code if shell else None,
            latency_s=0.0,
            rule=None,
            kind="ok" if result.exit_code == 0 else "error",
            source=f"sim:{program}",
            identity=result.identity,
            changes=tuple(result.changes),
            limit=result.limit,
        )

    def _rule(self, name: str, tool: ToolDef, args: dict[str, Any]) -> ToolResult | None:
        """The first rule matching the call (its `set` applied), or None."""
        for index, rule in enumerate(self.task.environment.rules):
            if rule.tool != name or not self._state_holds(rule.when):
                continue
            if not args_match(rule.args, args, tool, self.grammar, exact_keys=False):
                continue
            self.state.update(copy.deepcopy(rule.set))
            failed = rule.error is not None
            text = rule.error if failed else rule.output
            exit_code = rule.exit_code
            if exit_code is None and self._is_shell(tool):
                exit_code = 1 if failed else 0
            return ToolResult(
                output=text or "",
                ok=not failed,
                exit_code=exit_code,
                latency_s=rule.latency_s,
                rule=index,
                kind="error" if failed else "ok",
                changes=tuple(Change(c.system, c.action, c.target, c.detail) for c in rule.changes),
            )
        return None

    def _ruled_list(self, name: str, tool: ToolDef, args: dict[str, Any]) -> ToolResult | None:
        """`a && b; c` answered command by command by the rules (rule_lines.py), when every
        command that runs has one; else None, with the rule state as it was."""
        arg = next((a for a, k in tool.match.items() if k is ArgKind.shell), None)
        parts = list_parts(args[arg]) if arg and isinstance(args.get(arg), str) else None
        if arg is None or parts is None:
            return None
        before = copy.deepcopy(self.state)
        answers: list[ToolResult] = []
        code = 0
        for connector, text in parts:
            if not runs(connector, code):
                continue
            answer = self._rule(name, tool, {**args, arg: text})
            if answer is None:
                self.state = before
                return None
            answers.append(answer)
            code = answer.exit_code or 0
        last = answers[-1]
        return replace(
            last,
            output="".join(a.output for a in answers),
            ok=code == 0,
            latency_s=sum(a.latency_s for a in answers),
            kind="ok" if code == 0 else "error",
            changes=tuple(c for a in answers for c in a.changes),
        )

    def _state_holds(self, conditions: dict[str, Any]) -> bool:
        return all(self.state.get(key) == value for key, value in conditions.items())

    @staticmethod
    def _is_shell(tool: ToolDef) -> bool:
        return ArgKind.shell in tool.match.values()

    def _unmatched(self, tool: ToolDef, args: dict[str, Any], construct: str = "") -> ToolResult:
        """The tool's `unmatched` text; for a construct of an installed program that is not
        simulated, a line that does not claim the program is missing."""
        program, command, by_sudo = "", "", False
        for arg, kind in tool.match.items():
            if kind is ArgKind.shell and isinstance(args.get(arg), str):
                command = args[arg]
                try:
                    commands = static_commands(command)
                except ShellSyntaxError as exc:
                    return self._shell_error(str(exc))
                first = next((c for c in commands if c.words), None)
                # the program as written: a wrapper (`sudo`, `watch`) names itself
                written = (first.wrappers or first.words)[0] if first else "bash"
                program = re.split(r"[\s(]", written, maxsplit=1)[0] or "bash"
                if program == "sudo" and first and first.words:  # the host has sudo
                    program = first.words[0]
                    by_sudo = True
        template = tool.unmatched_by_program.get(program, tool.unmatched)
        if construct and program not in tool.unmatched_by_program:
            named = construct if construct.split(" ")[0] == program else f"{{program}}: {construct}"
            shape = f"bash: {named}: " if self._is_shell(tool) else f"error: {construct}: "
            template, by_sudo = shape + NOT_HERE, False
        if by_sudo and program not in tool.unmatched_by_program:
            template = template.replace("bash: {program}:", "sudo: {program}:")
        fills = {"program": program, "tool": tool.name, "command": command}
        fills.update({k: v if isinstance(v, str) else str(v) for k, v in args.items()})
        text = template
        for key, value in fills.items():
            text = text.replace("{" + key + "}", value)
        return ToolResult(
            output=text,
            ok=False,
            exit_code=1 if self._is_shell(tool) else None,
            latency_s=0.0,
            rule=None,
            kind="unmatched",
            source=FALLBACK,
        )

    @staticmethod
    def _shell_error(text: str) -> ToolResult:
        return ToolResult(
            text, ok=False, exit_code=2, latency_s=0.0, rule=None, kind="error", source=FALLBACK
        )

    @staticmethod
    def _runtime_error(kind: str, text: str) -> ToolResult:
        return ToolResult(text, False, None, 0.0, rule=None, kind=kind, source="runtime_error")
