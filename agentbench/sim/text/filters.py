"""Text filters over simulated output or declared files: cat grep head tail wc sort uniq cut tr.

Each filter is a function `(argv, stdin, files) -> CommandResult`. Reading stdin it is
presentation: its identity is None, so `kubectl get pods | grep web` means what `kubectl get
pods` means. Reading file operands it is a read of those files: identity ("file", "read", PATH),
the same as `cat PATH`. Options are parsed as GNU getopt does; a bad one gets the tool's text.
(awk, sed and jq are the packages awk/, sed/ and jq/ beside this module.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from agentbench.sim.core.base import CommandResult
from agentbench.sim.core.budget import current
from agentbench.sim.core.fs import UserFiles
from agentbench.sim.core.options import parse_options, usage_error
from agentbench.sim.core.regex import compile_pattern
from agentbench.sim.core.registry import Call, program

Files = UserFiles
Filter = Callable[[list[str], str | None, Files], CommandResult]


class Inputs:
    """The texts a filter reads: its file operands in order, else stdin."""

    def __init__(self, prog: str, operands: list[str], stdin: str | None, files: Files) -> None:
        self.texts: list[tuple[str, str]] = []  # (operand, text)
        self.result = CommandResult()
        ids: list[str] = []
        if not operands:
            self.texts.append(("-", stdin or ""))
        for operand in operands:
            if operand == "-":
                self.texts.append(("-", stdin or ""))
                continue
            path, text, error = files.read(operand)
            ids += ["file", "read", path] if not ids else [";", "file", "read", path]
            if text is None:
                self.result.stderr += _open_error(prog, operand, error)
                self.result.exit_code = 2 if prog == "grep" else 1
                ids.append({"Permission denied": "!denied"}.get(error, "!missing"))
            else:
                current().built(len(text))  # `cat f f f ...` costs every copy
                self.texts.append((operand, text))
        self.result.identity = tuple(ids) if ids else None

    def finish(self, stdout: str, code: int = 0) -> CommandResult:
        out = self.result
        out.stdout = stdout
        out.exit_code = out.exit_code or code
        return out

    @property
    def joined(self) -> str:
        return "".join(text for _, text in self.texts)


def _open_error(prog: str, operand: str, error: str) -> str:
    if prog in ("head", "tail"):
        return f"{prog}: cannot open '{operand}' for reading: {error}\n"
    if prog == "sort":
        return f"sort: cannot read: {operand}: {error}\n"
    return f"{prog}: {operand}: {error}\n"


def lines_of(text: str) -> list[str]:
    """The lines of `text`, one budget step each (charged before the list is built)."""
    current().step(1 + text.count("\n"))
    return text.splitlines()


def join_lines(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _count_shorthand(args: list[str]) -> list[str]:
    """`head -5` / `tail -20` -> -n N."""
    return [f"-n{a[1:]}" if re.fullmatch(r"-\d+", a) else a for a in args]


@program("cat", "less", "more", reads_files=True)
def cat(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    opts, operands, error = parse_options(argv[0], argv[1:], "nAvesTE", ["number"])
    if error:
        return error
    inputs = Inputs("cat", operands, stdin, files)
    text = inputs.joined
    if any(o in ("-n", "--number") for o, _ in opts):
        text = join_lines([f"{i:6}\t{line}" for i, line in enumerate(lines_of(text), 1)])
    return inputs.finish(text)


@program("grep", reads_files=True)
def grep(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    args = argv[1:]
    opts, rest, error = parse_options(
        "grep",
        args,
        "ivcEFnwoe:hHlLqsrRA:B:C:xPm:",
        ["ignore-case", "count", "color=", "max-count="],
        code=2,
    )
    if error:
        return error
    flags = {o for o, _ in opts}
    patterns = [v for o, v in opts if o == "-e"]
    if not patterns:
        if not rest:
            return usage_error("grep", "Usage: grep [OPTION]... PATTERNS [FILE]...", 2)
        patterns = rest.pop(0).split("\n")
    try:
        regex = compile_pattern(
            patterns,
            extended="-E" in flags or "-P" in flags,
            fixed="-F" in flags,
            ignore_case=bool(flags & {"-i", "--ignore-case"}),
            word="-w" in flags,
            line="-x" in flags,
        )
    except re.error as exc:
        return CommandResult(stderr=f"grep: {exc}\n", exit_code=2)
    walked = False
    if flags & {"-r", "-R"}:  # directories are searched through; no operand is "."
        operands: list[str] = []
        for operand in rest or ["."]:
            found = files.tree(operand)
            walked = walked or found is not None
            operands += [f.removeprefix("./") for f in found] if found is not None else [operand]
            if not rest and found is not None:
                operands = [f.removeprefix("./") for f in found]
        rest = operands
    inputs = Inputs("grep", rest, stdin, files)
    show_name = ((len(rest) > 1 or walked) and "-h" not in flags) or "-H" in flags
    out: list[str] = []
    total = 0
    bad = next((v for o, v in opts if o in ("-A", "-B", "-C") and not v.isdigit()), None)
    if bad is not None:
        return CommandResult(stderr=f"grep: {bad}: invalid context length argument\n", exit_code=2)
    context = {o: int(v) if len(v) < 10 else 10**9 for o, v in opts if o in ("-A", "-B", "-C")}
    after = context.get("-A", context.get("-C", 0))
    before = context.get("-B", context.get("-C", 0))
    for name, text in inputs.texts:
        lines = lines_of(text)
        hits = [i for i, line in enumerate(lines) if bool(regex.search(line)) != ("-v" in flags)]
        limit = next((v for o, v in opts if o in ("-m", "--max-count")), None)
        if limit is not None and limit.isdigit():  # -m N: stop after N selected lines
            hits = hits[: int(limit)]
        total += len(hits)
        prefix = f"{'(standard input)' if name == '-' else name}:" if show_name else ""
        if flags & {"-c", "--count"}:
            out.append(f"{prefix}{len(hits)}")
        elif "-l" in flags:
            out += [prefix[:-1] or "(standard input)"] if hits else []
        elif "-o" in flags and "-v" not in flags:
            for i in hits:
                number = f"{i + 1}:" if "-n" in flags else ""
                out += [f"{prefix}{number}{m.group(0)}" for m in regex.finditer(lines[i])]
        else:
            shown: list[int] = []  # hits with their context, in order, each line once
            for i in hits:
                start = max(i - before, shown[-1] + 1 if shown else 0)
                shown += range(start, min(i + after, len(lines) - 1) + 1)
            selected = set(hits)
            last = None
            for j in shown:
                if last is not None and j != last + 1 and (before or after):
                    out.append("--")
                sep = ":" if j in selected else "-"
                number = f"{j + 1}{sep}" if "-n" in flags else ""
                out.append(f"{prefix}{number}{lines[j]}")
                last = j
    if "-q" in flags:
        return inputs.finish("", 0 if total else 1)
    return inputs.finish(join_lines(out), 0 if total else 1)


@program("head", reads_files=True)
def head(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    return _head_tail(argv[0], _count_shorthand(argv[1:]), stdin, files)


def _head_tail(prog: str, args: list[str], stdin: str | None, files: Files) -> CommandResult:
    opts, operands, error = parse_options(prog, args, "n:c:fqvF", ["lines=", "follow"])
    if error:
        return error
    spec = "10"
    for o, v in opts:
        if o in ("-n", "--lines"):
            spec = v
    from_start = spec.startswith("+")
    try:
        count = int(spec.lstrip("+-"))
    except ValueError:
        what = "lines" if prog == "tail" else "number of lines"
        return CommandResult(stderr=f"{prog}: invalid {what}: '{spec}'\n", exit_code=1)
    inputs = Inputs(prog, operands, stdin, files)
    out: list[str] = []
    many = len(inputs.texts) > 1
    for index, (name, text) in enumerate(inputs.texts):
        lines = lines_of(text)
        if prog == "head":
            chosen = lines[: len(lines) - count] if spec.startswith("-") else lines[:count]
        else:
            chosen = lines[count - 1 :] if from_start else (lines[-count:] if count else [])
        if many:
            out.append(("\n" if index else "") + f"==> {name} <==")
        out += chosen
    return inputs.finish(join_lines(out))


@program("tail", reads_files=True)
def tail(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    return _head_tail("tail", _count_shorthand(argv[1:]), stdin, files)


@program("wc", reads_files=True)
def wc(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    opts, operands, error = parse_options("wc", argv[1:], "lwcm", ["lines", "words", "bytes"])
    if error:
        return error
    chosen = {o.lstrip("-")[0] for o, _ in opts} or {"l", "w", "c"}
    inputs = Inputs("wc", operands, stdin, files)
    rows: list[tuple[list[int], str]] = []
    for name, text in inputs.texts:
        counts = {"l": text.count("\n"), "w": len(text.split()), "c": len(text.encode())}
        counts["m"] = len(text)
        rows.append(([counts[k] for k in "lwmc" if k in chosen], "" if name == "-" else name))
    if len(rows) > 1:
        rows.append(([sum(col) for col in zip(*(r[0] for r in rows), strict=True)], "total"))
    if not rows:
        return inputs.finish("")
    width = 0 if len(chosen) == 1 and not operands else max(len(str(n)) for r in rows for n in r[0])
    if operands and len(rows) == 1 and len(chosen) == 1:
        width = 0
    out = [
        " ".join(f"{n:{width}}" for n in nums) + (f" {name}" if name else "") for nums, name in rows
    ]
    return inputs.finish(join_lines(out))


@program("uniq", reads_files=True)
def uniq(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    opts, operands, error = parse_options("uniq", argv[1:], "cdui", ["count"])
    if error:
        return error
    flags = {o for o, _ in opts}
    inputs = Inputs("uniq", operands[:1], stdin, files)
    groups: list[list[str]] = []
    for line in lines_of(inputs.joined):
        key = line.lower() if "-i" in flags else line
        if groups and (groups[-1][0].lower() if "-i" in flags else groups[-1][0]) == key:
            groups[-1].append(line)
        else:
            groups.append([line])
    if "-d" in flags:
        groups = [g for g in groups if len(g) > 1]
    if "-u" in flags:
        groups = [g for g in groups if len(g) == 1]
    counted = flags & {"-c", "--count"}
    out = [f"{len(g):7} {g[0]}" if counted else g[0] for g in groups]
    return inputs.finish(join_lines(out))


@program("cut", reads_files=True)
def cut(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    opts, operands, error = parse_options("cut", argv[1:], "d:f:c:s", ["delimiter=", "fields="])
    if error:
        return error
    values = {o: v for o, v in opts}
    delim = values.get("-d", values.get("--delimiter", "\t"))
    spec = values.get("-f", values.get("--fields"))
    chars = values.get("-c")
    if spec is None and chars is None:
        return usage_error("cut", "you must specify a list of bytes, characters, or fields")
    if len(delim) != 1:
        return usage_error("cut", "the delimiter must be a single character")
    try:
        wanted = _ranges(spec or chars or "")
    except ValueError:
        return usage_error("cut", f"invalid field value '{spec or chars}'")
    inputs = Inputs("cut", operands, stdin, files)
    out = []
    for line in lines_of(inputs.joined):
        if chars is not None:
            out.append("".join(c for i, c in enumerate(line, 1) if wanted(i)))
        elif delim not in line:
            if "-s" not in values:
                out.append(line)
        else:
            out.append(delim.join(f for i, f in enumerate(line.split(delim), 1) if wanted(i)))
    return inputs.finish(join_lines(out))


def _ranges(spec: str) -> Callable[[int], bool]:
    parts: list[tuple[int, int]] = []
    for item in spec.split(","):
        lo, dash, hi = item.partition("-")
        start = int(lo) if lo else 1
        end = (int(hi) if hi else 10**9) if dash else start
        if start < 1:
            raise ValueError(item)
        parts.append((start, end))
    return lambda i: any(a <= i <= b for a, b in parts)


@program("tr", reads_files=True)
def tr(call: Call) -> CommandResult:
    argv, stdin = call.argv, call.stdin
    opts, sets, error = parse_options("tr", argv[1:], "dsc")
    if error:
        return error
    flags = {o for o, _ in opts}
    if not sets or (len(sets) < 2 and "-d" not in flags and "-s" not in flags):
        return usage_error(
            "tr", "missing operand" if not sets else f"missing operand after '{sets[0]}'"
        )
    source = _expand_set(sets[0])
    text = stdin or ""
    if "-d" in flags:
        text = "".join(c for c in text if c not in source)
    elif len(sets) > 1:
        target = _expand_set(sets[1])
        target += target[-1:] * (len(source) - len(target))
        text = text.translate(str.maketrans(source, target[: len(source)]))
    if "-s" in flags:
        squeeze = _expand_set(sets[-1])
        text = re.sub("([" + re.escape(squeeze) + r"])\1+", r"\1", text) if squeeze else text
    return CommandResult(stdout=text)


_CLASSES = {
    "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "[:lower:]": "abcdefghijklmnopqrstuvwxyz",
    "[:digit:]": "0123456789",
    "[:space:]": " \t\n\r\f\v",
}


def _expand_set(spec: str) -> str:
    for name, chars in _CLASSES.items():
        spec = spec.replace(name, chars)
    spec = spec.replace("\\n", "\n").replace("\\t", "\t")
    ranges = re.finditer(r"(.)-(.)", spec)
    current().value(len(spec) + sum(max(0, ord(m[2]) - ord(m[1])) for m in ranges), "a tr set")
    return re.sub(r"(.)-(.)", lambda m: "".join(map(chr, range(ord(m[1]), ord(m[2]) + 1))), spec)


@program("egrep", reads_files=True)
def _egrep(call: Call) -> CommandResult:
    return grep(replace(call, argv=["grep", "-E", *call.argv[1:]]))
