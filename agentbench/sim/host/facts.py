"""Host facts from the declared `system:`: ss free uptime hostname id whoami uname date df du
(ps is host/ps.py, du files/du.py)."""

from __future__ import annotations

import math
import posixpath

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.core.options import BadOption, parse_options, usage_error, usage_text
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.system import SystemState
from agentbench.sim.core.units import human, parse_size, parse_time


@program("ss", needs=("system",))
def ss(call: Call) -> CommandResult:
    state, argv, ctx = call.system, call.argv, call.ctx
    opts, rest, error = parse_options(
        "ss", argv[1:], "ltunpaeH", ["listening", "tcp", "udp", "numeric", "processes"]
    )
    if error:
        return error
    flags = {o for o, _ in opts}
    procs = {p.pid: p for p in state.processes}
    sockets = state.sockets
    if flags & {"-u", "--udp"} and not flags & {"-t", "--tcp"}:
        sockets = [s for s in sockets if s.proto == "udp"]
    elif flags & {"-t", "--tcp"}:
        sockets = [s for s in sockets if s.proto == "tcp"]
    from agentbench.sim.host.ss_filter import FilterError, matches, parse_filter

    try:
        expression = parse_filter(rest)
    except FilterError as exc:
        raise NotSimulated(f"ss filter {exc}") from exc
    if expression is not None:
        sockets = [s for s in sockets if matches(expression, int(s.local.rsplit(":", 1)[1]))]
    show_proto = not (flags & {"-t", "--tcp"}) or bool(flags & {"-u", "--udp"})
    head = (
        "Netid " if show_proto else ""
    ) + "State  Recv-Q Send-Q Local Address:Port  Peer Address:Port Process"
    rows = [] if "-H" in flags else [head]
    for s in sockets:
        address, port = s.local.rsplit(":", 1)
        peer = "[::]:*" if address.startswith("[") else "0.0.0.0:*"
        state_word = "LISTEN" if s.proto == "tcp" else "UNCONN"
        row = f"{s.proto:<5} " if show_proto else ""
        row += f"{state_word:<6} {s.recv_q:<6} {s.send_q:<6} {address + ':' + port:>18} {peer:>18}"
        owner = procs.get(s.pid) if s.pid else None
        if (
            flags & {"-p", "--processes"}
            and s.pid
            and (ctx.user == "root" or (owner and owner.user == ctx.user))
        ):
            name = s.process or (owner.command.split()[0].rsplit("/", 1)[-1] if owner else "?")
            row += f' users:(("{name}",pid={s.pid},fd=6))'
        rows.append(row)
    return CommandResult(
        stdout="\n".join(rows) + "\n",
        identity=("ss", "listening" if flags & {"-l", "--listening"} else "all"),
    )


_FREE_UNITS = {"-b": 1, "--bytes": 1, "-k": 1024, "--kibi": 1024, "-m": 1024**2}
_FREE_UNITS |= {"--mebi": 1024**2, "-g": 1024**3, "--gibi": 1024**3}


@program("free", needs=("system",))
def free(call: Call) -> CommandResult:
    """procps-ng free in bytes, KiB (the default), MiB, GiB or --human; an option it rejects is
    answered with its whole usage text, which is not carried."""
    state = call.system
    opts, operands, error = parse_options(
        "free",
        call.argv[1:],
        "bkmgh",
        ["bytes", "kibi", "mebi", "gibi", "human"],
        uncarried="lLtvwVs:c:",
        uncarried_long=[*("tebi", "pebi", "kilo", "mega", "giga", "tera", "peta", "si", "lohi")],
        reject=usage_text,
    )
    if error or operands:
        return error or usage_text("free", BadOption("operand", operands[0]), 1)
    flags = [o for o, _ in opts]
    m = state.spec.memory
    values = [parse_size(v) for v in (m.total, m.used, m.free, m.shared, m.buff_cache)]
    available = parse_size(m.available) if m.available is not None else values[2] + values[4]
    swap = [parse_size(m.swap_total), parse_size(m.swap_used)]
    swap.append(swap[0] - swap[1])
    units = [o for o in flags if o in _FREE_UNITS or o in ("-h", "--human")]
    unit = units[-1] if units else "-k"  # the last unit given wins, as in procps

    def show(n: int) -> str:
        if unit in ("-h", "--human"):
            if n == 0:
                return "0B"
            text = human(n)
            return text if text[-1].isdigit() else text + "i"
        return str(n // _FREE_UNITS[unit])

    rows = [
        f"{'':15}{'total':>12}{'used':>12}{'free':>12}{'shared':>12}{'buff/cache':>12}{'available':>12}"
    ]
    rows.append("Mem:" + " " * 11 + "".join(f"{show(v):>12}" for v in [*values, available]))
    rows.append("Swap:" + " " * 10 + "".join(f"{show(v):>12}" for v in swap))
    return CommandResult(stdout="\n".join(rows) + "\n", identity=("free",))


def uptime_line(state: SystemState) -> str:
    """`uptime`'s line (also the first line of `top` and `w`)."""
    up = state.now - parse_time(state.spec.boot)
    hours, rest = divmod(up.seconds, 3600)
    clock = f"{hours}:{rest // 60:02}" if hours else f"{rest // 60} min"
    days = f"{up.days} day{'s' if up.days != 1 else ''}, " if up.days else ""
    load = ", ".join(f"{x:.2f}" for x in state.spec.load)
    text = (
        f" {state.now.strftime('%H:%M:%S')} up {days}{clock:>5},  1 user,  load average: {load}\n"
    )
    return text


@program("uptime", needs=("system",))
def uptime(call: Call) -> CommandResult:
    """procps-ng uptime; --pretty, --since and --version are not simulated."""
    _, operands, error = parse_options(
        "uptime",
        call.argv[1:],
        "",
        uncarried="psV",
        uncarried_long=["pretty", "since", "version"],
        reject=usage_text,
    )
    if error or operands:  # an operand: procps answers with its usage text
        return error or usage_text("uptime", BadOption("operand", operands[0]), 1)
    return CommandResult(stdout=uptime_line(call.system), identity=("uptime",))


@program("hostname", needs=("system",))
def hostname(call: Call) -> CommandResult:
    """The hostname (-s: up to its first dot); setting it (an operand, -F, -b) and the name
    service lookups (-f, -d, -i, ...) are not simulated."""
    state = call.system
    long = ["alias", "all-fqdns", "boot", "domain", "fqdn", "long", "file=", "ip-address"]
    long += ["all-ip-addresses", "yp", "nis", "version"]
    opts, operands, error = parse_options(
        "hostname",
        call.argv[1:],
        "s",
        ["short"],
        uncarried="aAbdfF:iIyV",
        uncarried_long=long,
        reject=usage_text,
    )
    if error:
        return error
    if operands:
        raise NotSimulated(f"hostname {operands[0]} (setting the host name)")
    name = state.spec.hostname.split(".")[0] if opts else state.spec.hostname
    return CommandResult(stdout=name + "\n", identity=("hostname",))


@program("whoami", needs=("system",))
def whoami(call: Call) -> CommandResult:
    _, _, error = parse_options("whoami", call.argv[1:], "")
    if error:
        return error
    return CommandResult(stdout=call.ctx.user + "\n", identity=("id",))


@program("id", needs=("system",))
def id_(call: Call) -> CommandResult:
    """coreutils id: the full line, or one of -u/-g/-G (names with -n; -r is the same id, as
    the simulated users run with their real ids); SELinux contexts are not simulated."""
    state, ctx = call.system, call.ctx
    opts, users, error = parse_options(
        "id",
        call.argv[1:],
        "agGnru",
        ["group", "groups", "name", "real", "user"],
        uncarried="Zz",
        uncarried_long=["context", "zero"],
    )
    if error:
        return error
    flags = {_ID_LONG.get(o, o) for o, _ in opts}
    only = flags & {"-u", "-g", "-G"}
    if len(only) > 1:
        return _id_error('cannot print "only" of more than one choice')
    if not only and flags & {"-n", "-r"}:
        return _id_error("cannot print only names or real IDs in default format")
    result = CommandResult(identity=("id",))
    for user in users or [ctx.user]:
        if user not in state.users:
            result.stderr += f"id: '{user}': no such user\n"
            result.exit_code = 1
            continue
        uid, groups = state.users[user]
        gids = {"root": 0, "adm": 4, "sudo": 27, "systemd-journal": 999}
        gid_of = {
            g: gids.get(g, state.users.get(g, (1000 + i, []))[0]) for i, g in enumerate(groups)
        }
        if only:
            ids = {"-u": [(uid, user)], "-g": [(gid_of[groups[0]], groups[0])]}
            chosen = ids.get(next(iter(only)), [(gid_of[g], g) for g in groups])
            shown = [name if "-n" in flags else str(number) for number, name in chosen]
            result.stdout += " ".join(shown) + "\n"
            continue
        listing = ",".join(f"{gid_of[g]}({g})" for g in groups)
        result.stdout += (
            f"uid={uid}({user}) gid={gid_of[groups[0]]}({groups[0]}) groups={listing}\n"
        )
    return result


_ID_LONG = {"--user": "-u", "--group": "-g", "--groups": "-G", "--name": "-n", "--real": "-r"}


def _id_error(problem: str) -> CommandResult:
    return usage_error("id", problem)


@program("uname", needs=("system",))
def uname(call: Call) -> CommandResult:
    state = call.system
    long = ["all", "kernel-name", "nodename", "kernel-release", "kernel-version", "machine"]
    long += ["processor", "hardware-platform", "operating-system"]
    opts, _, error = parse_options("uname", call.argv[1:], "asnrvmpio", long)
    if error:
        return error
    letters = {"kernel-name": "s", "kernel-release": "r", "kernel-version": "v"}
    letters |= {"hardware-platform": "i", "operating-system": "o"}
    flags = "".join(letters.get(o[2:], o[2:3]) if o.startswith("--") else o[1:] for o, _ in opts)
    flags = flags.replace("p", "m").replace("i", "m") or "s"  # processor, platform: x86_64
    version = "#48-Ubuntu SMP PREEMPT_DYNAMIC Fri Sep 27 14:04:52 UTC 2024"
    if "a" in flags:
        text = f"Linux {state.spec.hostname} {state.spec.kernel} {version} x86_64 x86_64 x86_64"
        text += " GNU/Linux"
    else:
        parts = {
            "s": "Linux",
            "n": state.spec.hostname,
            "r": state.spec.kernel,
            "v": version,
            "m": "x86_64",
            "o": "GNU/Linux",
        }
        text = " ".join(parts[f] for f in "snrvmo" if f in flags)
    return CommandResult(stdout=text + "\n", identity=("uname",))


@program("date", needs=("system",))
def date(call: Call) -> CommandResult:
    """coreutils date: now (the declared clock, in UTC, so -u changes nothing) in the default
    or a +FORMAT; other dates (-d, -r, -f), other formats (-I, -R) and setting it are not
    simulated."""
    state = call.system
    args = ["--iso-8601=" if a == "--iso-8601" else a for a in call.argv[1:]]  # optional value
    long = ["date=", "debug", "file=", "iso-8601=", "resolution", "rfc-email", "rfc-3339="]
    _, operands, error = parse_options(
        "date",
        args,
        "u",
        ["utc", "universal"],
        uncarried="d:f:IRr:s:",
        uncarried_long=[*long, "reference=", "set="],
    )
    if error:
        return error
    if len(operands) > 1:
        return usage_error("date", f"extra operand '{operands[1]}'")
    if operands and not operands[0].startswith("+"):
        raise NotSimulated(f"date {operands[0]} (setting the clock)")
    fmt = operands[0][1:] if operands else "%a %b %e %H:%M:%S UTC %Y"
    return CommandResult(
        stdout=state.now.strftime(fmt.replace("%N", "000000000")) + "\n", identity=("date",)
    )


def _mount_of(state: SystemState, path: str) -> int | None:
    best, length = None, -1
    for i, disk in enumerate(state.spec.disks):
        mount = disk.mount.rstrip("/") + "/"
        if (path.rstrip("/") + "/").startswith(mount) and len(mount) > length:
            best, length = i, len(mount)
    return best


@program("df", needs=("system",))
def df(call: Call) -> CommandResult:
    state, argv, ctx = call.system, call.argv, call.ctx
    opts, operands, error = parse_options(
        "df",
        argv[1:],
        "hiTPlkax:t:",
        ["human-readable", "inodes", "print-type", "all", "local", "exclude-type=", "type="],
    )
    if error:
        return error
    flags = {o for o, _ in opts}
    excluded = {t for o, v in opts if o in ("-x", "--exclude-type") for t in v.split(",")}
    only = {t for o, v in opts if o in ("-t", "--type") for t in v.split(",")}
    hum, inodes, typed = (
        flags & {"-h", "--human-readable"},
        flags & {"-i", "--inodes"},
        flags & {"-T", "--print-type"},
    )
    chosen = list(range(len(state.spec.disks)))
    result = CommandResult()
    if operands:
        chosen = []
        for operand in operands:
            path = posixpath.normpath(posixpath.join(ctx.cwd, operand))
            if state.fs is not None and path not in state.fs.nodes:
                result.stderr += f"df: {operand}: No such file or directory\n"
                result.exit_code = 1
                continue
            index = _mount_of(state, path)
            if index is not None and index not in chosen:
                chosen.append(index)
    disks = state.spec.disks
    chosen = [
        i for i in chosen if disks[i].type not in excluded and (not only or disks[i].type in only)
    ]
    if not chosen and not result.stderr:  # every file system filtered out
        result.stderr = "df: no file systems processed\n"
        result.exit_code = 1
        return result
    rows = []
    for index in chosen:
        d = state.spec.disks[index]
        if inodes:
            total, used = d.inodes, d.inodes_used
            cells = [
                human(total).replace(".0", "") if hum else str(total),
                str(used),
                str(total - used),
            ]
        else:
            total, used = parse_size(d.size), parse_size(d.used)
            cells = [human(v) if hum else str(v // 1024) for v in (total, used, total - used)]
        pct = f"{math.ceil(used * 100 / total)}%" if total else "-"
        rows.append([d.filesystem, *([d.type] if typed else []), *cells, pct, d.mount])
    head = [
        "Filesystem",
        *(["Type"] if typed else []),
        "Inodes" if inodes else ("Size" if hum else "1K-blocks"),
        "IUsed" if inodes else "Used",
        "IFree" if inodes else ("Avail" if hum else "Available"),
        "IUse%" if inodes else "Use%",
        "Mounted on",
    ]
    table = [head, *rows]
    widths = [max(len(r[c]) for r in table) for c in range(len(head) - 1)]
    lines = [
        " ".join(
            r[c].ljust(widths[c]) if c == 0 or (typed and c == 1) else r[c].rjust(widths[c])
            for c in range(len(head) - 1)
        )
        + " "
        + r[-1]
        for r in table
    ]
    result.stdout = "\n".join(lines) + "\n"
    result.identity = ("df", *sorted(state.spec.disks[i].mount for i in chosen))
    return result
