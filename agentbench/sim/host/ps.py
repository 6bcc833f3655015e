"""`ps` over the declared processes: `aux`, `-ef`, `-p PID`, `-o FIELDS` and `--sort`.

Every other option of procps' three grammars (UNIX `-x`, BSD letters, GNU `--long`) is not
simulated, and so is a listing that selects the calling terminal's processes (no `-e`, `-A`,
`ax` or `-p`): a tool call has no terminal. `w` is carried: without a terminal ps never
truncates its lines. An option ps does not have gets its usage text (not carried).

Layouts are procps-ng's: BSD `ps aux` widens VSZ/RSS to the largest value; `-ef` is the
System V full listing; `-o` prints the named columns with procps' headers.
"""

from __future__ import annotations

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.core.options import parse_options, usage_text
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.spec import ProcessSpec

# -o field -> (header, right-aligned, value)
_FIELDS = {
    "pid": ("PID", True, lambda p: str(p.pid)),
    "ppid": ("PPID", True, lambda p: "1" if p.pid > 1 else "0"),
    "user": ("USER", False, lambda p: p.user),
    "comm": ("COMMAND", False, lambda p: _comm(p)),
    "cmd": ("CMD", False, lambda p: p.command),
    "args": ("COMMAND", False, lambda p: p.command),
    "command": ("COMMAND", False, lambda p: p.command),
    "%cpu": ("%CPU", True, lambda p: f"{p.cpu:.1f}"),
    "pcpu": ("%CPU", True, lambda p: f"{p.cpu:.1f}"),
    "%mem": ("%MEM", True, lambda p: f"{p.mem:.1f}"),
    "pmem": ("%MEM", True, lambda p: f"{p.mem:.1f}"),
    "rss": ("RSS", True, lambda p: str(p.rss)),
    "vsz": ("VSZ", True, lambda p: str(p.vsz)),
    "stat": ("STAT", False, lambda p: p.stat),
    "tty": ("TT", False, lambda p: p.tty),
    "time": ("TIME", True, lambda p: f"00:{p.time:>05}"),
    "start": ("STARTED", True, lambda p: p.start),
}


_MIN_WIDTH = {"pid": 7, "ppid": 7, "user": 8, "%cpu": 4, "pcpu": 4, "%mem": 4, "pmem": 4}
_MIN_WIDTH.update({"rss": 5, "vsz": 6, "tty": 8, "stat": 4, "time": 8, "start": 8})


def _comm(p: ProcessSpec) -> str:
    words = p.command.split()
    return words[0].rsplit("/", 1)[-1].rstrip(":")[:15] if words else ""


def _columns(args: list[str]) -> list[tuple[str, str | None]]:
    """(field, header override) of `-o a,b`, `-oa,b`, `o a,b`, `--format a,b`, `-o pid=`."""
    fields: list[tuple[str, str | None]] = []
    for i, arg in enumerate(args):
        value = None
        if arg in ("-o", "o", "--format", "-O") and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("-") and not arg.startswith("--") and "o" in arg:
            rest = arg[arg.index("o") + 1 :]  # -o FIELDS, -oFIELDS, -eo FIELDS
            value = rest or (args[i + 1] if i + 1 < len(args) else None)
        elif arg.startswith(("--format=", "-o=")):
            value = arg.split("=", 1)[1]
        if value:
            for item in (f for f in value.replace(" ", ",").split(",") if f):
                name, eq, header = item.partition("=")
                fields.append((name.strip().lower(), header if eq else None))
    return fields


def _custom(
    procs: list[ProcessSpec], spec: list[tuple[str, str | None]], exit_code: int
) -> CommandResult:
    unknown = [c for c, _ in spec if c not in _FIELDS]
    if unknown:
        text = f'error: unknown user-defined format specifier "{unknown[0]}"\n'
        return CommandResult(stderr=text, exit_code=1)
    columns = [c for c, _ in spec]
    headers = [_FIELDS[c][0] if h is None else h for c, h in spec]
    table = [headers] if any(headers) else []  # every header blanked (`pid=`): none printed
    table += [[_FIELDS[c][2](p) for c in columns] for p in procs]
    widths = [
        max([_MIN_WIDTH.get(c, 0), *(len(row[i]) for row in table)]) for i, c in enumerate(columns)
    ]
    lines = []
    for row in table:
        cells = [
            row[i].rjust(widths[i]) if _FIELDS[c][1] else row[i].ljust(widths[i])
            for i, c in enumerate(columns)
        ]
        lines.append(" ".join(cells).rstrip())
    return CommandResult(stdout="\n".join(lines) + "\n", exit_code=exit_code, identity=("ps",))


@program("ps", needs=("system",))
def ps(call: Call) -> CommandResult:
    state, argv = call.system, call.argv
    args = argv[1:]
    sort = _check_options(args)
    procs = list(state.processes)
    if sort:
        key = sort.lstrip("-+")
        field = {
            "%cpu": "cpu",
            "pcpu": "cpu",
            "%mem": "mem",
            "pmem": "mem",
            "rss": "rss",
            "pid": "pid",
            "vsz": "vsz",
        }.get(key)
        if field is None:
            return CommandResult(stderr="error: unknown sort specifier\n", exit_code=1)
        procs.sort(key=lambda p: getattr(p, field), reverse=sort.startswith("-"))
    columns = _columns(args)
    wanted = _pid_selection(args)
    if wanted is not None:  # ps -p PID[,PID] / -fp PID / --pid PID
        procs = [p for p in procs if p.pid in wanted]
        short = "".join(a.lstrip("-") for a in args if not a.startswith("--") and a.isalpha())
        short += "".join(a[1:] for a in args if a.startswith("-") and a[1:].isalpha())
        if columns:
            return _custom(procs, columns, exit_code=0 if procs else 1)
        if "f" not in short and "u" not in short:
            rows = ["    PID TTY          TIME CMD"]
            rows += [
                f"{p.pid:>7} {p.tty:<8} 00:{p.time:>05} {p.command.split()[0].rsplit('/', 1)[-1]}"
                for p in procs
            ]
            return CommandResult(
                stdout="\n".join(rows) + "\n", exit_code=0 if procs else 1, identity=("ps",)
            )
        args = [*args, "-ef"] if "f" in short else args
    if columns:
        return _custom(procs, columns, exit_code=0)
    if any(a in ("-ef", "-eF", "-e", "-A") for a in args):
        rows = ["UID          PID    PPID  C STIME TTY          TIME CMD"]
        rows += [
            f"{p.user:<8} {p.pid:>7} {1 if p.pid > 1 else 0:>7} {int(p.cpu):>2} {p.start:<5} "
            f"{p.tty:<8} 00:{p.time:>05} {p.command}"
            for p in procs
        ]
    else:
        # procps widens VSZ and RSS to the largest value
        vsz = max([6, *(len(str(p.vsz)) for p in procs)])
        rss = max([5, *(len(str(p.rss)) for p in procs)])
        head = f"USER         PID %CPU %MEM {'VSZ':>{vsz}} {'RSS':>{rss}} TTY      STAT START"
        rows = [head + "   TIME COMMAND"]
        rows += [
            f"{p.user[:8] if len(p.user) <= 8 else p.user[:7] + '+':<8} {p.pid:>7} "
            f"{p.cpu:4.1f} {p.mem:4.1f} {p.vsz:>{vsz}} {p.rss:>{rss}} {p.tty:<8} "
            f"{p.stat:<4} {p.start:>5} {p.time:>6} {p.command}"
            for p in procs
        ]
    return CommandResult(stdout="\n".join(rows) + "\n", identity=("ps",))


def _pid_selection(args: list[str]) -> set[int] | None:
    """The pids of `-p LIST`, `-pLIST`, `-fp LIST`, `--pid LIST`, `--pid=LIST`; None without."""
    for i, arg in enumerate(args):
        value = None
        if arg.startswith("--pid"):
            value = (
                arg.split("=", 1)[1] if "=" in arg else (args[i + 1] if i + 1 < len(args) else "")
            )
        elif arg.startswith("-") and not arg.startswith("--") and "p" in arg:
            rest = arg[arg.index("p") + 1 :]
            value = rest or (args[i + 1] if i + 1 < len(args) else "")
        if value is not None:
            return {int(v) for v in value.replace(",", " ").split() if v.isdigit()}
    return None


_UNIX_OTHER = "acdFHjLlMNPTVyZC:G:g:O:q:s:t:U:u:"
_GNU_OTHER = ["cols=", "columns=", "width=", "rows=", "lines=", "context", "cumulative"]
_GNU_OTHER += ["deselect", "forest", "Group=", "group=", "headers", "no-headers", "heading"]
_GNU_OTHER += ["no-heading", "info", "ppid=", "quick-pid=", "sid=", "tty=", "User=", "user="]
_GNU_OTHER += ["version"]


def _check_options(args: list[str]) -> str | None:
    """Raise NotSimulated for what the listing does not carry (module docstring); the --sort key."""
    opts, words, _ = parse_options(  # usage_text raises: no rejection comes back
        "ps",
        args,
        "efAwp:o:",
        ["sort=", "pid=", "format="],
        uncarried=_UNIX_OTHER,
        uncarried_long=_GNU_OTHER,
        reject=usage_text,
    )
    bsd: set[str] = set()
    rest = iter(words)
    for word in rest:
        letters = word
        if "o" in word:  # BSD `o FIELDS` / `axoFIELDS`: the field list follows
            letters, fields = word.split("o", 1)
            if not fields:
                next(rest, None)
        bsd |= set(letters)
        if not letters.isalpha() or set(letters) - set("auxw"):
            raise NotSimulated(f"ps {word} (BSD options not simulated)")
    flags = {o for o, _ in opts}
    sort = next((v for o, v in opts if o == "--sort"), None)
    if not args or {"a", "x"} <= bsd or flags & {"-e", "-A", "-p", "--pid"}:
        return sort
    if any(field not in _FIELDS for field, _ in _columns(args)):
        return sort  # a bad format is an error before any selection is made
    raise NotSimulated("ps " + " ".join(args) + " (the calling terminal's processes)")
