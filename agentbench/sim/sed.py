"""`sed` for the common cases: `s/RE/REPL/[gIp]`, `p`, `d`, `q` with line, `$` and /RE/ addresses
(and ranges), `-n`, `-e`, `-E`/`-r`, `-i` (an in-place edit is a filesystem write)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentbench.sim.base import Change, CommandResult
from agentbench.sim.budget import current
from agentbench.sim.filters import Files, Inputs, join_lines, lines_of, parse_options
from agentbench.sim.regex import Pattern, compile_regex, search, translate


@dataclass
class _Command:
    start: str | None
    end: str | None
    name: str  # s p d q
    regex: Pattern | None = None
    replacement: str = ""
    count: int = 1  # 0: every match
    print_after: bool = False


class SedError(ValueError):
    pass


def _address(script: str, i: int, extended: bool) -> tuple[str | None, int]:
    if i < len(script) and script[i] == "/":
        end = script.index("/", i + 1)
        return "/" + translate(script[i + 1 : end], extended=extended), end + 1
    match = re.compile(r"\d+|\$").match(script, i)
    if match:
        return match.group(0), match.end()
    return None, i


def _parse(script: str, extended: bool) -> list[_Command]:
    commands: list[_Command] = []
    for part in compile_regex(r"\s*[;\n]\s*(?![^/]*/[gIp]*$)").split(script.strip()):
        if not part:
            continue
        start, i = _address(part, 0, extended)
        end = None
        if start is not None and part[i : i + 1] == ",":
            end, i = _address(part, i + 1, extended)
        rest = part[i:].strip()
        if not rest:
            raise SedError(f"-e expression #1, char {len(part)}: missing command")
        name = rest[0]
        if name == "s":
            delim = rest[1]
            pieces = re.split(rf"(?<!\\){re.escape(delim)}", rest[2:])
            if len(pieces) < 3:
                raise SedError(f"-e expression #1, char {len(part)}: unterminated `s' command")
            pattern, replacement, flags = pieces[0], pieces[1], pieces[2]
            flag = re.I if "I" in flags else 0
            regex = compile_regex(translate(pattern, extended=extended), flag)
            replacement = re.sub(r"\\(\d)", r"\\g<\1>", replacement).replace("&", r"\g<0>")
            commands.append(
                _Command(
                    start, end, "s", regex, replacement, 0 if "g" in flags else 1, "p" in flags
                )
            )
        elif name in "pdq":
            commands.append(_Command(start, end, name))
        else:
            raise SedError(f"-e expression #1, char {i + 1}: unknown command: `{name}'")
    return commands


def _matches(address: str, number: int, last: bool, line: str) -> bool:
    if address == "$":
        return last
    if address.startswith("/"):
        return search(address[1:], line) is not None
    return number == int(address)


def _run(commands: list[_Command], lines: list[str], quiet: bool) -> list[str]:
    out: list[str] = []
    active = [False] * len(commands)
    budget = current()
    for n, line in enumerate(lines, 1):
        budget.step(1 + len(commands))
        last = n == len(lines)
        deleted = False
        quit_now = False
        for k, cmd in enumerate(commands):
            if cmd.start is None:
                hit = True
            elif cmd.end is None:
                hit = _matches(cmd.start, n, last, line)
            elif active[k]:
                hit = True
                if _matches(cmd.end, n, last, line) or (cmd.end.isdigit() and n >= int(cmd.end)):
                    active[k] = False
            else:
                hit = _matches(cmd.start, n, last, line)
                active[k] = hit and not (cmd.end.isdigit() and n >= int(cmd.end))
            if not hit:
                continue
            if cmd.name == "s" and cmd.regex is not None:
                new, made = cmd.regex.subn(cmd.replacement, line, count=cmd.count)
                line = new
                if made and cmd.print_after:
                    out.append(line)
            elif cmd.name == "p":
                out.append(line)
            elif cmd.name == "d":
                deleted = True
                break
            elif cmd.name == "q":
                quit_now = True
                break
        if not deleted and not quiet:
            out.append(line)
        if quit_now:
            break
    return out


def sed(argv: list[str], stdin: str | None, files: Files) -> CommandResult:
    opts, rest, error = parse_options(
        "sed", argv[1:], "ne:Erif", ["quiet", "in-place", "expression="]
    )
    if error:
        return error
    flags = {o for o, _ in opts}
    scripts = [v for o, v in opts if o in ("-e", "--expression")]
    if not scripts:
        if not rest:
            return CommandResult(
                stderr="Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n",
                exit_code=1,
            )
        scripts = [rest.pop(0)]
    try:
        commands = _parse("\n".join(scripts), extended=bool(flags & {"-E", "-r"}))
    except (SedError, re.error, ValueError, IndexError) as exc:
        return CommandResult(stderr=f"sed: {exc}\n", exit_code=1)
    quiet = bool(flags & {"-n", "--quiet"})
    if flags & {"-i", "--in-place"}:
        return _in_place(commands, rest, quiet, files)
    inputs = Inputs("sed", rest, stdin, files)
    inputs.result.stderr = inputs.result.stderr.replace("sed: ", "sed: can't read ", 1)
    return inputs.finish(join_lines(_run(commands, lines_of(inputs.joined), quiet)))


def _in_place(
    commands: list[_Command], operands: list[str], quiet: bool, files: Files
) -> CommandResult:
    result = CommandResult()
    if not operands:
        return CommandResult(stderr="sed: no input files\n", exit_code=1)
    for operand in operands:
        path, text, error = files.read(operand)
        if text is None:
            result.stderr += f"sed: can't read {operand}: {error}\n"
            result.exit_code = 2
            continue
        new = join_lines(_run(commands, lines_of(text), quiet))
        if new == text:
            continue
        _, error = files.write(operand, new)
        if error:
            result.stderr += f"sed: couldn't open temporary file {path}: {error}\n"
            result.exit_code = 4
            continue
        result.changes.append(Change("filesystem", "edit", path, "sed -i"))
        result.identity = ("file", "write", path)
    return result
