"""Login records of the declared host: who, w, last (wtmp) and lastb (btmp), from `system.logins`.

Layouts follow util-linux `last` and coreutils `who`: `deploy   pts/2        203.0.113.45     Sat
Mar 14 03:19 - 03:24  (00:05)`, then `wtmp begins ...`. btmp is root's (lastb as another user gets
the kernel's Permission denied). Reads resolve to ("logins", "who"|"wtmp"|"btmp").
"""

from __future__ import annotations

from datetime import datetime

from agentbench.sim.core.base import CommandResult
from agentbench.sim.core.options import parse_options, usage_text
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.spec_services import LoginSpec
from agentbench.sim.core.units import parse_time
from agentbench.sim.host.facts import uptime_line


def _when(stamp: datetime) -> str:
    return stamp.strftime("%a %b %e %H:%M")


def _span(login: LoginSpec) -> str:
    start = parse_time(login.start)
    if login.end is None:
        return f"{_when(start)}   still logged in"
    end = parse_time(login.end)
    minutes = int((end - start).total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    length = f"{days}+" if days else ""
    length += f"{rest // 60:02}:{rest % 60:02}"
    return f"{_when(start)} - {end.strftime('%H:%M')}  ({length})"


@program("who", needs=("system",))
def who(call: Call) -> CommandResult:
    state = call.system
    long = ["all", "boot", "dead", "heading", "login", "lookup", "process", "count", "runlevel"]
    long += ["short", "time", "mesg", "message", "writable", "users", "ips"]
    _, _, error = parse_options("who", call.argv[1:], "abdHlmpqrstTuw", long)
    if error:
        return error
    active = [x for x in state.spec.logins if x.end is None and not x.failed]
    lines = []
    for x in sorted(active, key=lambda x: x.start):
        host = f" ({x.host})" if x.host else ""
        lines.append(f"{x.user:<8} {x.tty:<12} {parse_time(x.start):%Y-%m-%d %H:%M}{host}")
    return CommandResult(stdout="".join(line + "\n" for line in lines), identity=("logins", "who"))


_LAST_OTHER = ["dns", "file=", "fulltimes", "ip", "present=", "nohostname", "since=", "until="]
_LAST_OTHER += ["fullnames", "system", "time-format=", "version"]


def _last_options(
    prog: str, args: list[str]
) -> tuple[set[str], int | None, list[str]] | CommandResult:
    """util-linux last's options: (-a, the -n/--limit/-N count, the names) or the rejection;
    raises NotSimulated for the ones not carried (another file, other time spans or formats)."""
    args = [f"-n{a[1:]}" if a[1:].isdigit() and a.startswith("-") else a for a in args]
    opts, names, error = parse_options(
        prog,
        args,
        "an:",
        ["hostlast", "limit="],
        uncarried="dFf:ip:Rs:t:wxTV",
        uncarried_long=_LAST_OTHER,
    )
    if error:
        return error
    limit = None
    for name, value in opts:
        if name in ("-n", "--limit"):
            if not value.isdigit():
                text = f"{prog}: failed to parse number: '{value}'\n"
                return CommandResult(stderr=text, exit_code=1)
            limit = int(value)
    return {"-a" if o == "--hostlast" else o for o, _ in opts}, limit, names


@program("last", "lastb", needs=("system",))
def last(call: Call) -> CommandResult:
    state, argv, ctx = call.system, call.argv, call.ctx
    prog = argv[0]
    failed = prog == "lastb"
    source = "btmp" if failed else "wtmp"
    identity = ("logins", source)
    if failed and ctx.user != "root":
        text = "lastb: cannot open /var/log/btmp: Permission denied\n"
        return CommandResult(stderr=text, exit_code=1, identity=(*identity, "!denied"))
    parsed = _last_options(prog, argv[1:])
    if isinstance(parsed, CommandResult):
        return parsed
    flags, limit, names = parsed
    records = [x for x in state.spec.logins if x.failed == failed]
    # wtmp starts with the boot record; btmp with its first failure
    starts = [parse_time(x.start) for x in records]
    if not failed:
        starts.append(parse_time(state.spec.boot))
    begins = min(starts, default=state.now)
    shown = sorted(records, key=lambda x: x.start, reverse=True)
    if names:
        shown = [x for x in shown if x.user in names or x.tty in names]
    if limit is not None:
        shown = shown[:limit]
    host_last = "-a" in flags  # the remote host in the last column
    lines = []
    for x in shown:
        span = _span(x)
        if failed:
            span = f"{_when(parse_time(x.start))} - {parse_time(x.start):%H:%M}  (00:00)"
        if host_last:
            lines.append(f"{x.user:<8} {x.tty:<12} {span:<38} {x.host}".rstrip())
        else:
            lines.append(f"{x.user:<8} {x.tty:<12} {x.host:<16} {span}".rstrip())
    footer = f"\n{source} begins {begins.strftime('%a %b %e %H:%M:%S %Y')}\n"
    return CommandResult(stdout="".join(line + "\n" for line in lines) + footer, identity=identity)


@program("w", needs=("system",))
def w(call: Call) -> CommandResult:
    """procps-ng w [-h] [USER]; its other layouts (-s, -f, -o, -i, -p, -u) are not simulated."""
    state = call.system
    opts, users, error = parse_options(
        "w",
        call.argv[1:],
        "h",
        ["no-header"],
        uncarried="fiopsuV",
        uncarried_long=["from", "ip-addr", "old-style", "pids", "short", "no-current", "version"],
        reject=usage_text,
    )
    if error:
        return error
    active = sorted(
        (x for x in state.spec.logins if x.end is None and not x.failed), key=lambda x: x.start
    )
    if users:
        active = [x for x in active if x.user == users[0]]
    lines = [] if opts else [uptime_line(state).rstrip("\n")]
    lines += [] if opts else ["USER     TTY      FROM             LOGIN@   IDLE   JCPU   PCPU WHAT"]
    for x in active:
        lines.append(
            f"{x.user:<8} {x.tty:<8} {x.host or '-':<16} {parse_time(x.start):%H:%M}    "
            "0.00s  0.01s  0.00s -bash"
        )
    return CommandResult(stdout="".join(line + "\n" for line in lines), identity=("logins", "who"))
