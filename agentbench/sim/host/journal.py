"""`journalctl` over the declared journal.

Covered: -u UNIT (repeatable), -k/--dmesg, FIELD=VALUE matches (`_TRANSPORT=kernel`,
`_SYSTEMD_UNIT=`, `SYSLOG_IDENTIFIER=`, `_PID=`, `PRIORITY=`), -t, --since/--until (absolute,
`today`, `yesterday`, `-1h`, `2 hours ago`, `HH:MM`), -n N, -p LEVEL[..LEVEL], -b [N], -r, -g,
-o short|short-iso|cat, and the no-ops (--no-pager, -x, -e, -f, -a, -q). A user outside `adm`
and `systemd-journal` sees only the hint journalctl prints. The identity is what was selected
(`("journal", "unit=nginx.service")`, `("journal", "kernel")`); the window is presentation.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from agentbench.sim.core.base import CommandResult, ShellContext
from agentbench.sim.core.regex import search
from agentbench.sim.core.spec import JournalEntry
from agentbench.sim.core.system import SystemState
from agentbench.sim.core.units import human, journal_time, parse_size, parse_time

PRIORITIES = ["emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"]
_VALUED = {
    "--vacuum-size",
    "--vacuum-files",
    "--vacuum-time",
    "-u",
    "--unit",
    "-n",
    "--lines",
    "-p",
    "--priority",
    "-S",
    "--since",
    "-U",
    "--until",
    "-o",
    "--output",
    "-g",
    "--grep",
    "-t",
    "--identifier",
}
_NO_OPS = {
    "--no-pager",
    "-x",
    "--catalog",
    "-a",
    "--all",
    "-q",
    "--quiet",
    "--utc",
    "-l",
    "--full",
    "--no-hostname",
}
_CLUSTER = re.compile(r"-[abefkqrxl]+[unptSUgo]?")
_HINT = (
    "Hint: You are currently not seeing messages from other users and the system.\n"
    "      Users in groups 'adm', 'systemd-journal', 'wheel' can see all messages.\n"
    "      Pass -q to turn off this notice.\n"
)


def journal_line(entry: JournalEntry, host: str, output: str = "short") -> str:
    """One entry as journalctl prints it: `Nov 29 02:00:01 host ident[pid]: message`."""
    if output == "cat":
        return entry.message
    if entry.transport == "kernel":
        ident, pid = "kernel", ""
    else:
        ident = entry.ident or (entry.unit or "systemd").rsplit(".", 1)[0]
        pid = f"[{entry.pid}]" if entry.pid else ""
    stamp = journal_time(entry.time)
    if output == "short-iso":
        stamp = parse_time(entry.time).strftime("%Y-%m-%dT%H:%M:%S+0000")
    return f"{stamp} {host} {ident}{pid}: {entry.message}"


def _when(text: str, now: datetime) -> datetime | None:
    text = text.strip()
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    named = {"today": day, "now": now, "yesterday": day - timedelta(days=1)}
    if text in named:
        return named[text]
    units = r"(s|sec|seconds?|m|min|minutes?|h|hours?|d|days?)"
    match = re.fullmatch(r"-?(\d+)\s*" + units + r"(\s+ago)?", text)
    if match and (text.startswith("-") or match.group(3)):
        seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)[0]]
        return now - timedelta(seconds=int(match.group(1)) * seconds)
    match = re.fullmatch(r"(\d\d?):(\d\d)(?::(\d\d))?", text)
    if match:
        hour, minute, second = (int(g or 0) for g in match.groups())
        return day.replace(hour=hour, minute=minute, second=second)
    try:
        return parse_time(text.replace(" ", "T", 1))
    except ValueError:
        return None


def _priority_range(text: str) -> tuple[int, int] | None:
    def level(word: str) -> int | None:
        if word.isdigit() and int(word) < 8:
            return int(word)
        return PRIORITIES.index(word) if word in PRIORITIES else None

    low, _, high = text.partition("..")
    a = level(low)
    if a is None:
        return None
    if not high:
        return (0, a)
    b = level(high)
    return None if b is None else (min(a, b), max(a, b))


class _Query:
    def __init__(self) -> None:
        self.vacuum: tuple[str, str] | None = None
        self.units: list[str] = []
        self.matches: list[tuple[str, str]] = []
        self.since: datetime | None = None
        self.until: datetime | None = None
        self.lines: int | None = None
        self.priority: tuple[int, int] | None = None
        self.kernel = self.reverse = False
        self.output = "short"
        self.grep: str | None = None
        self.boot: int | None = None
        self.narrowed = False  # a window, a count or a filter the journal index answers fast
        self.follow = self.disk_usage = False

    def selects(self, entry: JournalEntry) -> bool:
        if self.units and entry.unit not in self.units:
            return False
        for key, value in self.matches:
            fields = {
                "_TRANSPORT": entry.transport,
                "_SYSTEMD_UNIT": entry.unit,
                "SYSLOG_IDENTIFIER": entry.ident or (entry.unit or "").rsplit(".", 1)[0],
                "_PID": str(entry.pid),
                "PRIORITY": str(entry.priority),
                "_COMM": entry.ident,
            }
            if key == "_SYSTEMD_UNIT" and "." not in value:
                value += ".service"
            if fields.get(key) != value:
                return False
        if (self.kernel and entry.transport != "kernel") or (
            self.boot is not None and entry.boot != self.boot
        ):
            return False
        stamp = parse_time(entry.time)
        if (self.since and stamp < self.since) or (self.until and stamp > self.until):
            return False
        if self.priority and not self.priority[0] <= entry.priority <= self.priority[1]:
            return False
        return not (self.grep and not search(self.grep, entry.message))


def _parse(state: SystemState, args: list[str]) -> _Query | CommandResult:
    query = _Query()
    # short flags cluster as getopt allows: -xeu UNIT = -x -e -u UNIT
    args = [f for a in args for f in ([f"-{c}" for c in a[1:]] if _CLUSTER.fullmatch(a) else [a])]
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition("=")
        if name in _VALUED and not eq:
            if i + 1 >= len(args):
                text = f"journalctl: option '{name}' requires an argument\n"
                return CommandResult(stderr=text, exit_code=1)
            value, i = args[i + 1], i + 1
        elif re.fullmatch(r"-[un].+", name) and not eq:
            name, value = name[:2], name[2:]
        i += 1
        if name in ("-u", "--unit"):
            query.units.append(state.unit_name(value))
        elif name in ("-t", "--identifier"):
            query.matches.append(("SYSLOG_IDENTIFIER", value))
        elif name in ("-n", "--lines"):
            if not value.isdigit() and value != "all":
                return CommandResult(stderr=f"Failed to parse lines '{value}'.\n", exit_code=1)
            query.narrowed = True
            query.lines = int(value) if value.isdigit() else None
        elif name in ("-p", "--priority"):
            query.narrowed = True
            query.priority = _priority_range(value)
            if query.priority is None:
                text = f"Failed to parse priority value: {value}\n"
                return CommandResult(stderr=text, exit_code=1)
        elif name in ("-S", "--since", "-U", "--until"):
            stamp = _when(value, state.now)
            if stamp is None:
                return CommandResult(stderr=f"Failed to parse timestamp: {value}\n", exit_code=1)
            query.narrowed = True
            if name in ("-S", "--since"):
                query.since = stamp
            else:
                query.until = stamp
        elif name in ("-k", "--dmesg"):
            query.narrowed = True
            query.kernel = True
            query.boot = 0 if query.boot is None else query.boot
        elif name in ("-b", "--boot"):
            query.narrowed = True
            query.boot = 0
            if i < len(args) and re.fullmatch(r"-?\d+", args[i]):
                query.boot = min(int(args[i]), 0)
                i += 1
        elif name in ("-e", "--pager-end"):
            query.narrowed = True  # jumps to the end: journalctl reads the tail only
        elif name in ("-r", "--reverse"):
            query.reverse = True
        elif name in ("-o", "--output"):
            query.output = value
        elif name in ("-g", "--grep"):
            query.narrowed = True
            query.grep = value
        elif name in ("-f", "--follow"):
            query.follow = True
        elif name == "--disk-usage":
            query.disk_usage = True
        elif name in ("--vacuum-size", "--vacuum-files", "--vacuum-time"):
            query.vacuum = (name, value)
        elif name in _NO_OPS:
            continue
        elif eq and re.fullmatch(r"[A-Z_]+", name):
            query.matches.append((name, value))
        elif name.startswith("-"):
            return CommandResult(stderr=f"journalctl: unrecognized option '{name}'\n", exit_code=1)
        else:
            text = f"Failed to add match '{arg}': Invalid argument\n"
            return CommandResult(stderr=text, exit_code=1)
    return query


def journalctl(
    state: SystemState, argv: list[str], stdin: str | None, ctx: ShellContext
) -> CommandResult:
    query = _parse(state, argv[1:])
    if isinstance(query, CommandResult):
        return query
    if query.vacuum:
        from agentbench.sim.host.journal_vacuum import vacuum

        return vacuum(state, *query.vacuum, ctx)
    if query.disk_usage:
        size = human(parse_size(state.spec.journal_size)).replace("K", "K").rstrip()
        text = f"Archived and active journals take up {size} in the file system.\n"
        return CommandResult(stdout=text, identity=("journal", "disk-usage"))
    limit = state.spec.journal_timeout_s
    if limit is not None and (query.follow or not query.narrowed):
        text = (
            f"run_command: timed out after {limit}s; the command was killed (no output received)\n"
        )
        return CommandResult(
            stderr=text, exit_code=124, timed_out=True, identity=("journal", "!timeout")
        )
    groups = state.users.get(ctx.user, (0, []))[1]
    if ctx.user != "root" and not {"adm", "systemd-journal", "wheel"} & set(groups):
        return CommandResult(
            stdout="-- No entries --\n", stderr=_HINT, identity=("journal", "!denied")
        )
    selected = [e for e in state.journal if query.selects(e)]
    if query.lines is not None:
        selected = selected[-query.lines :] if query.lines else []
    if query.reverse:
        selected.reverse()
    terms = [f"unit={u}" for u in query.units] + [f"{k}={v}" for k, v in query.matches]
    identity = ("journal", *sorted(terms + (["kernel"] if query.kernel else [])))
    if not selected:
        return CommandResult(stdout="-- No entries --\n", identity=identity)
    host = state.spec.hostname
    text = "".join(journal_line(e, host, query.output) + "\n" for e in selected)
    return CommandResult(stdout=text, identity=identity)
