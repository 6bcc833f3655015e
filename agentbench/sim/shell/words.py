"""Word expansion, once, in bash's order: parameters and command substitution, then field
splitting of what an unquoted expansion produced, then pathname expansion.

Substituted text is data from then on: it is split and globbed like any expansion but never
parsed again, so a file containing `` `cat /tmp/q` `` read through `$(cat /tmp/q)` is printed,
not run (bash does the same).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.core.budget import current
from agentbench.sim.shell.ast import Lit, Node, Opaque, Param, Subst, Word

_GLOB = re.compile(r"[*?\[]")
_BLANKS = " \t\n"


@dataclass
class Expander:
    """How a word's parts get their values (the executor's, or a static reader's)."""

    lookup: Callable[[str], str | None]
    substitute: Callable[[Node], str]
    glob: Callable[[str], list[str]] | None = None
    assign: Callable[[str, str], None] | None = None


# A chunk of an expanded word: (text, quoted, split-able).
_Chunk = tuple[str, bool, bool]


def expand_fields(word: Word, ex: Expander) -> list[str]:
    """The fields a word becomes as a command argument (possibly none, possibly many)."""
    out: list[str] = []
    for field in _split(_chunks(word, ex, tilde=True)):
        pattern = _pattern(field)
        matches = ex.glob(pattern) if ex.glob is not None and pattern is not None else []
        out += matches or ["".join(text for text, _, _ in field)]
    return out


def expand_one(word: Word, ex: Expander, tilde: bool = False) -> str:
    """The word as one string, unsplit and unglobbed (assignments, redirect targets,
    heredoc bodies, a `case` subject); `tilde` for assignments and redirect targets."""
    return "".join(text for text, _, _ in _chunks(word, ex, tilde))


def case_pattern(word: Word, ex: Expander) -> str:
    """A `case` pattern as an fnmatch pattern: quoted glob characters match themselves."""
    chunks = _chunks(word, ex)
    return "".join(_escape(text) if quoted else text for text, quoted, _ in chunks)


def _tilde(text: str, ex: Expander) -> str:
    """Tilde expansion of an unquoted word's start: `~` and `~/…` are $HOME, `~+` $PWD,
    `~-` $OLDPWD, `~root` and `~$USER` their homes; any other `~name` stays as written
    (the shell cannot see the host's account list)."""
    head, slash, rest = text.partition("/")
    user = ex.lookup("USER")
    named = {
        "~": ex.lookup("HOME"),
        "~+": ex.lookup("PWD"),
        "~-": ex.lookup("OLDPWD"),
        "~root": "/root",
    }
    if user and user != "root":
        named[f"~{user}"] = f"/home/{user}"
    value = named.get(head)
    return text if value is None else value + slash + rest


def _chunks(word: Word, ex: Expander, tilde: bool = False) -> list[_Chunk]:
    out: list[_Chunk] = []
    for index, part in enumerate(word.parts):
        if isinstance(part, Lit):
            text = part.text
            if tilde and index == 0 and not part.quoted and text.startswith("~"):
                text = _tilde(text, ex)
            out.append((text, part.quoted, False))
        elif isinstance(part, Param):
            out.append((_param(part, ex), part.quoted, not part.quoted))
        elif isinstance(part, Subst):
            out.append((ex.substitute(part.body).rstrip("\n"), part.quoted, not part.quoted))
        elif isinstance(part, Opaque):
            raise NotSimulated(f"{part.kind} `{part.text}`")
    # the word is about to be joined: `x=$x$x` doubling in a loop stops at the value limit
    # before the string exists, not after (the parts are the values themselves, not copies)
    size = sum(len(text) for text, _, _ in out)
    budget = current()
    budget.value(size, "a shell word")
    budget.built(size)
    return out


def _param(part: Param, ex: Expander) -> str:
    value = ex.lookup(part.name)
    if part.op == "#":
        return str(len(value or ""))
    empty = value is None or (value == "" and part.op.startswith(":"))
    if part.op in (":-", "-"):
        return expand_one(part.arg, ex) if empty and part.arg else (value or "")
    if part.op in (":=", "="):
        if empty:
            value = expand_one(part.arg, ex) if part.arg else ""
            if ex.assign is not None:
                ex.assign(part.name, value)
        return value or ""
    if part.op in (":+", "+"):
        return expand_one(part.arg, ex) if not empty and part.arg else ""
    return value or ""


def _split(chunks: list[_Chunk]) -> list[list[tuple[str, bool, bool]]]:
    """Field splitting on blanks, applied only to the text of unquoted expansions."""
    fields: list[list[tuple[str, bool, bool]]] = []
    current: list[tuple[str, bool, bool]] = []
    started = False
    for text, quoted, splittable in chunks:
        if not splittable:
            current.append((text, quoted, False))
            started = started or quoted or bool(text)
            continue
        pieces = re.split(r"[ \t\n]+", text)
        for index, piece in enumerate(pieces):
            if index > 0:
                if started:
                    fields.append(current)
                current, started = [], False
            if piece:
                current.append((piece, False, True))
                started = True
    if started:
        fields.append(current)
    return fields


def _pattern(field: list[tuple[str, bool, bool]]) -> str | None:
    """The field as an fnmatch pattern when it has an unquoted glob character, else None."""
    if not any(not quoted and _GLOB.search(text) for text, quoted, _ in field):
        return None
    return "".join(_escape(text) if quoted else text for text, quoted, _ in field)


def _escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)
