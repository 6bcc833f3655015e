"""`nginx -t` / `nginx -T` / `nginx -v` over the declared configuration files.

The test parses every file as nginx's tokenizer does (directives end with `;`, blocks are
braced, `#` comments, quotes), so an unterminated directive fails with nginx's own
`unexpected "}" in FILE:LINE`.

`-T` dumps every file the configuration opens, in the order nginx opens them (`include`
directives with their globs, recursively), each under `# configuration file PATH:`, after the
syntax check lines; a missing main file or include fails as nginx does. Reading needs the files
to be readable by the user (`/etc/nginx` is world-readable on most hosts). `-s SIGNAL` needs
root and is a reload/stop of the service (a `Change`).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re

from agentbench.sim.core.base import Change, CommandResult, ShellContext
from agentbench.sim.core.fs import FileSystem

MAIN = "/etc/nginx/nginx.conf"
_INCLUDE = re.compile(r"^\s*include\s+([^;\s]+)\s*;", re.M)


def syntax_error(text: str, path: str) -> str | None:
    """nginx's parser errors: a directive cut short by `{`/`}`, an unmatched brace."""
    depth, pending, line = 0, False, 1
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\n":
            line += 1
        elif c == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif c in "'\"":
            end = text.find(c, i + 1)
            line += text.count("\n", i, max(end, i))
            i = len(text) if end < 0 else end
            pending = True
        elif c == ";":
            pending = False
        elif c == "{":
            depth, pending = depth + 1, False
        elif c == "}":
            if pending or depth == 0:
                return f'unexpected "}}" in {path}:{line}'
            depth -= 1
        elif not c.isspace():
            pending = True
        i += 1
    if depth or pending:
        expected = '"}"' if depth else '";" or "}"'
        return f"unexpected end of file, expecting {expected} in {path}:{line}"
    return None


def _opened(fs: FileSystem, path: str, user: str, seen: list[str]) -> str | None:
    """Collect the files nginx opens from `path`; the error text if one cannot be read or
    does not parse."""
    text, error = fs.read(path, user)
    if text is None:
        code = "2: No such file or directory" if "No such" in error else "13: Permission denied"
        return f'open() "{path}" failed ({code})'
    seen.append(path)
    problem = syntax_error(text, path)
    if problem:
        return problem
    for pattern in _INCLUDE.findall(text):
        full = pattern if pattern.startswith("/") else posixpath.join("/etc/nginx", pattern)
        if any(c in full for c in "*?["):
            folder = posixpath.dirname(full)
            matches = [posixpath.join(folder, n) for n in fs.children(folder)]
            targets = sorted(m for m in matches if fnmatch.fnmatchcase(m, full))
        else:
            targets = [full]
        for target in targets:
            if target not in seen:
                problem = _opened(fs, target, user, seen)
                if problem:
                    return problem
    return None


class Nginx:
    """The nginx binary's test and dump modes."""

    def __init__(self, fs: FileSystem) -> None:
        self.fs = fs

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        flags = "".join(a.lstrip("-") for a in argv[1:] if a.startswith("-") and a != "-s")
        if "v" in flags.lower() and "t" not in flags.lower():
            return CommandResult(
                stderr="nginx version: nginx/1.24.0 (Ubuntu)\n", identity=("nginx", "version")
            )
        if "-s" in argv:
            signal = argv[argv.index("-s") + 1] if argv.index("-s") + 1 < len(argv) else ""
            if ctx.user != "root":
                text = "nginx: [alert] kill(1204, 1) failed (1: Operation not permitted)\n"
                return CommandResult(
                    stderr=text, exit_code=1, identity=("nginx", signal, "!denied")
                )
            return CommandResult(
                identity=("nginx", signal),
                changes=[Change("systemd", signal, "nginx.service", "nginx -s")],
            )
        if "t" not in flags.lower():
            return CommandResult(
                stderr="nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)\n",
                exit_code=1,
                identity=("nginx", "start", "!running"),
            )
        seen: list[str] = []
        problem = _opened(self.fs, MAIN, ctx.user, seen)
        if problem:
            text = f"nginx: [emerg] {problem}\nnginx: configuration file {MAIN} test failed\n"
            return CommandResult(stderr=text, exit_code=1, identity=("nginx", "test", "!failed"))
        check = (
            f"nginx: the configuration file {MAIN} syntax is ok\n"
            f"nginx: configuration file {MAIN} test is successful\n"
        )
        if "T" not in flags:
            return CommandResult(stderr=check, identity=("nginx", "test"))
        dump = "".join(f"# configuration file {p}:\n{self.fs.nodes[p].content}\n" for p in seen)
        return CommandResult(stdout=dump, stderr=check, identity=("nginx", "dump"))
