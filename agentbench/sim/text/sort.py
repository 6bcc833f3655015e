"""`sort` as GNU coreutils does it: -n -h -r -u -k N[,M] -t SEP -f, stable on whole lines."""

from __future__ import annotations

import re
from typing import Any

from agentbench.sim.core.base import CommandResult
from agentbench.sim.core.budget import current
from agentbench.sim.core.options import parse_options, usage_error
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.units import parse_size
from agentbench.sim.text.filters import Inputs, join_lines, lines_of

_NUMBER = re.compile(r"^\s*(-?\d+(?:\.\d+)?)")


def _numeric(text: str) -> float:
    match = _NUMBER.match(text)
    return float(match.group(1)) if match else 0.0


def _human(text: str) -> float:
    match = re.match(r"^\s*(-?\d+(?:\.\d+)?)\s*([KMGTP]?)", text, re.IGNORECASE)
    if not match:
        return 0.0
    return float(
        parse_size(match.group(1) + match.group(2).upper() if match.group(2) else match.group(1))
    )


def _field(line: str, start: int, end: int | None, sep: str | None) -> str:
    fields = line.split(sep) if sep else line.split()
    chosen = fields[start - 1 : end] if end else fields[start - 1 :]
    return (sep or " ").join(chosen)


@program("sort", reads_files=True)
def sort(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    opts, operands, error = parse_options(
        "sort", argv[1:], "nhrufk:t:bV", ["numeric-sort", "human-numeric-sort", "reverse", "unique"]
    )
    if error:
        return error
    flags = {o for o, _ in opts}
    sep = next((v for o, v in opts if o == "-t"), None)
    key = next((v for o, v in opts if o == "-k"), None)
    start, end = 1, None
    key_flags = ""
    if key is not None:
        match = re.fullmatch(r"(\d+)(?:\.\d+)?([a-zA-Z]*)(?:,(\d+)(?:\.\d+)?([a-zA-Z]*))?", key)
        if not match:
            return usage_error(
                "sort", f"invalid number at field start: invalid count at start of '{key}'", 2
            )
        start, end = int(match.group(1)), int(match.group(3)) if match.group(3) else None
        key_flags = (match.group(2) or "") + (match.group(4) or "")
    numeric = bool(flags & {"-n", "--numeric-sort"}) or "n" in key_flags
    human = bool(flags & {"-h", "--human-numeric-sort"}) or "h" in key_flags
    reverse = bool(flags & {"-r", "--reverse"}) or "r" in key_flags
    fold = "-f" in flags
    budget = current()

    def sort_key(line: str) -> Any:  # one step a line (and a line again for -u)
        budget.step()
        text = _field(line, start, end, sep) if key is not None else line
        if human:
            return (_human(text), line)
        if numeric:
            return (_numeric(text), line)
        return (text.lower() if fold else text, line)

    inputs = Inputs("sort", operands, stdin, files)
    lines = sorted(lines_of(inputs.joined), key=sort_key, reverse=reverse)
    if flags & {"-u", "--unique"}:
        seen: set[Any] = set()
        unique = []
        for line in lines:
            k = sort_key(line)[0]
            if k not in seen:
                seen.add(k)
                unique.append(line)
        lines = unique
    return inputs.finish(join_lines(lines))
