"""Servers agentbench starts itself: never left running after agentbench ends.

Three layers, so that no exit path orphans a server:
    normal exit, SIGINT, SIGTERM   the owner's context manager stops the child (`stop`)
    agentbench killed (SIGKILL)    the kernel sends the child SIGTERM when its parent dies
                                   (Linux PR_SET_PDEATHSIG, set in the child before exec)
    anything else (other OSes)     each child is recorded in a small file while it runs;
                                   the next start lists recorded children still alive
                                   (`stale_servers`) so the user can stop them.

Each child runs in its own process group, so stopping it also stops what it spawned.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

PR_SET_PDEATHSIG = 1


def registry_dir() -> Path:
    """Where running children are recorded: $XDG_RUNTIME_DIR, else the user cache."""
    base = os.environ.get("XDG_RUNTIME_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    )
    return Path(base) / "agentbench" / "servers"


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


@dataclass
class ChildServer:
    """A started server process; `stop()` ends its whole process group."""

    process: subprocess.Popen[bytes]
    name: str
    record: Path | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self, grace_s: float = 10.0) -> None:
        if self.process.poll() is None:
            _signal_group(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                _signal_group(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)
        if self.record is not None:
            with contextlib.suppress(OSError):
                self.record.unlink()


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)  # the child leads its own group (start_new_session)


def spawn(
    argv: Sequence[str], name: str, *, log: IO[bytes] | None = None, port: int | None = None
) -> ChildServer:
    """Start `argv` as a child server that cannot outlive this process."""
    process = subprocess.Popen(
        list(argv),
        stdout=log or subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=_die_with_parent,
    )
    record = _register(process.pid, name, argv, port)
    return ChildServer(process, name, record)


def _register(pid: int, name: str, argv: Sequence[str], port: int | None) -> Path | None:
    try:
        folder = registry_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{pid}.json"
        entry = {"pid": pid, "name": name, "port": port, "owner": os.getpid(), "argv": list(argv)}
        path.write_text(json.dumps(entry))
        return path
    except OSError:
        return None  # the record is a safety net; a read-only home must not stop a run


def stale_servers() -> list[dict[str, Any]]:
    """Children recorded by an earlier agentbench whose owner is gone but which still run.
    Records of children that ended are removed."""
    stale: list[dict[str, Any]] = []
    folder = registry_dir()
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            entry = json.loads(path.read_text())
            pid, owner = int(entry["pid"]), int(entry["owner"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if not _same_process(pid, entry.get("argv") or []):
            with contextlib.suppress(OSError):
                path.unlink()
        elif not _alive(owner):
            stale.append(entry)
    return stale


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _same_process(pid: int, argv: list[str]) -> bool:
    """Alive, and still the program we started (pids are reused)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return _alive(pid) and not Path("/proc").is_dir()
    return bool(argv) and [c.decode(errors="replace") for c in cmdline if c] == argv


def stale_warning() -> str | None:
    """One line about servers an earlier agentbench left running, or None."""
    stale = stale_servers()
    if not stale:
        return None
    described = ", ".join(
        f"{e.get('name')} pid {e['pid']}" + (f" port {e['port']}" if e.get("port") else "")
        for e in stale
    )
    pids = " ".join(str(e["pid"]) for e in stale)
    return (
        f"servers started by an earlier agentbench are still running ({described}); "
        f"stop them: kill {pids}"
    )
