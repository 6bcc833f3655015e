"""`journalctl --vacuum-size=SIZE / --vacuum-files=N / --vacuum-time=SPAN` over the declared
filesystem: archived journal files (`system@….journal`, `….journal~`) under /var/log/journal
and /run/log/journal are deleted, oldest first, until what remains is within the bound; the
active files (`system.journal`, `user-1000.journal`) are never touched, as journald's are not.
Each deletion is a filesystem `Change`. journalctl reports on stderr, one line per file and
one per directory it vacuumed."""

from __future__ import annotations

import posixpath
import re

from agentbench.sim.core.base import Change, CommandResult, NotSimulated, ShellContext
from agentbench.sim.core.system import SystemState
from agentbench.sim.core.units import parse_time

_ROOTS = ("/var/log/journal", "/run/log/journal")
_SPAN = {
    "s": 1,
    "sec": 1,
    "m": 60,
    "min": 60,
    "h": 3600,
    "d": 86400,
    "day": 86400,
    "days": 86400,
    "w": 604800,
    "week": 604800,
    "weeks": 604800,
    "month": 2629800,
    "months": 2629800,
    "y": 31557600,
    "year": 31557600,
    "years": 31557600,
}


def format_bytes(n: int) -> str:
    """systemd's format_bytes: 0B, 512B, 8.0M, 1.2G (powers of 1024)."""
    for unit, power in (("E", 6), ("P", 5), ("T", 4), ("G", 3), ("M", 2), ("K", 1)):
        if n >= 1024**power:
            return f"{n / 1024**power:.1f}{unit}"
    return f"{n}B"


def _size(text: str) -> int | None:
    found = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGTPE]?)B?", text.strip(), re.IGNORECASE)
    if not found:
        return None
    return int(float(found[1]) * 1024 ** " KMGTPE".index((found[2] or " ").upper()))


def _span(text: str) -> int | None:
    total, rest = 0, text.replace(" ", "")
    for number, unit in re.findall(r"(\d+)([a-z]*)", rest):
        if unit not in _SPAN and unit != "":
            return None
        total += int(number) * _SPAN.get(unit, 1)
    return total if rest and re.fullmatch(r"(\d+[a-z]*)+", rest) else None


def vacuum(state: SystemState, option: str, value: str, ctx: ShellContext) -> CommandResult:
    bound = {"--vacuum-size": _size, "--vacuum-time": _span}.get(
        option, lambda v: int(v) if v.isdigit() else None
    )(value)
    if bound is None:
        kind = {"--vacuum-size": "size", "--vacuum-time": "time"}.get(option, "files")
        return CommandResult(stderr=f"Failed to parse vacuum {kind}: {value}\n", exit_code=1)
    fs = state.fs
    if fs is None:
        raise NotSimulated("journalctl vacuum without a filesystem")
    result = CommandResult(identity=("journal", "vacuum"))
    dirs = [
        d
        for r in _ROOTS
        if r in fs.nodes
        for d in (
            r,
            *(
                posixpath.join(r, c)
                for c in fs.children(r)
                if fs.nodes[posixpath.join(r, c)].kind == "dir"
            ),
        )
    ]
    for directory in dirs:
        files = [posixpath.join(directory, c) for c in fs.children(directory)]
        journals = [
            p for p in files if fs.nodes[p].kind == "file" and p.endswith((".journal", ".journal~"))
        ]
        archived = sorted(
            (p for p in journals if "@" in posixpath.basename(p) or p.endswith("~")),
            key=lambda p: (fs.nodes[p].mtime, p),
        )
        total = sum(fs.nodes[p].bytes for p in journals)
        freed = 0
        for index, path in enumerate(archived):
            keep = {
                "--vacuum-size": total - freed <= bound,
                "--vacuum-files": len(archived) - index <= bound,
                "--vacuum-time": (state.now - parse_time(fs.nodes[path].mtime)).total_seconds()
                < bound,
            }[option]
            if keep:
                break
            if ctx.user != "root":
                raise NotSimulated("journalctl vacuum by a user who cannot delete")
            size = fs.nodes[path].bytes
            fs.remove(path, "root")
            freed += size
            result.stderr += f"Deleted archived journal {path} ({format_bytes(size)}).\n"
            result.changes.append(Change("filesystem", "delete", path, "journalctl vacuum"))
        result.stderr += (
            f"Vacuuming done, freed {format_bytes(freed)} of archived journals from {directory}.\n"
        )
    return result
