"""How the read/write classifier's program rules read a command's words, and the rules for
file and text tools (in-place editors, archivers, `find -delete`, `sort -o`, `dd of=`).

A rule takes one command's words (program first, wrappers already read off) and its literal
stdin and returns (target, why) for each write; [] means a read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Found = list[tuple[str, str]]


Rule = Callable[[list[str], str | None], Found]


def positionals(words: list[str], valued: frozenset[str] = frozenset()) -> list[str]:
    """Positional words after the program (values of `valued` flags skipped)."""
    out: list[str] = []
    skip = False
    for word in words[1:]:
        if skip:
            skip = False
        elif word in valued:
            skip = True
        elif not word.startswith("-") or word == "-":
            out.append(word)
    return out


STREAMS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"})
# Programs that change something with no operand at all (`reboot`, `passwd`, `swapoff -a`).


BARE = frozenset(
    {"reboot", "shutdown", "halt", "poweroff", "passwd", "swapoff", "swapon", "logrotate", "at"}
)


def every(why: str, valued: frozenset[str] = frozenset(), drop: int = 0) -> Rule:
    """Every positional (after the first `drop`) is a target; streams are not files."""

    def rule(words: list[str], stdin: str | None) -> Found:
        targets = [t for t in positionals(words, valued)[drop:] if t not in STREAMS]
        if not targets and words[0] in BARE:
            return [(" ".join(words[1:]) or words[0], why)]
        return [(t, why) for t in targets]

    return rule


def last_operand(why: str) -> Rule:
    def rule(words: list[str], stdin: str | None) -> Found:
        targets = positionals(words, frozenset({"-t", "--target-directory", "-S", "-e"}))
        return [(targets[-1] if targets else " ".join(words[1:]), why)]

    return rule


def verbs(writes: frozenset[str], valued: frozenset[str] = frozenset(), subject: str = "") -> Rule:
    """`PROGRAM [flags] VERB …`: a write when VERB is one of `writes`."""

    def rule(words: list[str], stdin: str | None) -> Found:
        args = positionals(words, valued)
        if not args or args[0] not in writes:
            return []
        return [(" ".join(args[1:]) or args[0], f"{subject or words[0]} {args[0]}")]

    return rule


def sed_rule(words: list[str], stdin: str | None) -> Found:
    inplace = any(
        w.startswith(("-i", "--in-place")) or re.fullmatch(r"-[nEsr]*i\S*", w) for w in words[1:]
    )
    if not inplace:
        return []
    scripted = any(w in ("-e", "-f", "--expression", "--file") for w in words)
    files = positionals(words, frozenset({"-e", "-f", "--expression", "--file"}))
    return [(f, "sed -i (in place)") for f in (files if scripted else files[1:])]


def perl_rule(words: list[str], stdin: str | None) -> Found:
    if not any(re.fullmatch(r"-[a-zA-Z]*i\S*", w) for w in words[1:]):
        return []
    scripted = "-e" in words or any(re.fullmatch(r"-[a-zA-Z]*e", w) for w in words[1:])
    files = positionals(words, frozenset({"-e", "-E"}))
    return [(f, "perl -i (in place)") for f in (files if scripted else files[1:])]


def awk_rule(words: list[str], stdin: str | None) -> Found:
    joined = " ".join(words)
    if "inplace" not in joined:
        return []
    files = positionals(words, frozenset({"-i", "-F", "-v", "-f", "--include"}))
    return [(f, "awk -i inplace") for f in files[1:]]


def compress_rule(words: list[str], stdin: str | None) -> Found:
    if any(
        w in ("-c", "--stdout", "-l", "--list", "-t", "--test")
        or (re.fullmatch(r"-\w+", w) and set(w[1:]) & set("clt"))
        for w in words[1:]
    ):
        return []
    return [(f, f"{words[0]} replaces the file") for f in positionals(words)]


def tar_rule(words: list[str], stdin: str | None) -> Found:
    first = words[1] if len(words) > 1 else ""
    modes = set(first.lstrip("-")) if not first.startswith("--") else set()
    longs = {w for w in words if w.startswith("--")}
    if modes & set("xcru") or longs & {"--extract", "--create", "--append", "--update", "--get"}:
        return [(" ".join(positionals(words)), "tar writes files")]
    return []


def sort_rule(words: list[str], stdin: str | None) -> Found:
    for index, word in enumerate(words):
        if word in ("-o", "--output") and index + 1 < len(words):
            return [(words[index + 1], "sort -o")]
        if word.startswith("--output="):
            return [(word.split("=", 1)[1], "sort -o")]
    return []


def dd_rule(words: list[str], stdin: str | None) -> Found:
    return [(w[3:], "dd of=") for w in words if w.startswith("of=") and w[3:] not in STREAMS]


def find_rule(words: list[str], stdin: str | None) -> Found:
    """`-delete` removes what matched; `-fprint FILE` and kin write FILE (`-exec` commands are
    classified as commands of their own)."""
    roots = [w for w in words[1:] if not w.startswith(("-", "(", ")", "!"))][:1] or ["."]
    out: Found = [(roots[0], "find -delete")] if "-delete" in words else []
    for index, word in enumerate(words[:-1]):
        if word in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            out.append((words[index + 1], f"find {word}"))
    return out


def unzip_rule(words: list[str], stdin: str | None) -> Found:
    if any(w in ("-l", "-t", "-p", "-Z", "-v") for w in words[1:]):
        return []
    return [(" ".join(positionals(words)), "unzip writes files")]
