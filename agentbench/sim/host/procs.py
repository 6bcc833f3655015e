"""Processes of the declared host: pgrep pidof kill pkill top (ps is host/facts.py).

Reads resolve to ("process", "list", ...) and print what procps and bash print for the declared
`system.processes`. A signal that ends a process (TERM, KILL, INT, QUIT, HUP to a process without
a unit) removes it from the state, so ps, pgrep and `ss -p` no longer show it, and is reported as a
`Change` ("process", "kill", PID) for side-effect checks; a unit whose main process died is left
failed (SIGKILL) or inactive.
"""

from __future__ import annotations

import posixpath
import re

from agentbench.sim.core.base import Change, CommandResult, ShellContext
from agentbench.sim.core.options import parse_options, usage_error, usage_text
from agentbench.sim.core.regex import compile_regex
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.spec import ProcessSpec
from agentbench.sim.core.system import SystemState
from agentbench.sim.core.units import parse_size
from agentbench.sim.host.facts import uptime_line
from agentbench.sim.host.restart import main_process_died

SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "TERM": 15}
SIGNALS.update({"CONT": 18, "STOP": 19})
_FATAL = {1, 2, 3, 9, 15}


def comm(process: ProcessSpec) -> str:
    """The kernel's process name: the program's basename, at most 15 characters."""
    first = process.command.split()[0] if process.command.split() else ""
    return posixpath.basename(first).rstrip(":")[:15]


def signal_number(spec: str) -> int | None:
    """`9`, `KILL`, `SIGKILL`, `kill` -> 9; None for an unknown signal."""
    if spec.isdigit():
        return int(spec) if 0 <= int(spec) <= 64 else None
    name = spec.upper().removeprefix("SIG")
    return SIGNALS.get(name)


def send(state: SystemState, pid: int, signal: int, ctx: ShellContext) -> tuple[str, list[Change]]:
    """Signal one process: ('', changes) on success, else the kernel's error text. A signal
    that ends a unit's main process lets systemd apply the unit's Restart= (host/restart.py)."""
    process = next((p for p in state.processes if p.pid == pid), None)
    if process is None:
        return "No such process", []
    if ctx.user != "root" and process.user != ctx.user:
        return "Operation not permitted", []
    if signal == 0:
        return "", []
    name = next((n for n, v in SIGNALS.items() if v == signal), str(signal))
    changes = [Change("process", "kill", str(pid), f"SIG{name} {comm(process)}")]
    if signal in _FATAL:
        units = [u for u in state.units.values() if u.main_pid == pid and u.active == "active"]
        for unit in units:
            restarted = main_process_died(state, unit, process, signal, name)
            changes += [restarted] if restarted else []
        state.end_process(pid)
    return "", changes


@program("kill", needs=("system",))
def kill(call: Call) -> CommandResult:
    state, argv, ctx = call.system, call.argv, call.ctx
    args = argv[1:]
    signal = 15
    if args and args[0] == "-l":
        names = [f"{n:>2}) SIG{name}" for name, n in sorted(SIGNALS.items(), key=lambda kv: kv[1])]
        return CommandResult(stdout="\t".join(names) + "\n", identity=("process", "signals"))
    if args and args[0] in ("-s", "-n") and len(args) > 1:
        spec, args = args[1], args[2:]
        number = signal_number(spec)
        if number is None:
            return _kill_error(f"{spec}: invalid signal specification", 1)
        signal = number
    elif args and args[0].startswith("-") and args[0] != "--" and len(args[0]) > 1:
        number = signal_number(args[0][1:])
        if number is None:
            return _kill_error(f"{args[0][1:]}: invalid signal specification", 1)
        signal, args = number, args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        usage = (
            "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or "
            "kill -l [sigspec]\n"
        )
        return CommandResult(stderr=f"bash: {usage}", exit_code=2)
    result = CommandResult(identity=("process", "kill", str(signal), *args))
    for arg in args:
        if arg.startswith("%"):
            result.stderr += f"bash: kill: {arg}: no such job\n"
            result.exit_code = 1
            continue
        if not arg.isdigit():
            result.stderr += f"bash: kill: {arg}: arguments must be process or job IDs\n"
            result.exit_code = 1
            continue
        error, changes = send(state, int(arg), signal, ctx)
        if error:
            result.stderr += f"bash: kill: ({arg}) - {error}\n"
            result.exit_code = 1
        result.changes += changes
    return result


def _kill_error(text: str, code: int) -> CommandResult:
    return CommandResult(stderr=f"bash: kill: {text}\n", exit_code=code)


def _select(
    state: SystemState, prog: str, args: list[str]
) -> tuple[list[ProcessSpec], dict[str, str], CommandResult | None]:
    """The processes pgrep/pkill select: (matches, options, error)."""
    opts, rest, error = parse_options(
        prog,
        args,
        "alfxcnoiu:U:d:e",
        ["list-name", "list-full", "full", "exact", "count", "newest", "oldest", "signal="],
        code=2,
    )
    if error:
        return [], {}, error
    options = {o: v for o, v in opts}
    if len(rest) > 1:
        text = (
            f"{prog}: only one pattern can be provided\nTry `{prog} --help' for more information.\n"
        )
        return [], options, CommandResult(stderr=text, exit_code=2)
    users = options.get("-u") or options.get("-U")
    if not rest and users is None:
        text = (
            f"{prog}: no matching criteria specified\nTry `{prog} --help' for more information.\n"
        )
        return [], options, CommandResult(stderr=text, exit_code=2)
    known = set(state.users) | {p.user for p in state.processes}
    for user in (users or "").split(",") if users else []:
        if user not in known and not user.isdigit():
            text = f"{prog}: invalid user name: {user}\n"
            return [], options, CommandResult(stderr=text, exit_code=2)
    try:
        pattern = compile_regex(rest[0] if rest else "", re.IGNORECASE if "-i" in options else 0)
    except re.error:
        return [], options, CommandResult(stderr=f"{prog}: regex error\n", exit_code=2)
    full = bool({"-f", "--full"} & set(options))
    exact = bool({"-x", "--exact"} & set(options))
    chosen = []
    for process in sorted(state.processes, key=lambda p: p.pid):
        text = process.command if full else comm(process)
        found = pattern.fullmatch(text) if exact else pattern.search(text)
        if found and (users is None or process.user in users.split(",")):
            chosen.append(process)
    if chosen and {"-n", "--newest"} & set(options):
        chosen = chosen[-1:]
    elif chosen and {"-o", "--oldest"} & set(options):
        chosen = chosen[:1]
    return chosen, options, None


@program("pgrep", needs=("system",))
def pgrep(call: Call) -> CommandResult:
    state, argv = call.system, call.argv
    chosen, options, error = _select(state, "pgrep", argv[1:])
    if error:
        return error
    identity = ("process", "list", *[str(p.pid) for p in chosen])
    if {"-c", "--count"} & set(options):
        return CommandResult(
            stdout=f"{len(chosen)}\n", exit_code=int(not chosen), identity=identity
        )
    if {"-a", "--list-full"} & set(options):
        lines = [f"{p.pid} {p.command}" for p in chosen]
    elif {"-l", "--list-name"} & set(options):
        lines = [f"{p.pid} {comm(p)}" for p in chosen]
    else:
        lines = [str(p.pid) for p in chosen]
    delimiter = options.get("-d", "\n")
    stdout = delimiter.join(lines) + "\n" if lines else ""
    return CommandResult(stdout=stdout, exit_code=int(not chosen), identity=identity)


@program("pkill", needs=("system",))
def pkill(call: Call) -> CommandResult:
    state, argv, ctx = call.system, call.argv, call.ctx
    args = argv[1:]
    signal = 15
    if args and re.fullmatch(r"-(?:[0-9]+|(?:SIG)?[A-Z][A-Z0-9]*)", args[0]) and args[0] != "-U":
        number = signal_number(args[0][1:])
        if number is None:
            return usage_error("pkill", f'Unknown signal "{args[0][1:]}".', 2)
        signal, args = number, args[1:]
    chosen, options, error = _select(state, "pkill", args)
    if error:
        return error
    if "--signal" in options:
        number = signal_number(options["--signal"])
        if number is None:
            return usage_error("pkill", f'Unknown signal "{options["--signal"]}".', 2)
        signal = number
    result = CommandResult(identity=("process", "kill", str(signal), *[str(p.pid) for p in chosen]))
    sent = 0
    for process in chosen:
        problem, changes = send(state, process.pid, signal, ctx)
        if problem:
            result.stderr += f"pkill: killing pid {process.pid} failed: {problem}\n"
            continue
        sent += 1
        result.changes += changes
        if "-e" in options:
            result.stdout += f"{comm(process)} killed (pid {process.pid})\n"
    result.exit_code = 0 if sent else 1
    return result


@program("pidof", needs=("system",))
def pidof(call: Call) -> CommandResult:
    """procps-ng pidof NAME...: -s (one pid each), -q (the exit status alone), -S SEP; the
    others (-x scripts, -o omitted pids, -c, -w) are not simulated."""
    state = call.system
    opts, names, error = parse_options(
        "pidof",
        call.argv[1:],
        "qsS:",
        ["quiet", "single-shot", "separator="],
        uncarried="cwxo:V",
        uncarried_long=["check-root", "with-workers", "omit-pid=", "version"],
        reject=usage_text,
    )
    if error:
        return error
    flags = {_PIDOF_LONG.get(o, o): v for o, v in opts}
    single = "-s" in flags
    pids: list[int] = []
    for name in names:
        found = sorted(
            (p.pid for p in state.processes if comm(p) == name or _program(p) == name), reverse=True
        )
        pids += found[:1] if single else found
    identity = ("process", "list", *map(str, pids))
    if not pids:
        return CommandResult(exit_code=1, identity=identity)
    if "-q" in flags:
        return CommandResult(identity=identity)
    return CommandResult(stdout=flags.get("-S", " ").join(map(str, pids)) + "\n", identity=identity)


_PIDOF_LONG = {"--quiet": "-q", "--single-shot": "-s", "--separator": "-S"}


def _program(process: ProcessSpec) -> str:
    words = process.command.split()
    return posixpath.basename(words[0]) if words else ""


@program("top", needs=("system",))
def top(call: Call) -> CommandResult:
    state, argv = call.system, call.argv
    if "-b" not in argv[1:] and not any(a.startswith("-b") for a in argv[1:]):
        text = "top: failed tty get\n"  # no terminal behind a tool call
        return CommandResult(stderr=text, exit_code=1, identity=("process", "top"))
    procs = sorted(state.processes, key=lambda p: (-p.cpu, p.pid))
    stats = [p.stat[:1] for p in procs]
    running, stopped, zombie = stats.count("R"), stats.count("T"), stats.count("Z")
    busy = min(100.0, sum(p.cpu for p in procs) / max(1, len(procs) or 1))
    m = state.spec.memory
    mib = {k: parse_size(getattr(m, k)) / 1024**2 for k in ("total", "used", "free", "buff_cache")}
    avail = (
        parse_size(m.available) / 1024**2
        if m.available is not None
        else mib["free"] + mib["buff_cache"]
    )
    swap_total, swap_used = parse_size(m.swap_total) / 1024**2, parse_size(m.swap_used) / 1024**2
    head = uptime_line(state)
    lines = [
        "top -" + head.rstrip("\n"),
        f"Tasks: {len(procs):>3} total, {running:>3} running, "
        f"{len(procs) - running - stopped - zombie:>3} sleeping, {stopped:>3} stopped, "
        f"{zombie:>3} zombie",
        f"%Cpu(s): {busy:4.1f} us,  0.0 sy,  0.0 ni, {100 - busy:4.1f} id,  0.0 wa,  0.0 hi,"
        "  0.0 si,  0.0 st",
        f"MiB Mem : {mib['total']:8.1f} total, {mib['free']:8.1f} free, {mib['used']:8.1f} used,"
        f" {mib['buff_cache']:8.1f} buff/cache",
        f"MiB Swap: {swap_total:8.1f} total, {swap_total - swap_used:8.1f} free, "
        f"{swap_used:8.1f} used. {avail:8.1f} avail Mem",
        "",
        "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND",
    ]
    for p in procs:
        user = p.user if len(p.user) <= 8 else p.user[:7] + "+"
        lines.append(
            f"{p.pid:>7} {user:<8}  20   0 {p.vsz:>7} {p.rss:>6} {p.rss // 8:>6} "
            f"{p.stat[:1]} {p.cpu:>5.1f} {p.mem:>5.1f} {p.time + '.00':>9} {comm(p)}"
        )
    return CommandResult(stdout="\n".join(lines) + "\n", identity=("process", "top"))
