"""`du` over the virtual filesystem: declared directory totals (`system.du`) win, else the sum of
the files' sizes; -s -h -a -c --max-depth=N; unreadable directories are reported as du does."""

from __future__ import annotations

import posixpath

from agentbench.sim.core.base import CommandResult
from agentbench.sim.core.options import parse_options
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.system import SystemState
from agentbench.sim.core.units import human, parse_size


def _total(state: SystemState, path: str) -> int:
    declared = {posixpath.normpath(k): parse_size(v) for k, v in state.spec.du.items()}
    if path in declared:
        return declared[path]
    fs = state.fs
    if fs is None:
        return 0
    node = fs.nodes[path]
    if node.kind == "file":
        return -(-node.bytes // 4096) * 4096
    total = 4096
    for child in fs.children(path):
        total += _total(state, posixpath.join(path, child))
    return total


@program("du", needs=("system",))
def du(call: Call) -> CommandResult:
    state, argv, ctx = call.system, call.argv, call.ctx
    opts, operands, error = parse_options(
        "du", argv[1:], "shacxd:", ["summarize", "human-readable", "max-depth="]
    )
    if error:
        return error
    flags = {o for o, _ in opts}
    depth_text = next((v for o, v in opts if o in ("-d", "--max-depth")), None)
    if depth_text is not None and not depth_text.isdigit():
        return CommandResult(stderr=f"du: invalid maximum depth '{depth_text}'\n", exit_code=1)
    depth = (
        0 if flags & {"-s", "--summarize"} else int(depth_text) if depth_text is not None else 99
    )
    hum = bool(flags & {"-h", "--human-readable"})
    result = CommandResult()
    rows: list[tuple[int, str]] = []
    fs = state.fs
    for operand in operands or ["."]:
        path = posixpath.normpath(posixpath.join(ctx.cwd, operand))
        node, problem = fs.lookup(path, ctx.user) if fs else (None, "No such file or directory")
        if node is None or fs is None:
            result.stderr += f"du: cannot access '{operand}': {problem}\n"
            result.exit_code = 1
            continue
        listing: list[tuple[int, str]] = []

        def walk(p: str, level: int, shown: str, listing: list[tuple[int, str]] = listing) -> None:
            n = fs.nodes[p]
            if n.kind == "dir" and not fs.allowed(n, ctx.user, 4):
                result.stderr += f"du: cannot read directory '{shown}': Permission denied\n"
                result.exit_code = 1
            elif n.kind == "dir" and posixpath.normpath(p) not in state.spec.du:
                for child in fs.children(p):
                    cp = posixpath.join(p, child)
                    if fs.nodes[cp].kind == "dir" or "-a" in flags:
                        walk(cp, level + 1, posixpath.join(shown, child))
            if level <= depth and (n.kind == "dir" or "-a" in flags or level == 0):
                listing.append((_total(state, p), shown))

        walk(path, 0, operand.rstrip("/") or "/")
        rows += listing
    if "-c" in flags:
        rows.append((sum(size for size, name in rows if name in operands), "total"))
    result.stdout = "".join(f"{human(s) if hum else -(-s // 1024)}\t{name}\n" for s, name in rows)
    result.identity = (
        "du",
        *sorted(posixpath.normpath(posixpath.join(ctx.cwd, o)) for o in operands or ["."]),
    )
    return result
