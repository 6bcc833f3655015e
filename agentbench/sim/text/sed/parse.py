"""GNU sed's script grammar: a script text -> a flat list of commands that text/sed/program.py runs.

Addresses: N, $, /RE/ and \\cREc (with I), FIRST~STEP, ranges A,B and A,+N, negation `!`.
Commands: { } s y p P d D n N g G h H x = l z a i c q Q. What GNU sed has beyond that
(labels and branches, r/w files, e, M, case conversion in replacements, the empty regex)
raises `NotSimulated`; what GNU sed itself rejects (an unknown command, an unterminated `s`,
an unmatched brace) is `SedError` with GNU's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.core.regex import Pattern, compile_regex, translate

_SIMPLE = set("=dDgGhHlnNpPxz")
_UNSUPPORTED = set(":btTrRwWeFvL")


class SedError(ValueError):
    """A script GNU sed rejects; the message is GNU's (after `sed: -e expression #1, `)."""


@dataclass
class Command:
    name: str
    first: Any = None  # an address: ("line", n) ("last",) ("re", pattern) ("step", a, b)
    last: Any = None  # a range's end: the same, or ("plus", n)
    negate: bool = False
    regex: Pattern | None = None
    replacement: list[Any] = field(default_factory=list)  # literal text, ("group", n)
    occurrence: int = 1
    every: bool = False
    print_after: bool = False
    text: str = ""  # a/i/c; y's target; q's exit code as text
    source: str = ""  # y's characters
    block_end: int = 0  # `{`: the index of its `}`


class _Reader:
    def __init__(self, script: str, extended: bool) -> None:
        self.s = script
        self.i = 0
        self.extended = extended

    def error(self, problem: str) -> SedError:
        return SedError(f"-e expression #1, char {self.i}: {problem}")

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def blanks(self) -> None:
        while self.peek() in (" ", "\t"):
            self.i += 1

    def delimited(self, delim: str, what: str) -> str:
        """Text up to the next unescaped `delim` (bracket expressions kept whole)."""
        out: list[str] = []
        while True:
            ch = self.peek()
            if not ch or ch == "\n":
                raise self.error(f"unterminated {what}")
            self.i += 1
            if ch == delim:
                return "".join(out)
            if ch == "\\":
                nxt = self.peek()
                self.i += 1
                if nxt == delim and delim != "/":
                    raise NotSimulated(f"sed escaped delimiter \\{delim}")
                out.append("/" if nxt == "/" else "\\n" if nxt == "n" else "\\" + nxt)
            elif ch == "[":
                end = _bracket_end(self.s, self.i)
                if end < 0 or "\n" in self.s[self.i : end]:
                    raise self.error(f"unterminated {what}")
                out.append(self.s[self.i - 1 : end + 1])
                self.i = end + 1
            else:
                out.append(ch)

    def regex(self, source: str, flags: int = 0) -> Pattern:
        if not source:
            raise NotSimulated("sed's empty regex (the last regex used)")
        try:
            return compile_regex(translate(source, extended=self.extended), flags)
        except re.error as exc:
            raise NotSimulated(f"sed regex {source!r}") from exc

    def address(self) -> Any:
        ch = self.peek()
        if ch.isdigit():
            match = re.compile(r"(\d+)(?:~(\d+))?").match(self.s, self.i)
            assert match
            self.i = match.end()
            if match.group(2) is not None:
                return ("step", int(match.group(1)), int(match.group(2)))
            if int(match.group(1)) == 0:
                raise NotSimulated("sed address 0")
            return ("line", int(match.group(1)))
        if ch == "$":
            self.i += 1
            return ("last",)
        if ch in ("/", "\\"):
            self.i += 1
            delim = "/"
            if ch == "\\":
                delim = self.peek()
                self.i += 1
            source = self.delimited(delim, "address regex")
            flags = 0
            while self.peek() in ("I", "M"):
                if self.peek() == "M":
                    raise NotSimulated("sed address flag M")
                flags = re.I
                self.i += 1
            return ("re", self.regex(source, flags))
        return None


def _bracket_end(s: str, j: int) -> int:
    """The index of the `]` closing a bracket expression whose body starts at `j`."""
    if s[j : j + 1] == "^":
        j += 1
    if s[j : j + 1] == "]":
        j += 1
    while j < len(s) and s[j] != "]":
        if s.startswith("[:", j):
            k = s.find(":]", j + 2)
            if k < 0:
                return -1
            j = k + 2
        else:
            j += 1
    return j if j < len(s) else -1


def parse(script: str, extended: bool) -> list[Command]:
    reader = _Reader(script, extended)
    commands: list[Command] = []
    opened: list[int] = []
    while True:
        while reader.peek() in (" ", "\t", "\n", ";"):
            reader.i += 1
        if not reader.peek():
            break
        if reader.peek() == "#":
            while reader.peek() not in ("", "\n"):
                reader.i += 1
            continue
        first = reader.address()
        last = None
        if first is not None and reader.peek() == ",":
            reader.i += 1
            reader.blanks()
            if reader.peek() == "+":
                match = re.compile(r"\+(\d+)").match(reader.s, reader.i)
                if not match:
                    raise reader.error("unexpected `,'")
                reader.i = match.end()
                last = ("plus", int(match.group(1)))
            elif reader.peek() == "~":
                raise NotSimulated("sed address ADDR,~N")
            else:
                last = reader.address()
                if last is None:
                    raise reader.error("unexpected `,'")
        reader.blanks()
        negate = False
        while reader.peek() == "!":
            negate = True
            reader.i += 1
            reader.blanks()
        name = reader.peek()
        reader.i += 1
        command = Command(name, first, last, negate)
        if name == "{":
            opened.append(len(commands))
            commands.append(command)
            continue
        if name == "}":
            if not opened or first is not None:
                raise reader.error("unexpected `}'")
            commands[opened.pop()].block_end = len(commands)
            commands.append(command)
            _end_of_command(reader)
            continue
        if not name:
            raise reader.error("missing command")
        if name in _UNSUPPORTED:
            raise NotSimulated(f"sed command {name}")
        if name == "s":
            _substitution(reader, command)
        elif name == "y":
            _transliteration(reader, command)
        elif name in "aic":
            command.text = _text(reader)
        elif name in "qQ":
            reader.blanks()
            match = re.compile(r"\d*").match(reader.s, reader.i)
            assert match
            command.text, reader.i = match.group(0), match.end()
        elif name not in _SIMPLE:
            raise reader.error(f"unknown command: `{name}'")
        if name == "l" and reader.peek().isdigit():
            raise NotSimulated("sed l with a line length")
        commands.append(command)
        if name not in "aic":
            _end_of_command(reader)
    if opened:
        reader.i = len(reader.s)
        raise reader.error("unmatched `{'")
    return commands


def _end_of_command(reader: _Reader) -> None:
    reader.blanks()
    if reader.peek() not in ("", "\n", ";", "}", "#"):
        raise reader.error("extra characters after command")


def _substitution(reader: _Reader, command: Command) -> None:
    delim = reader.peek()
    if not delim or delim in ("\n", "\\"):
        raise reader.error("unterminated `s' command")
    reader.i += 1
    pattern = reader.delimited(delim, "`s' command")
    replacement = _replacement_text(reader, delim)
    flags = 0
    while reader.peek() and reader.peek() not in ("\n", ";", "}", " ", "#"):
        flag = reader.peek()
        reader.i += 1
        if flag == "g":
            command.every = True
        elif flag == "p":
            command.print_after = True
        elif flag in ("I", "i"):
            flags = re.I
        elif flag.isdigit():
            match = re.compile(r"\d+").match(reader.s, reader.i - 1)
            assert match
            command.occurrence, reader.i = int(match.group(0)), match.end()
            if command.occurrence == 0:
                raise reader.error("number option to `s' command may not be zero")
        elif flag in "emMw":
            raise NotSimulated(f"sed s flag {flag}")
        else:
            raise reader.error("unknown option to `s'")
    command.regex = reader.regex(pattern, flags)
    for part in replacement:
        if not isinstance(part, str) and part[1] > command.regex.groups:
            raise reader.error(f"invalid reference \\{part[1]} on `s' command's RHS")
    command.replacement = replacement


def _replacement_text(reader: _Reader, delim: str) -> list[Any]:
    parts: list[Any] = []
    literal: list[str] = []
    while True:
        ch = reader.peek()
        if not ch:
            raise reader.error("unterminated `s' command")
        reader.i += 1
        if ch == delim:
            break
        if ch == "&":
            parts += ["".join(literal), ("group", 0)]
            literal = []
        elif ch == "\\":
            nxt = reader.peek()
            reader.i += 1
            if nxt.isdigit():
                parts += ["".join(literal), ("group", int(nxt))]
                literal = []
            elif nxt in "ULulE":
                raise NotSimulated(f"sed case conversion \\{nxt}")
            elif nxt == "\n":
                literal.append("\n")
            else:
                literal.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
        elif ch == "\n":
            raise reader.error("unterminated `s' command")
        else:
            literal.append(ch)
    parts.append("".join(literal))
    return [p for p in parts if p != ""]


def _transliteration(reader: _Reader, command: Command) -> None:
    delim = reader.peek()
    reader.i += 1

    def chars() -> str:
        out: list[str] = []
        while True:
            ch = reader.peek()
            if not ch or ch == "\n":
                raise reader.error("unterminated `y' command")
            reader.i += 1
            if ch == delim:
                return "".join(out)
            if ch == "\\":
                nxt = reader.peek()
                reader.i += 1
                escaped = {"n": "\n", "t": "\t", "\\": "\\", delim: delim}
                out.append(escaped.get(nxt, "\\" + nxt))
            else:
                out.append(ch)

    command.source, command.text = chars(), chars()
    if len(command.source) != len(command.text) or any(len(c) != 1 for c in command.source):
        raise reader.error("strings for `y' command are different lengths")


def _text(reader: _Reader) -> str:
    """a/i/c's text: GNU's one-line forms `a\\TEXT` and `a TEXT`, to the end of the line."""
    if reader.peek() == "\\":
        reader.i += 1
        if reader.peek() == "\n":
            reader.i += 1
    else:
        reader.blanks()
    end = reader.s.find("\n", reader.i)
    end = len(reader.s) if end < 0 else end
    text = reader.s[reader.i : end]
    reader.i = end
    if "\\" in text:
        raise NotSimulated("sed a/i/c text with backslashes")
    if not text:
        raise reader.error("expected \\ after `a', `c' or `i'")
    return text
