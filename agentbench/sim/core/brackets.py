"""Whether a program's brackets and double-quoted strings close: the one check the text
languages (jq, awk) share to tell syntax that is wrong in any implementation from syntax the
simulator merely does not read (docs/design.md: "not simulated")."""

from __future__ import annotations

_CLOSING = {"(": ")", "[": "]", "{": "}"}


def unbalanced(program: str) -> bool:
    """True when brackets do not close in order or a `"` string does not end."""
    stack: list[str] = []
    quoted = escaped = False
    for ch in program:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch in _CLOSING:
            stack.append(_CLOSING[ch])
        elif ch in ")]}" and (not stack or stack.pop() != ch):
            return True
    return quoted or bool(stack)
