"""File tools over the virtual filesystem: ls find stat test echo printf tee touch mkdir rm chmod
chown chgrp cp mv pwd true false. Reads resolve to ("file", "read"|"list"|"stat", PATH); writes
change the filesystem and report a `Change`."""

from __future__ import annotations

import fnmatch
import posixpath
import stat as statmod
from collections.abc import Callable
from datetime import datetime

from agentbench.sim.core.base import CommandResult, ShellContext
from agentbench.sim.core.budget import current, format_size
from agentbench.sim.core.fs import EACCES, FileSystem, Node, failure_token
from agentbench.sim.core.options import bash, parse_options
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.units import human, ls_time, parse_time

Tool = Callable[[FileSystem, list[str], str | None, ShellContext], CommandResult]


def _mode_text(node: Node) -> str:
    kind = statmod.S_IFDIR if node.kind == "dir" else statmod.S_IFREG
    return statmod.filemode(kind | node.mode)


@program("ls", needs=("fs",))
def ls(call: Call) -> CommandResult:
    fs, argv, ctx = call.filesystem, call.argv, call.ctx
    opts, operands, error = parse_options("ls", argv[1:], "lahdtrR1S", ["all", "human-readable"], 2)
    if error:
        return error
    flags = {o for o, _ in opts}
    long_form, show_all = "-l" in flags, flags & {"-a", "--all"}
    result = CommandResult()
    blocks: list[str] = []
    singles: list[tuple[str, Node]] = []
    ids: list[str] = []
    for operand in operands or ["."]:
        path = fs.resolve(operand, ctx.cwd)
        node, err = fs.lookup(path, ctx.user)
        ids += ([";"] if ids else []) + ["file", "list", path]
        if node is None:
            result.stderr += f"ls: cannot access '{operand}': {err}\n"
            result.exit_code = 2
            ids.append(failure_token(err))
            continue
        if node.kind == "dir" and "-d" not in flags:
            if not fs.allowed(node, ctx.user, 4):
                result.stderr += f"ls: cannot open directory '{operand}': {EACCES}\n"
                result.exit_code = 2
                continue
            names = [n for n in fs.children(path) if show_all or not n.startswith(".")]
            entries = [(n, fs.nodes[posixpath.join(path, n)]) for n in names]
            if show_all:
                entries = [(".", node), ("..", fs.nodes[posixpath.dirname(path) or "/"]), *entries]
            header = f"{operand}:\n" if len(operands) > 1 else ""
            blocks.append(header + _listing(fs, entries, flags, long_form, total=True))
        else:
            singles.append((operand, node))
    if singles:  # ls lists its file operands together, before the directories
        blocks.insert(0, _listing(fs, sorted(singles), flags, long_form, total=False))
    result.stdout = "\n".join(b for b in blocks if b)
    result.identity = tuple(ids)
    return result


def _listing(
    fs: FileSystem, entries: list[tuple[str, Node]], flags: set[str], long_form: bool, total: bool
) -> str:
    if "-t" in flags:
        entries.sort(key=lambda e: parse_time(e[1].mtime), reverse=True)
    elif "-S" in flags:
        entries.sort(key=lambda e: e[1].bytes, reverse=True)
    if "-r" in flags:
        entries.reverse()
    if not long_form:
        return "".join(f"{name}\n" for name, _ in entries)
    hum = "-h" in flags or "--human-readable" in flags
    sizes = [human(n.bytes) if hum else str(n.bytes) for _, n in entries]
    width = max((len(s) for s in sizes), default=1)
    owner_w = max((len(n.owner) for _, n in entries), default=1)
    group_w = max((len(n.group) for _, n in entries), default=1)
    lines = []
    if total:
        blocks = sum(-(-n.bytes // 4096) * 4 for _, n in entries)
        lines.append(f"total {human(blocks * 1024) if hum else blocks}")
    for (name, node), size in zip(entries, sizes, strict=True):
        links = 2 if node.kind == "dir" else 1
        lines.append(
            f"{_mode_text(node)} {links} {node.owner:<{owner_w}} {node.group:<{group_w}} "
            f"{size:>{width}} {ls_time(node.mtime, fs.now)} {name}"
        )
    return "".join(line + "\n" for line in lines)


@program("find", needs=("fs",))
def find(call: Call) -> CommandResult:
    fs, argv, ctx = call.filesystem, call.argv, call.ctx
    args = argv[1:]
    roots = []
    while args and not args[0].startswith("-"):
        roots.append(args.pop(0))
    tests: list[tuple[str, str]] = []
    now = parse_time(fs.now)
    while args:
        flag = args.pop(0)
        value = args.pop(0) if args and flag not in ("-print", "-ls") else ""
        if flag in ("-name", "-iname", "-type", "-mtime", "-mmin", "-size"):
            if (
                flag in ("-mtime", "-mmin", "-size")
                and not value.lstrip("+-").rstrip("ckMG").isdigit()
            ):
                return CommandResult(
                    stderr=f"find: invalid argument `{value}' to `{flag}'\n", exit_code=1
                )
            tests.append((flag, value))
        elif flag in ("-maxdepth", "-mindepth", "-print", "-ls"):
            continue
        else:
            return CommandResult(stderr=f"find: unknown predicate `{flag}'\n", exit_code=1)
    result = CommandResult()
    ids: list[str] = []
    out = []
    for root in roots or ["."]:
        path = fs.resolve(root, ctx.cwd)
        ids += ([";"] if ids else []) + ["file", "find", path]
        node, err = fs.lookup(path, ctx.user)
        if node is None:
            result.stderr += f"find: '{root}': {err}\n"
            result.exit_code = 1
            continue
        for found in fs.descendants(path):
            parent = fs.nodes[posixpath.dirname(found)] if found != path else None
            if parent is not None and not fs.allowed(parent, ctx.user, 4):
                continue
            if all(_find_test(f, v, found, fs.nodes[found], now) for f, v in tests):
                out.append(root.rstrip("/") + found[len(path) :] if found != path else root)
    result.stdout = "".join(p + "\n" for p in out)
    result.identity = tuple(ids)
    return result


def _find_test(flag: str, value: str, path: str, node: Node, now: datetime) -> bool:
    if flag in ("-name", "-iname"):
        name = posixpath.basename(path)
        if flag == "-iname":
            return fnmatch.fnmatchcase(name.lower(), value.lower())
        return fnmatch.fnmatchcase(name, value)
    if flag == "-type":
        return (node.kind == "dir") == (value == "d")
    sign, amount = (value[0], value[1:]) if value[:1] in "+-" else ("", value)
    if flag == "-size":
        unit = {"c": 1, "k": 1024, "M": 1024**2, "G": 1024**3}.get(amount[-1:], 512)
        measured, limit = node.bytes, int(amount.rstrip("ckMG")) * unit
    else:
        unit = 86400 if flag == "-mtime" else 60
        measured, limit = int((now - parse_time(node.mtime)).total_seconds() // unit), int(amount)
    if sign == "+":
        return measured > limit
    return measured < limit if sign == "-" else measured == limit


@program("stat", needs=("fs",))
def stat(call: Call) -> CommandResult:
    fs, argv, ctx = call.filesystem, call.argv, call.ctx
    opts, operands, error = parse_options("stat", argv[1:], "c:L", ["format="])
    if error:
        return error
    fmt = next((v for o, v in opts if o in ("-c", "--format")), None)
    result = CommandResult()
    ids: list[str] = []
    for operand in operands:
        path = fs.resolve(operand, ctx.cwd)
        ids += ([";"] if ids else []) + ["file", "stat", path]
        node, err = fs.lookup(path, ctx.user)
        if node is None:
            result.stderr += f"stat: cannot statx '{operand}': {err}\n"
            result.exit_code = 1
            continue
        if fmt is not None:
            values = {
                "%a": f"{node.mode:o}",
                "%A": _mode_text(node),
                "%U": node.owner,
                "%G": node.group,
                "%s": str(node.bytes),
                "%n": operand,
                "%y": node.mtime,
            }
            text = fmt
            for key, value in values.items():
                text = text.replace(key, value)
            result.stdout += text + "\n"
            continue
        kind = "directory" if node.kind == "dir" else "regular file"
        uid, gid = fs.uids.get(node.owner, 1001), fs.uids.get(node.group, 1001)
        stamp = parse_time(node.mtime).strftime("%Y-%m-%d %H:%M:%S.000000000 +0000")
        result.stdout += (
            f"  File: {operand}\n  Size: {node.bytes:<15} Blocks: {-(-node.bytes // 4096) * 8:<10} "
            f"IO Block: 4096   {kind}\nAccess: ({node.mode:04o}/{_mode_text(node)})  "
            f"Uid: ({uid:5}/{node.owner:>8})   Gid: ({gid:5}/{node.group:>8})\n"
            f"Modify: {stamp}\nChange: {stamp}\n"
        )
    result.identity = tuple(ids) if ids else None
    if not operands:
        return CommandResult(
            stderr="stat: missing operand\nTry 'stat --help' for more information.\n", exit_code=1
        )
    return result


@program("test", "[", needs=("fs",), help=True)  # one operand: a non-empty string
def test(call: Call) -> CommandResult:
    fs, argv, ctx = call.filesystem, call.argv, call.ctx
    args = argv[1:-1] if argv[0] == "[" and argv[-1:] == ["]"] else argv[1:]
    negate = bool(args) and args[0] == "!"
    args = args[1:] if negate else args
    if len(args) != 2 or args[0] not in ("-f", "-d", "-e", "-r", "-w", "-x", "-s"):
        return CommandResult(
            exit_code=1 if not args else 2,
            stderr="" if not args else f"bash: {argv[0]}: unsupported expression\n",
        )
    path = fs.resolve(args[1], ctx.cwd)
    node, _ = fs.lookup(path, ctx.user)
    checks = {
        "-e": node is not None,
        "-f": node is not None and node.kind == "file",
        "-d": node is not None and node.kind == "dir",
        "-s": node is not None and node.bytes > 0,
        "-r": node is not None and fs.allowed(node, ctx.user, 4),
        "-w": node is not None and fs.allowed(node, ctx.user, 2),
        "-x": node is not None and fs.allowed(node, ctx.user, 1),
    }
    return CommandResult(
        exit_code=0 if checks[args[0]] != negate else 1, identity=("file", "stat", path)
    )


@program("echo", help=True)  # prints its operands, `--help` too
def echo(call: Call) -> CommandResult:
    argv = call.argv
    args = argv[1:]
    newline = True
    while args and args[0] in ("-n", "-e", "-E"):
        newline = newline and args[0] != "-n"
        args = args[1:]
    return CommandResult(stdout=" ".join(args) + ("\n" if newline else ""))


_PRINTF_USAGE = "printf [-v var] format [arguments]"


@program("printf")
def printf(call: Call) -> CommandResult:
    """bash's builtin: options end at the first operand (`printf '-x'` is an invalid option)."""
    reject = bash(_PRINTF_USAGE)
    _, args, error = parse_options(
        "printf", call.argv[1:], "", uncarried="v:", reject=reject, posix=True
    )
    if error:
        return error
    if not args:
        return CommandResult(stderr=f"printf: usage: {_PRINTF_USAGE}\n", exit_code=2)
    fmt = args[0].replace("\\n", "\n").replace("\\t", "\t")
    current().value(format_size(fmt, tuple(args[1:])), "a printf result")
    try:
        return CommandResult(stdout=fmt % tuple(args[1:]) if "%" in fmt else fmt)
    except (TypeError, ValueError):
        return CommandResult(stdout=fmt)


@program("pwd")
def pwd(call: Call) -> CommandResult:
    """bash's builtin; -L and -P print the same directory (the files hold no symbolic links)."""
    _, _, error = parse_options("pwd", call.argv[1:], "LP", posix=True, reject=bash("pwd [-LP]"))
    if error:
        return error
    return CommandResult(stdout=call.ctx.cwd + "\n")


@program("true", "false", help=True)
def true(call: Call) -> CommandResult:
    argv = call.argv
    return CommandResult(exit_code=1 if argv[0] == "false" else 0)
