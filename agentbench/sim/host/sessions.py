"""Login records of the declared host: who, w, last (wtmp) and lastb (btmp), from `system.logins`.

Layouts follow util-linux `last` and coreutils `who`: `deploy   pts/2        203.0.113.45     Sat
Mar 14 03:19 - 03:24  (00:05)`, then `wtmp begins ...`. btmp is root's (lastb as another user gets
the kernel's Permission denied). Reads resolve to ("logins", "who"|"wtmp"|"btmp").
"""

from __future__ import annotations

from datetime import datetime

from agentbench.sim.core.base import CommandResult
from agentbench.sim.core.options import parse_options
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


def _count(args: list[str]) -> tuple[int | None, list[str], str | None]:
    """(-n N | -N | --limit N, the other words, an error)."""
    limit, rest = None, []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-n", "--limit") and i + 1 < len(args):
            value, i = args[i + 1], i + 1
            if not value.isdigit():
                return None, [], f"failed to parse number: '{value}'"
            limit = int(value)
        elif arg.startswith("-n") and arg[2:].isdigit():
            limit = int(arg[2:])
        elif arg[1:].isdigit() and arg.startswith("-"):
            limit = int(arg[1:])
        elif not arg.startswith("-"):
            rest.append(arg)
        i += 1
    return limit, rest, None


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
    limit, names, error = _count(argv[1:])
    if error:
        return CommandResult(stderr=f"{prog}: {error}\n", exit_code=1)
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
    host_last = "-a" in argv[1:]  # the remote host in the last column
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
    state = call.system
    head = uptime_line(state)
    active = sorted(
        (x for x in state.spec.logins if x.end is None and not x.failed), key=lambda x: x.start
    )
    lines = [
        head.rstrip("\n"),
        "USER     TTY      FROM             LOGIN@   IDLE   JCPU   PCPU WHAT",
    ]
    for x in active:
        lines.append(
            f"{x.user:<8} {x.tty:<8} {x.host or '-':<16} {parse_time(x.start):%H:%M}    "
            "0.00s  0.01s  0.00s -bash"
        )
    return CommandResult(stdout="\n".join(lines) + "\n", identity=("logins", "who"))
