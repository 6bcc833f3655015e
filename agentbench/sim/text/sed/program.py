"""GNU `sed` over simulated text: the script grammar is text/sed/parse.py; this runs it (pattern and
hold space, ranges, a/i/c, n/N, =, l, q/Q) line by line, and `-i` edits are filesystem writes.
Options -n, -e, -E/-r, -i, -s. What the simulator does not carry out raises `NotSimulated`.
"""

from __future__ import annotations

from typing import Any

from agentbench.sim.core.base import Change, CommandResult, NotSimulated
from agentbench.sim.core.budget import current
from agentbench.sim.core.options import parse_options
from agentbench.sim.core.registry import Call, program
from agentbench.sim.text.filters import Files, Inputs, join_lines, lines_of
from agentbench.sim.text.sed.parse import Command, SedError, parse

_OPTIONS = {
    "-n",
    "-e",
    "-E",
    "-r",
    "-i",
    "-s",
    "--quiet",
    "--silent",
    "--in-place",
    "--regexp-extended",
}
_ESCAPES = {
    "\\": "\\\\",
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
}


class _Quit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


class _Run:
    """One sed run over a list of lines."""

    def __init__(self, commands: list[Command], lines: list[str], quiet: bool) -> None:
        self.commands = commands
        self.lines = lines
        self.quiet = quiet
        self.out: list[str] = []
        self.n = 0  # the current line number
        self.hold = ""
        self.active: dict[int, Any] = {}  # range command -> its end (a line number or None)

    def next_line(self) -> str | None:
        if self.n >= len(self.lines):
            return None
        self.n += 1
        return self.lines[self.n - 1]

    def at_last(self) -> bool:
        return self.n == len(self.lines)

    def matches(self, address: Any, space: str) -> bool:
        kind = address[0]
        if kind == "line":
            return bool(self.n == address[1])
        if kind == "last":
            return self.at_last()
        if kind == "step":
            first, step = address[1], address[2]
            return (
                self.n == first if step <= 0 else self.n >= first and (self.n - first) % step == 0
            )
        return address[1].search(space) is not None

    def selected(self, k: int, cmd: Command, space: str) -> bool:
        if cmd.first is None:
            return True
        if cmd.last is None:
            hit = self.matches(cmd.first, space)
        elif k in self.active:
            hit = True
            end = self.active[k]
            if end is None:
                if self.matches(cmd.last, space):
                    del self.active[k]
            elif self.n >= end:
                del self.active[k]
        else:
            hit = self.matches(cmd.first, space)
            if hit:
                end = self._range_end(cmd)
                if end is None or self.n < end:
                    self.active[k] = end
        return hit != cmd.negate

    def _range_end(self, cmd: Command) -> int | None:
        """A range's last line when it is a number (None: a regex or `$` ends it)."""
        kind = cmd.last[0]
        if kind == "plus":
            return int(self.n + cmd.last[1])
        if kind == "line":
            return int(cmd.last[1])
        if kind == "last":
            return len(self.lines)
        if kind == "step":
            raise NotSimulated("sed range ending at FIRST~STEP")
        return None

    def run(self) -> int:
        append: list[str] = []
        budget = current()
        try:
            while (line := self.next_line()) is not None:
                budget.step(1 + len(self.commands))
                space, append = self.cycle(line, append)
                if space is not None and not self.quiet:
                    self.out.append(space)
                self.out += append
                append = []
        except _Quit as stop:
            self.out += append
            return stop.code
        return 0

    def cycle(self, space: str, append: list[str]) -> tuple[str | None, list[str]]:
        """One cycle's commands: the pattern space to print at its end (None: deleted)."""
        pc = 0
        while pc < len(self.commands):
            cmd = self.commands[pc]
            if not self.selected(pc, cmd, space):
                pc = cmd.block_end + 1 if cmd.name == "{" else pc + 1
                continue
            pc += 1
            name = cmd.name
            if name in "{}":
                continue
            if name == "s":
                space = self.substitute(cmd, space)
            elif name == "y":
                space = space.translate(str.maketrans(cmd.source, cmd.text))
            elif name == "p":
                self.out.append(space)
            elif name == "P":
                self.out.append(space.split("\n", 1)[0])
            elif name == "d":
                return None, append
            elif name == "D":
                if "\n" in space:
                    raise NotSimulated("sed D on a multi-line pattern space")
                return None, append
            elif name in "nN":
                if self.at_last():
                    raise NotSimulated(f"sed {name} on the last line")
                if name == "n":
                    if not self.quiet:
                        self.out.append(space)
                    self.out += append
                    append = []
                    space = self.next_line() or ""
                else:
                    space += "\n" + (self.next_line() or "")
                    current().value(len(space), "the pattern space")
            elif name in "gGhHx":
                space = self.hold_space(name, space)
            elif name == "=":
                self.out.append(str(self.n))
            elif name == "l":
                self.out.append(_listed(space))
            elif name == "z":
                space = ""
            elif name == "a":
                append.append(cmd.text)
            elif name == "i":
                self.out.append(cmd.text)
            elif name == "c":
                if cmd.last is None or cmd.negate or pc - 1 not in self.active:
                    self.out.append(cmd.text)
                return None, append
            elif name in "qQ":
                if name == "q" and not self.quiet:
                    self.out.append(space)
                if name == "Q":
                    append = []
                self.out += append
                raise _Quit(int(cmd.text or 0))
        return space, append

    def hold_space(self, name: str, space: str) -> str:
        budget = current()
        if name == "g":
            return self.hold
        if name == "G":
            budget.value(len(space) + len(self.hold) + 1, "the pattern space")
            return budget.text(space + "\n" + self.hold, "the pattern space")
        if name == "h":
            self.hold = space
        elif name == "H":
            budget.value(len(space) + len(self.hold) + 1, "the hold space")
            self.hold = budget.text(self.hold + "\n" + space, "the hold space")
        else:
            self.hold, space = space, self.hold
        return space

    def substitute(self, cmd: Command, space: str) -> str:
        assert cmd.regex is not None
        out: list[str] = []
        budget = current()
        last = pos = count = made = size = pieces = 0
        previous_end = -1
        while pos <= len(space):
            found = cmd.regex.search(space, pos)
            if found is None:
                break
            start, end = found.span()
            if start == end == previous_end:  # GNU: no empty match right after a match
                pos = start + 1
                continue
            count += 1
            if count >= cmd.occurrence:
                out.append(space[last:start])
                for part in cmd.replacement:
                    out.append(part if isinstance(part, str) else found.group(part[1]) or "")
                size += sum(map(len, out[pieces:]))
                pieces = len(out)
                budget.value(size, "the result of a substitution")
                last = end
                made += 1
                if not cmd.every:
                    break
            previous_end = end
            pos = end if end > start else end + 1
        if not made:
            return space
        out.append(space[last:])
        result = budget.text("".join(out), "the result of a substitution")
        if cmd.print_after:
            self.out.append(result)
        return result


def _listed(space: str) -> str:
    """`l`: the pattern space unambiguously, `$` at its end."""
    text = "".join(
        _ESCAPES.get(ch, ch if ch.isprintable() and ord(ch) < 128 else None) or f"\\{ord(ch):03o}"
        for ch in space
    )
    if len(text) > 68:
        raise NotSimulated("sed l of a line past 69 characters (GNU wraps it)")
    return text + "$"


def _execute(commands: list[Command], lines: list[str], quiet: bool) -> tuple[list[str], int]:
    run = _Run(commands, lines, quiet)
    code = run.run()
    return run.out, code


@program("sed", reads_files=True)
def sed(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    for arg in argv[1:]:
        name = arg.split("=", 1)[0]
        if arg.startswith("--") and name not in _OPTIONS and name != "--expression":
            raise NotSimulated(f"sed option {arg}")
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            letters = arg[1 : (arg.index("e") if "e" in arg else len(arg))]
            if set(letters) - set("nEri"):
                raise NotSimulated(f"sed option {arg}")
    opts, rest, error = parse_options(
        "sed",
        argv[1:],
        "ne:Eri",
        ["quiet", "silent", "in-place", "expression=", "regexp-extended"],
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
    extended = bool(flags & {"-E", "-r", "--regexp-extended"})
    try:
        commands = parse("\n".join(scripts), extended=extended)
    except SedError as exc:
        return CommandResult(stderr=f"sed: {exc}\n", exit_code=1)
    quiet = bool(flags & {"-n", "--quiet", "--silent"})
    if flags & {"-i", "--in-place"}:
        return _in_place(commands, rest, quiet, files)
    inputs = Inputs("sed", rest, stdin, files)
    inputs.result.stderr = inputs.result.stderr.replace("sed: ", "sed: can't read ", 1)
    out, code = _execute(commands, lines_of(inputs.joined), quiet)
    return inputs.finish(join_lines(out), code)


def _in_place(
    commands: list[Command], operands: list[str], quiet: bool, files: Files
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
        out, _ = _execute(commands, lines_of(text), quiet)
        new = join_lines(out)
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
