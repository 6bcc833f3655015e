"""Parsing a command line as bash does: words with '…', "…" and backslash quoting, `$VAR` and
`${VAR}` expansion, lists joined by `;` `&&` `||`, pipelines `|`, and redirects (`>`, `>>`,
`<`, `2>`, `2>&1`, `&>`). The shell layer (shell.py) runs what this returns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

_OPERATORS = ("&&", "||", "|", ";", "&")
_VAR = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


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


def _tokens(line: str, env: Mapping[str, str]) -> list[str | tuple[str]]:
    """Words as str; operators and redirect markers as 1-tuples."""
    out: list[str | tuple[str]] = []
    word: list[str] = []
    globs: list[int] = []  # offsets of unquoted *, ? and [ in the open word
    started = False  # a word is open (even an empty quoted one)
    quoted = False  # the open word has quoted parts (so "2">x is not a redirect of fd 2)
    i, n = 0, len(line)

    def close() -> None:
        nonlocal started, quoted
        if started:
            text = "".join(word)
            out.append(GlobWord(text, _pattern(text, globs)) if globs else text)
        word.clear()
        globs.clear()
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
            if c in "*?[":
                globs.append(len("".join(word)))
            word.append(c)
            started = True
            i += 1
    close()
    return out


class GlobWord(str):
    """A word with unquoted `*`, `?` or `[`: bash expands it against the filesystem.

    `pattern` is the word as an fnmatch pattern in which the quoted glob characters are
    escaped (`"*".log*` matches a literal `*` then `.log` then anything)."""

    pattern: str

    def __new__(cls, text: str, pattern: str) -> GlobWord:
        word = super().__new__(cls, text)
        word.pattern = pattern
        return word


def _pattern(text: str, globs: list[int]) -> str:
    return "".join(c if i in globs or c not in "*?[" else f"[{c}]" for i, c in enumerate(text))


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


_PREFIX_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
_PASS_THROUGH = frozenset({"time", "command", "nohup", "exec"})
# Prefix programs that run another command, with their flags that take a value.
_RUNNERS = {
    "sudo": frozenset({"-u", "--user", "-g", "--group", "-C", "-D", "-h", "-p"}),
    "xargs": frozenset({"-n", "-I", "-P", "-L", "-d", "-E", "-s", "-a"}),
    "nice": frozenset({"-n"}),
    "watch": frozenset({"-n", "-d"}),
}


def strip_prefixes(words: list[str]) -> list[str]:
    """The words a command runs: `sudo [-u U]`, `env [-i] VAR=x`, `VAR=x`, `time`, `nohup`,
    `xargs`, `nice`, `watch`, `timeout DURATION` dropped and the program named by its basename
    (`/usr/bin/kubectl` -> `kubectl`)."""
    while words:
        head = words[0].rsplit("/", 1)[-1] if words[0].startswith("/") else words[0]
        if _PREFIX_ASSIGNMENT.match(words[0]):
            words = words[1:]
        elif head == "env":
            words = words[1:]
            while words and (words[0].startswith("-") or _PREFIX_ASSIGNMENT.match(words[0])):
                words = words[1:]
        elif head in _RUNNERS:
            words = words[1:]
            while words and words[0].startswith("-"):
                flag = words.pop(0)
                if flag == "--":
                    break
                if flag in _RUNNERS[head] and words:
                    words = words[1:]
        elif head == "timeout":
            words = words[1:]
            while words and words[0].startswith("-"):
                words = words[1:]
            words = words[1:]  # the duration
        elif head in _PASS_THROUGH:
            words = words[1:]
        else:
            return [head, *words[1:]]
    return words
