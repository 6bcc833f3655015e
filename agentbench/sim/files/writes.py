"""File writes: tee touch mkdir rm chmod chown chgrp cp mv. Each success is a `Change` on the
virtual filesystem; each failure is the tool's own text with the path."""

from __future__ import annotations

import posixpath
import re

from agentbench.sim.core.base import Change, CommandResult, NotSimulated
from agentbench.sim.core.fs import EACCES, EISDIR, ENOENT, Node
from agentbench.sim.core.options import bash, parse_options
from agentbench.sim.core.registry import Call, program


def _missing(prog: str) -> CommandResult:
    return CommandResult(
        stderr=f"{prog}: missing operand\nTry '{prog} --help' for more information.\n", exit_code=1
    )


def _done(result: CommandResult, action: str, paths: list[str]) -> CommandResult:
    ids: list[str] = []
    for path in paths:
        ids += ([";"] if ids else []) + ["file", action, path]
    result.identity = tuple(ids) if ids else None
    return result


@program("tee", needs=("fs",))
def tee(call: Call) -> CommandResult:
    fs, argv, stdin, ctx = call.filesystem, call.argv, call.stdin, call.ctx
    opts, operands, error = parse_options("tee", argv[1:], "a", ["append"])
    if error:
        return error
    result = CommandResult(stdout=stdin or "")
    append = bool(opts)
    for operand in operands:
        path = fs.resolve(operand, ctx.cwd)
        problem = fs.write(path, stdin or "", ctx.user, append=append)
        if problem:
            result.stderr += f"tee: {operand}: {problem}\n"
            result.exit_code = 1
        else:
            result.changes.append(Change("filesystem", "append" if append else "write", path))
    return _done(result, "write", [c.target for c in result.changes])


@program("touch", needs=("fs",))
def touch(call: Call) -> CommandResult:
    """coreutils touch: creates a missing file (not with -c); the files keep no access or
    modification times, so the options that set those are not simulated."""
    fs, ctx = call.filesystem, call.ctx
    opts, operands, error = parse_options(
        "touch",
        call.argv[1:],
        "c",
        ["no-create"],
        uncarried="adfhmr:t:",
        uncarried_long=["date=", "no-dereference", "reference=", "time="],
    )
    if error:
        return error
    if not operands:
        return _missing("touch")
    create = not opts  # -c / --no-create are the only options carried
    result = CommandResult()
    for operand in operands:
        path = fs.resolve(operand, ctx.cwd)
        node, _ = fs.lookup(path, ctx.user)
        if node is None and not create:
            continue
        problem = (
            fs.write(path, "", ctx.user, append=True) if node is None or node.kind == "file" else ""
        )
        if problem:
            result.stderr += f"touch: cannot touch '{operand}': {problem}\n"
            result.exit_code = 1
        else:
            result.changes.append(Change("filesystem", "touch", path))
    return _done(result, "write", [c.target for c in result.changes])


@program("mkdir", needs=("fs",))
def mkdir(call: Call) -> CommandResult:
    fs, argv, ctx = call.filesystem, call.argv, call.ctx
    opts, operands, error = parse_options("mkdir", argv[1:], "pm:", ["parents"])
    if error:
        return error
    if not operands:
        return _missing("mkdir")
    result = CommandResult()
    for operand in operands:
        path = fs.resolve(operand, ctx.cwd)
        if path in fs.nodes:
            if not opts:
                result.stderr += f"mkdir: cannot create directory '{operand}': File exists\n"
                result.exit_code = 1
            continue
        parent, problem = fs.lookup(posixpath.dirname(path), ctx.user)
        if parent is None and not opts:
            result.stderr += f"mkdir: cannot create directory '{operand}': {problem}\n"
            result.exit_code = 1
            continue
        if parent is not None and not fs.allowed(parent, ctx.user, 2):
            result.stderr += f"mkdir: cannot create directory '{operand}': {EACCES}\n"
            result.exit_code = 1
            continue
        current = path
        while current not in fs.nodes:
            fs.nodes[current] = Node(
                "dir", 0o755, ctx.user, fs.primary.get(ctx.user, ctx.user), fs.now
            )
            current = posixpath.dirname(current)
        result.changes.append(Change("filesystem", "mkdir", path))
    return _done(result, "write", [c.target for c in result.changes])


@program("rm", needs=("fs",))
def rm(call: Call) -> CommandResult:
    fs, argv, ctx = call.filesystem, call.argv, call.ctx
    opts, operands, error = parse_options("rm", argv[1:], "rfRvid", ["recursive", "force"])
    if error:
        return error
    flags = {o for o, _ in opts}
    if not operands:
        return _missing("rm")
    result = CommandResult()
    for operand in operands:
        path = fs.resolve(operand, ctx.cwd)
        node, problem = fs.lookup(path, ctx.user)
        if node is None:
            if "-f" not in flags or problem != ENOENT:
                result.stderr += f"rm: cannot remove '{operand}': {problem}\n"
                result.exit_code = 1
            continue
        if node.kind == "dir" and not flags & {"-r", "-R", "--recursive"}:
            result.stderr += f"rm: cannot remove '{operand}': {EISDIR}\n"
            result.exit_code = 1
            continue
        problem = fs.remove(path, ctx.user)
        if problem:
            result.stderr += f"rm: cannot remove '{operand}': {problem}\n"
            result.exit_code = 1
        else:
            result.changes.append(Change("filesystem", "delete", path))
    return _done(result, "delete", [fs.resolve(o, ctx.cwd) for o in operands])


@program("chmod", needs=("fs",))
def chmod(call: Call) -> CommandResult:
    fs, argv, ctx = call.filesystem, call.argv, call.ctx
    args = [a for a in argv[1:] if a not in ("-R", "-v", "--recursive")]
    if len(args) < 2:
        return _missing("chmod")
    mode, operands = args[0], args[1:]
    result = CommandResult()
    for operand in operands:
        path = fs.resolve(operand, ctx.cwd)
        node, problem = fs.lookup(path, ctx.user)
        if node is None:
            result.stderr += f"chmod: cannot access '{operand}': {problem}\n"
            result.exit_code = 1
            continue
        if not fs.may_change_owner(node, ctx.user):
            result.stderr += (
                f"chmod: changing permissions of '{operand}': Operation not permitted\n"
            )
            result.exit_code = 1
            continue
        new = _new_mode(mode, node.mode)
        if new is None:
            return CommandResult(
                stderr=f"chmod: invalid mode: '{mode}'\nTry 'chmod --help' for more information.\n",
                exit_code=1,
            )
        old, node.mode = node.mode, new
        result.changes.append(Change("filesystem", "chmod", path, f"{old:04o} -> {new:04o}"))
    return _done(result, "chmod", [c.target for c in result.changes])


def _new_mode(spec: str, current: int) -> int | None:
    if re.fullmatch(r"[0-7]{3,4}", spec):
        return int(spec, 8)
    mode = current
    for clause in spec.split(","):
        match = re.fullmatch(r"([ugoa]*)([-+=])([rwxX]*)", clause)
        if not match:
            return None
        who = match.group(1) or "a"
        bits = sum({"r": 4, "w": 2, "x": 1, "X": 1}[c] for c in match.group(3))
        mask = sum(
            {"u": bits << 6, "g": bits << 3, "o": bits, "a": bits * 0o111}[w] for w in set(who)
        )
        if match.group(2) == "+":
            mode |= mask
        elif match.group(2) == "-":
            mode &= ~mask
        else:
            clear = sum({"u": 0o700, "g": 0o070, "o": 0o007, "a": 0o777}[w] for w in set(who))
            mode = (mode & ~clear) | mask
    return mode


@program("chown", "chgrp", needs=("fs",))
def chown(call: Call) -> CommandResult:
    fs, argv, ctx = call.filesystem, call.argv, call.ctx
    prog = argv[0]
    args = [a for a in argv[1:] if a not in ("-R", "-v", "--recursive")]
    if len(args) < 2:
        return _missing(prog)
    owner, _, group = args[0].partition(":")
    if prog == "chgrp":
        owner, group = "", args[0]
    result = CommandResult()
    for operand in args[1:]:
        path = fs.resolve(operand, ctx.cwd)
        node, problem = fs.lookup(path, ctx.user)
        if node is None:
            result.stderr += f"{prog}: cannot access '{operand}': {problem}\n"
            result.exit_code = 1
            continue
        if ctx.user != "root":
            result.stderr += f"{prog}: changing ownership of '{operand}': Operation not permitted\n"
            result.exit_code = 1
            continue
        before = f"{node.owner}:{node.group}"
        node.owner = owner or node.owner
        node.group = group or node.group
        result.changes.append(
            Change("filesystem", "chown", path, f"{before} -> {node.owner}:{node.group}")
        )
    return _done(result, "chown", [c.target for c in result.changes])


@program("cp", "mv", needs=("fs",))
def cp(call: Call) -> CommandResult:
    fs, argv, ctx = call.filesystem, call.argv, call.ctx
    prog = argv[0]
    args = [a for a in argv[1:] if not a.startswith("-")]
    if len(args) < 2:
        return CommandResult(
            stderr=f"{prog}: missing destination file operand after '{args[0] if args else ''}'\n",
            exit_code=1,
        )
    source, target = fs.resolve(args[0], ctx.cwd), fs.resolve(args[1], ctx.cwd)
    if target in fs.nodes and fs.nodes[target].kind == "dir":
        target = posixpath.join(target, posixpath.basename(source))
    text, problem = fs.read(source, ctx.user)
    verb = "stat" if prog == "mv" else "open"
    if text is None:
        return CommandResult(stderr=f"{prog}: cannot {verb} '{args[0]}': {problem}\n", exit_code=1)
    problem = fs.write(target, text, ctx.user)
    if problem:
        return CommandResult(
            stderr=f"{prog}: cannot create regular file '{args[1]}': {problem}\n", exit_code=1
        )
    changes = [Change("filesystem", "write", target, f"{prog} from {source}")]
    if prog == "mv":
        problem = fs.remove(source, ctx.user)
        if problem:
            return CommandResult(
                stderr=f"mv: cannot move '{args[0]}': {problem}\n", exit_code=1, changes=changes
            )
        changes.append(Change("filesystem", "delete", source, f"moved to {target}"))
    return CommandResult(changes=changes, identity=("file", prog, source, target))


@program("cd")
def cd(call: Call) -> CommandResult:
    """bash's builtin; the directory change itself does not outlive the line's next command
    (each command runs in the user's home), but a missing directory fails as bash says."""
    fs, argv, ctx = call.fs, call.argv, call.ctx
    if len(argv) < 2 or fs is None:
        return CommandResult()
    node, problem = fs.lookup(fs.resolve(argv[1], ctx.cwd), ctx.user)
    if node is None:
        return CommandResult(stderr=f"bash: cd: {argv[1]}: {problem}\n", exit_code=1)
    return CommandResult()


@program("export")
@program(":", help=True)  # `:` takes no options: `: --help` does nothing
def builtin(call: Call) -> CommandResult:
    """`export`, `:`: bash builtins with nothing to show here."""
    return CommandResult()


_SET_USAGE = "set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]"


@program("set", "shopt")
def shell_options(call: Call) -> CommandResult:
    """`set` and `shopt` change (or, bare, list) the shell's options: none of that is carried,
    so every use is not simulated but an option bash itself rejects."""
    prog, args = call.argv[0], call.argv[1:]
    if prog == "set":
        letters, reject = "abefhkmnptuvxBCEHPTo:", bash(_SET_USAGE)
    else:
        letters, reject = "pqsuo", bash("shopt [-pqsu] [-o] [optname ...]")
    _, _, error = parse_options(prog, args, "", uncarried=letters, reject=reject, posix=True)
    if error:
        return error
    raise NotSimulated(f"{prog} {' '.join(args)}".rstrip() + " (shell options are not carried)")
