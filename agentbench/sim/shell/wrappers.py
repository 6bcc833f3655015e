"""Programs that run another program: sudo, env, nohup, nice, time, command, exec, timeout,
watch, xargs. One reading of their flags, shared by the executor (interpreter.py) and the static
readers (call identity, forbid matching, the read/write classifier), so what runs and what is
scored are the same command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ASSIGN = re.compile(r"^[A-Za-z_]\w*=")
# wrapper -> (flags that take a value, flags that end the wrapper's own words)
_VALUED = {
    "sudo": frozenset({"-u", "--user", "-g", "--group", "-C", "-D", "-h", "-p", "-r", "-t"}),
    "env": frozenset({"-u", "--unset", "-C", "--chdir"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "watch": frozenset({"-n", "--interval", "-d", "-q", "--equexit"}),
    "xargs": frozenset(
        {
            "-n",
            "--max-args",
            "-I",
            "-L",
            "--max-lines",
            "-P",
            "--max-procs",
            "-d",
            "--delimiter",
            "-E",
            "-e",
            "-s",
            "--max-chars",
            "-a",
            "--arg-file",
        }
    ),
    "exec": frozenset({"-a"}),
    "time": frozenset({"-f", "--format", "-o", "--output"}),
}
WRAPPERS = frozenset({*_VALUED, "nohup", "command", "stdbuf"})


@dataclass
class Xargs:
    replace: str | None = None  # -I R
    max_args: int | None = None  # -n N (or -L N: one line each)
    delimiter: str | None = None  # -0 or -d C; None: blanks and newlines
    no_run_if_empty: bool = False  # -r
    trace: bool = False  # -t
    unsupported: str | None = None  # a flag the simulator does not carry out (-a FILE, -p)


@dataclass
class Unwrapped:
    """What a command line's words run once the wrappers are read."""

    words: list[str]
    wrappers: list[str] = field(default_factory=list)
    user: str | None = None  # sudo's target user ("root" by default)
    env: dict[str, str] = field(default_factory=dict)
    clear_env: bool = False
    xargs: Xargs | None = None  # set: `words` is xargs' command template (default echo)
    watch: bool = False
    unsupported: str | None = None  # e.g. `sudo -i`, `env -S`: not simulated


def basename(word: str) -> str:
    return word.rsplit("/", 1)[-1] if word.startswith("/") else word


def unwrap(words: list[str]) -> Unwrapped:
    """Reads leading `VAR=x` words and wrappers off `words`, stopping at xargs (whose command
    depends on its input) and at the first ordinary program."""
    out = Unwrapped(list(words))
    while out.words:
        head = basename(out.words[0])
        if _ASSIGN.match(out.words[0]) and out.wrappers and out.wrappers[-1] == "env":
            name, _, value = out.words.pop(0).partition("=")
            out.env[name] = value
            continue
        if head not in WRAPPERS or (head == "command" and _command_query(out.words)):
            break
        out.wrappers.append(head)
        flags, out.words = _flags(head, out.words[1:])
        if _apply(head, flags, out) or head == "xargs":
            break
    return out


def _command_query(words: list[str]) -> bool:
    return len(words) > 1 and words[1] in ("-v", "-V")


def _flags(head: str, words: list[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    valued = _VALUED.get(head, frozenset())
    flags: list[tuple[str, str | None]] = []
    while words and words[0].startswith("-") and words[0] != "-":
        word = words.pop(0)
        if word == "--":
            break
        if head == "nice" and re.fullmatch(r"-\d+", word):
            flags.append(("-n", word[1:]))
            continue
        name, eq, value = word.partition("=")
        if eq and name.startswith("--"):
            flags.append((name, value))
        elif word in valued:
            flags.append((word, words.pop(0) if words else None))
        elif word[:2] in valued and not word.startswith("--"):
            flags.append((word[:2], word[2:]))  # -n1, -I{}, -uroot
        elif not word.startswith("--") and len(word) > 2:
            flags += [(f"-{c}", None) for c in word[1:]]  # -En
        else:
            flags.append((word, None))
    return flags, words


def _apply(head: str, flags: list[tuple[str, str | None]], out: Unwrapped) -> bool:
    """Records one wrapper's flags; True when the wrapper ends the unwrapping."""
    names = {name for name, _ in flags}
    if head == "sudo":
        out.user = "root"
        for name, value in flags:
            if name in ("-u", "--user") and value:
                out.user = value
        if names & {"-i", "-s", "-l", "-e", "-k", "-K", "-v", "--login", "--shell", "--list"}:
            out.unsupported = f"sudo {sorted(names)[0]}"
    elif head == "env":
        out.clear_env = out.clear_env or bool(names & {"-i", "--ignore-environment"})
        if names & {"-S", "--split-string", "-C", "--chdir"}:
            out.unsupported = "env " + sorted(names & {"-S", "--split-string", "-C", "--chdir"})[0]
    elif head == "timeout":
        if out.words:
            out.words.pop(0)  # the duration
    elif head == "watch":
        out.watch = True
    elif head == "xargs":
        out.xargs = _xargs(flags)
        if not out.words:
            out.words = ["echo"]
        return True
    return False


def _xargs(flags: list[tuple[str, str | None]]) -> Xargs:
    spec = Xargs()
    for name, value in flags:
        if name in ("-I", "-i", "--replace"):
            spec.replace = value or "{}"
        elif name in ("-n", "--max-args", "-L", "--max-lines", "-l") and value:
            spec.max_args = int(value) if value.isdigit() and int(value) > 0 else None
        elif name in ("-0", "--null"):
            spec.delimiter = "\0"
        elif name in ("-d", "--delimiter") and value:
            spec.delimiter = value.encode().decode("unicode_escape")[:1] or None
        elif name in ("-r", "--no-run-if-empty"):
            spec.no_run_if_empty = True
        elif name in ("-t", "--verbose"):
            spec.trace = True
        elif name in ("-a", "--arg-file", "-p", "--interactive", "-o", "--open-tty"):
            spec.unsupported = f"xargs {name}"
    if spec.replace is not None:
        spec.max_args = 1
    return spec


def xargs_items(text: str, spec: Xargs) -> list[str]:
    """xargs' input as arguments: blank-separated with quotes honoured, or one per delimiter;
    with -I, one per line (leading blanks dropped)."""
    if spec.replace is not None:
        return [line.lstrip() for line in text.splitlines() if line.strip()]
    if spec.delimiter is not None:
        return [item for item in text.split(spec.delimiter) if item != ""]
    items: list[str] = []
    for match in re.finditer(r"""'([^']*)'|"([^"]*)"|((?:\\.|[^\s'"])+)""", text):
        quoted = match.group(1) if match.group(1) is not None else match.group(2)
        items.append(quoted if quoted is not None else re.sub(r"\\(.)", r"\1", match.group(3)))
    return items
