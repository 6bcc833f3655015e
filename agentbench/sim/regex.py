"""POSIX regular expressions (grep's BRE and ERE, sed's, awk's) translated to Python's `re`."""

from __future__ import annotations

import re

_CLASSES = {
    "[:alpha:]": "a-zA-Z",
    "[:digit:]": "0-9",
    "[:alnum:]": "a-zA-Z0-9",
    "[:upper:]": "A-Z",
    "[:lower:]": "a-z",
    "[:space:]": r"\s",
    "[:blank:]": r" \t",
    "[:punct:]": r"!-/:-@\[-`{-~",
    "[:xdigit:]": "0-9A-Fa-f",
}


def translate(pattern: str, *, extended: bool) -> str:
    """A POSIX pattern as a Python one. In a BRE, `\\(` `\\)` `\\|` `\\{` `\\}` `\\+` `\\?` are
    the operators and the bare characters are literal; in an ERE it is the other way round."""
    for name, chars in _CLASSES.items():
        pattern = pattern.replace(name, chars)
    if extended:
        return pattern
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(nxt if nxt in "(){}|+?" else c + nxt)
            i += 2
            continue
        if c == "[":  # a bracket expression is copied as is
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("]", "^") else i + 1)
            if end > 0:
                out.append(pattern[i : end + 1])
                i = end + 1
                continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


def compile_pattern(
    patterns: list[str],
    *,
    extended: bool = False,
    fixed: bool = False,
    ignore_case: bool = False,
    word: bool = False,
    line: bool = False,
) -> re.Pattern[str]:
    """One regex matching any of `patterns` (grep's -e list), with grep's -F -i -w -x."""
    parts = [re.escape(p) if fixed else translate(p, extended=extended) for p in patterns]
    body = "|".join(f"(?:{p})" for p in parts)
    if word:
        body = rf"(?<!\w)(?:{body})(?!\w)"
    if line:
        body = rf"^(?:{body})$"
    return re.compile(body, re.IGNORECASE if ignore_case else 0)
