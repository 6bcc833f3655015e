"""awk's built-in functions and printf's formatting, as GNU awk answers them.

length, substr, index, split, sub, gsub, match, tolower, toupper, int, sprintf. A use whose
result GNU awk computes by rules this simulator does not follow (substr at a fractional
position, %c of a code point past 255, a function it lacks) raises `NotSimulated`.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.core.budget import current, format_size
from agentbench.sim.core.regex import translate
from agentbench.sim.text.awk.values import AwkError, StrNum, num, text

if TYPE_CHECKING:
    from agentbench.sim.text.awk.eval import Machine

_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([cdiouxXeEfgGs%])")


def regex_of(machine: Machine, node: Any) -> re.Pattern[str]:
    """A regex argument: a /literal/ or a dynamic string, as an ERE."""
    source = node[1] if node[0] == "re" else text(machine.eval(node))
    try:
        return re.compile(translate(source, extended=True))
    except re.error as exc:
        raise NotSimulated(f"awk regex {source!r}") from exc


def sprintf(values: list[Any]) -> str:
    """printf's output for a format and its arguments (C's conversions, awk's coercions)."""
    if not values:
        raise AwkError("printf: no format")
    fmt, args = text(values[0]), list(values[1:])
    out: list[str] = []
    pos = 0
    for match in _SPEC.finditer(fmt):
        out.append(fmt[pos : match.start()])
        pos = match.end()
        flags, width, precision, conv = match.groups()
        if conv == "%":
            out.append("%")
            continue
        if "*" in (width, precision):
            raise NotSimulated("awk printf with a * width")
        arg = args.pop(0) if args else ""
        spec = "%" + flags + (width or "") + (f".{precision}" if precision is not None else "")
        value: Any
        if conv in "diouxX":
            number = num(arg)
            if not math.isfinite(number):
                raise NotSimulated("awk printf of inf or nan")
            spec, value = spec + ("d" if conv in "iu" else conv), int(number)
        elif conv in "eEfgG":
            spec, value = spec + conv, num(arg)
        else:
            spec, value = spec + "s", _char(arg) if conv == "c" else text(arg)
        current().value(format_size(spec, (value,)), "a printf result")
        out.append(spec % value)
    out.append(fmt[pos:])
    return "".join(out)


def _char(arg: Any) -> str:
    if isinstance(arg, float) or (isinstance(arg, StrNum) and arg.numeric()):
        code = int(num(arg))
        if not 0 <= code < 128:
            raise NotSimulated("awk printf %c past ASCII")
        return chr(code)
    return text(arg)[:1]


def call(machine: Machine, name: str, nodes: list[Any]) -> Any:
    if name in ("sub", "gsub"):
        return _substitute(machine, name == "gsub", nodes)
    if name == "split":
        return _split(machine, nodes)
    if name == "match" and len(nodes) == 2:
        subject = text(machine.eval(nodes[0]))
        found = regex_of(machine, nodes[1]).search(subject)
        start, length = (found.start() + 1, len(found.group(0))) if found else (0, -1)
        machine.vars["RSTART"], machine.vars["RLENGTH"] = float(start), float(length)
        return float(start)
    args = [machine.eval(n) for n in nodes]
    if name == "length" and len(args) <= 1:
        return float(len(text(args[0]) if args else machine.fields[0]))
    if name in ("tolower", "toupper") and len(args) == 1:
        return text(args[0]).lower() if name == "tolower" else text(args[0]).upper()
    if name == "int" and len(args) == 1:
        return float(math.trunc(num(args[0])))
    if name == "substr" and len(args) in (2, 3):
        return _substr(text(args[0]), num(args[1]), num(args[2]) if len(args) == 3 else None)
    if name == "index" and len(args) == 2:
        return float(text(args[0]).find(text(args[1])) + 1)
    if name == "sprintf" and args:
        return sprintf(args)
    raise NotSimulated(f"awk function {name}()")


def _substr(subject: str, start: float, length: float | None) -> str:
    if start != int(start) or (length is not None and length != int(length)):
        raise NotSimulated("awk substr at a fractional position")
    first = max(int(start), 1)
    if length is None:
        return subject[first - 1 :]
    return subject[first - 1 : first - 1 + int(length)] if length > 0 else ""


def _split(machine: Machine, nodes: list[Any]) -> float:
    if len(nodes) not in (2, 3) or nodes[1][0] != "var":
        raise NotSimulated("awk split with these arguments")
    subject = text(machine.eval(nodes[0]))
    if len(nodes) == 3 and nodes[2][0] == "re":
        parts = regex_of(machine, nodes[2]).split(subject) if subject else []
    else:
        sep = text(machine.eval(nodes[2])) if len(nodes) == 3 else machine.field_separator()
        parts = machine.split_fields(subject, sep)
    array: dict[str, Any] = {}
    for i, part in enumerate(parts, start=1):
        array[str(i)] = StrNum(part)
    machine.arrays[nodes[1][1]] = array
    return float(len(parts))


def _substitute(machine: Machine, every: bool, nodes: list[Any]) -> float:
    if len(nodes) not in (2, 3):
        raise NotSimulated("awk sub/gsub with these arguments")
    pattern = regex_of(machine, nodes[0])
    replacement = text(machine.eval(nodes[1]))
    target = nodes[2] if len(nodes) == 3 else ("field", ("num", 0.0))
    if target[0] not in ("var", "index", "field"):
        raise NotSimulated("awk sub/gsub on a value that is not a variable or field")
    subject = text(machine.eval(target))
    count = 0
    out: list[str] = []
    pos = 0
    for found in pattern.finditer(subject):
        if not found.group(0) and found.start() != found.end():
            continue
        if not found.group(0):
            raise NotSimulated("awk sub/gsub with a regex that matches the empty string")
        out.append(subject[pos : found.start()])
        out.append(_replacement(replacement, found.group(0)))
        pos = found.end()
        count += 1
        if not every:
            break
    if count:
        out.append(subject[pos:])
        machine.store(target, "".join(out))
    return float(count)


def _replacement(replacement: str, matched: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(replacement):
        ch = replacement[i]
        if ch == "\\" and i + 1 < len(replacement) and replacement[i + 1] in "&\\":
            out.append(replacement[i + 1])
            i += 2
            continue
        out.append(matched if ch == "&" else ch)
        i += 1
    return "".join(out)
