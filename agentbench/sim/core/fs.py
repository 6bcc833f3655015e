"""The virtual filesystem a task declares: files with content, mode, owner and group.

Directories are implied by the files' paths (root-owned, 0755), plus the user's home and /tmp.
Permissions are checked as Linux does for the user running the command: root may do anything;
otherwise the owner, group or other bits decide, and every directory on the way needs `x`.
Errors are the kernel's (`No such file or directory`, `Permission denied`, `Is a directory`,
`Not a directory`); each program wraps them in its own text.
"""

from __future__ import annotations

import copy
import fnmatch
import hashlib
import posixpath
from dataclasses import dataclass

from agentbench.sim.core.base import Change, CommandResult, ShellContext
from agentbench.sim.core.spec import FileSpec, Size, SystemSpec
from agentbench.sim.core.spec_services import CertSpec
from agentbench.sim.core.units import parse_size

ENOENT = "No such file or directory"
EACCES = "Permission denied"
EISDIR = "Is a directory"
ENOTDIR = "Not a directory"
ENOSPC = "No space left on device"
SPACE = 64 << 20  # characters of file content the episode's disk holds: a write past it is ENOSPC


@dataclass
class Node:
    """A file or directory."""

    kind: str  # "file" | "dir"
    mode: int
    owner: str
    group: str
    mtime: str
    content: str = ""
    size: int | None = None  # apparent size when the content is abridged
    cert: CertSpec | None = None  # the X.509 certificate the file holds (sim/host/tls.py)

    @property
    def bytes(self) -> int:
        if self.kind == "dir":
            return 4096
        return self.size if self.size is not None else len(self.content.encode())


class FileSystem:
    """Paths -> nodes, with the accounts needed for permission checks."""

    def __init__(self, files: dict[str, str | FileSpec], system: SystemSpec) -> None:
        self.now = system.now
        self.groups: dict[str, set[str]] = {system.user: {system.user, "adm"}}
        self.uids: dict[str, int] = {"root": 0, system.user: 1000}
        for user in system.users:
            self.groups[user.name] = set(user.groups or [user.name])
            self.uids[user.name] = user.uid
        self.primary = {u.name: (u.groups or [u.name])[0] for u in system.users}
        self.nodes: dict[str, Node] = {"/": self._dir("root")}
        for path in ("/tmp", "/etc", "/var", "/var/log", "/home"):
            self.mkdirs(path)
        self.nodes["/tmp"].mode = 0o1777
        home = "/root" if system.user == "root" else f"/home/{system.user}"
        self.mkdirs(home)
        self.nodes[home].owner = self.nodes[home].group = system.user
        for path, spec in files.items():
            spec = FileSpec(content=spec) if isinstance(spec, str) else spec
            self.mkdirs(posixpath.dirname(path))
            self.nodes[path] = Node(
                "file",
                int(spec.mode, 8),
                spec.owner,
                spec.group or self.primary.get(spec.owner, spec.owner),
                spec.mtime or self.now,
                spec.content or (spec.cert.pem(path) if spec.cert else ""),
                _size(spec.size),
                spec.cert,
            )

    def _dir(self, owner: str) -> Node:
        return Node("dir", 0o755, owner, owner, self.now)

    def mkdirs(self, path: str) -> None:
        while path not in self.nodes:
            self.nodes[path] = self._dir("root")
            path = posixpath.dirname(path)

    # --- state --------------------------------------------------------------------------

    def snapshot(self) -> object:
        return copy.deepcopy(self.nodes)

    def restore(self, token: object) -> None:
        assert isinstance(token, dict)
        self.nodes = token

    # --- lookups ------------------------------------------------------------------------

    @staticmethod
    def resolve(path: str, cwd: str = "/") -> str:
        return posixpath.normpath(posixpath.join(cwd, path)).replace("//", "/")

    def allowed(self, node: Node, user: str, bit: int) -> bool:
        """bit: 4 read, 2 write, 1 execute/search."""
        if user == "root":
            return bit != 1 or node.kind == "dir" or bool(node.mode & 0o111)
        if node.owner == user:
            return bool(node.mode >> 6 & bit)
        if node.group in self.groups.get(user, {user}):
            return bool(node.mode >> 3 & bit)
        return bool(node.mode & bit)

    def lookup(self, path: str, user: str) -> tuple[Node | None, str]:
        """The node at an absolute path, or (None, the kernel's error)."""
        parts = [p for p in path.split("/") if p]
        current = "/"
        for part in parts:
            node = self.nodes[current]
            if node.kind != "dir":
                return None, ENOTDIR
            if not self.allowed(node, user, 1):
                return None, EACCES
            current = posixpath.join(current, part)
            if current not in self.nodes:
                return None, ENOENT
        return self.nodes[current], ""

    def read(self, path: str, user: str) -> tuple[str | None, str]:
        node, error = self.lookup(path, user)
        if node is None:
            return None, error
        if node.kind == "dir":
            return None, EISDIR
        if not self.allowed(node, user, 4):
            return None, EACCES
        return node.content, ""

    def children(self, path: str) -> list[str]:
        prefix = path.rstrip("/") + "/"
        return sorted(
            p[len(prefix) :]
            for p in self.nodes
            if p.startswith(prefix) and "/" not in p[len(prefix) :]
        )

    def glob(self, pattern: str, user: str, cwd: str) -> list[str]:
        """Paths matching a shell pattern, as bash expands it: each component matched in turn
        (a leading `.` only by a pattern that starts with `.`), directories readable by
        `user`; sorted, and relative when the pattern is."""
        absolute = pattern.startswith("/")
        found = ["/" if absolute else ""]
        for part in [p for p in pattern.split("/") if p]:
            step: list[str] = []
            for prefix in found:
                where = self.resolve(prefix or ".", cwd)
                node, _ = self.lookup(where, user)
                if node is None or node.kind != "dir":
                    continue
                if not any(c in part for c in "*?["):
                    if posixpath.join(where, part) in self.nodes:
                        step.append(posixpath.join(prefix, part) if prefix else part)
                    continue
                if not self.allowed(node, user, 4):
                    continue
                for name in self.children(where):
                    if name.startswith(".") and not part.startswith("."):
                        continue
                    if fnmatch.fnmatchcase(name, part):
                        step.append(posixpath.join(prefix, name) if prefix else name)
            found = step
        return sorted(found)

    def descendants(self, path: str) -> list[str]:
        prefix = path.rstrip("/") + "/"
        return sorted(p for p in self.nodes if p == path or p.startswith(prefix))

    # --- writes -------------------------------------------------------------------------

    def write(self, path: str, text: str, user: str, *, append: bool = False) -> str:
        """Write (or append to) a file; '' on success, else the kernel's error."""
        node, error = self.lookup(path, user)
        if node is None:
            if error != ENOENT:
                return error
            parent, error = self.lookup(posixpath.dirname(path), user)
            if parent is None:
                return error
            if parent.kind != "dir":
                return ENOTDIR
            if not self.allowed(parent, user, 2):
                return EACCES
            group = self.primary.get(user, user)
            self.nodes[path] = Node("file", 0o644, user, group, self.now)
            node = self.nodes[path]
        elif node.kind == "dir":
            return EISDIR
        elif not self.allowed(node, user, 2):
            return EACCES
        used = sum(len(n.content) for n in self.nodes.values()) - len(node.content)
        if used + len(node.content if append else "") + len(text) > SPACE:
            return ENOSPC  # writing call by call, a model cannot grow the harness without end
        node.content = node.content + text if append else text
        node.size = None
        node.mtime = self.now
        return ""

    def remove(self, path: str, user: str) -> str:
        node, error = self.lookup(path, user)
        if node is None:
            return error
        parent = self.nodes[posixpath.dirname(path)]
        if not self.allowed(parent, user, 2):
            return EACCES
        for p in self.descendants(path):
            del self.nodes[p]
        return ""

    def may_change_owner(self, node: Node, user: str) -> bool:
        return user == "root" or node.owner == user

    # --- shell hooks --------------------------------------------------------------------

    def redirect_write(
        self, path: str, text: str, append: bool, ctx: ShellContext
    ) -> CommandResult:
        """`cmd > path` / `cmd >> path` (bash reports the error, not the command)."""
        full = self.resolve(path, ctx.cwd)
        error = self.write(full, text, ctx.user, append=append)
        if error:
            return CommandResult(stderr=f"bash: {path}: {error}\n", exit_code=1)
        change = Change("filesystem", "append" if append else "write", full)
        return CommandResult(identity=("file", "write", full), changes=[change])

    def shell_glob(self, pattern: str, ctx: ShellContext) -> list[str]:
        return self.glob(pattern, ctx.user, ctx.cwd)

    def redirect_read(self, path: str, ctx: ShellContext) -> tuple[str | None, str]:
        return self.read(self.resolve(path, ctx.cwd), ctx.user)

    def read_tool(self, path: str, user: str) -> CommandResult:
        """The `read_file` tool: the content, or cat's error text."""
        full = self.resolve(path)
        text, error = self.read(full, user)
        if text is None:
            return CommandResult(
                stderr=f"cat: {path}: {error}\n",
                exit_code=1,
                identity=("file", "read", full, failure_token(error)),
            )
        return CommandResult(stdout=text, identity=("file", "read", full))


def failure_token(error: str) -> str:
    """A short token for a failed access, carried as the last element of its identity."""
    return {ENOENT: "!missing", EACCES: "!denied", EISDIR: "!directory"}.get(error, "!error")


def gzip_bytes(path: str, text: str) -> str:
    """What `cat` shows of a declared `.gz` file (whose content is the decompressed text): the
    gzip magic and deterministic binary bytes, in which no text pattern is found."""
    seed = hashlib.sha256(f"{path}\n{text}".encode()).digest()
    body = "".join(chr(0x80 + b % 0x7F) for b in seed * 4)
    return "\x1f\x8b\x08\x00" + body


def _size(value: Size | None) -> int | None:
    return None if value is None else parse_size(value)


class UserFiles:
    """The filesystem as one user in one directory sees it (what filters and file tools use).

    Without a declared filesystem every path is missing (and the caller marks the call
    off-script)."""

    def __init__(self, fs: FileSystem | None, ctx: ShellContext) -> None:
        self.fs = fs
        self.user = ctx.user
        self.cwd = ctx.cwd

    def path(self, operand: str) -> str:
        return FileSystem.resolve(operand, self.cwd)

    def read(self, operand: str) -> tuple[str, str | None, str]:
        """(absolute path, text or None, the kernel's error)."""
        full = self.path(operand)
        if self.fs is None:
            return full, None, ENOENT
        text, error = self.fs.read(full, self.user)
        if text and full.endswith((".gz", ".tgz")):  # declared decompressed; plain tools see gzip
            text = gzip_bytes(full, text)
        return full, text, error

    def tree(self, operand: str) -> list[str] | None:
        """The files under a directory operand, spelt from the operand (`grep -r`, in name
        order); None when the operand is not a directory."""
        full = self.path(operand)
        node = self.fs.nodes.get(full) if self.fs else None
        if self.fs is None or node is None or node.kind != "dir":
            return None
        base = operand.rstrip("/") or "/"
        return [
            base + ("" if base.endswith("/") else "/") + p[len(full.rstrip("/")) + 1 :]
            for p in self.fs.descendants(full)
            if self.fs.nodes[p].kind == "file"
        ]

    def write(self, operand: str, text: str) -> tuple[str, str]:
        """(absolute path, the kernel's error or '')."""
        full = self.path(operand)
        if self.fs is None:
            return full, ENOENT
        return full, self.fs.write(full, text, self.user)
