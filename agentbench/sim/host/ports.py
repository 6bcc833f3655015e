"""Who holds a port: `lsof -i` and `fuser PORT/tcp` over the declared sockets and processes.

As on a real host, a user other than root sees only their own processes' sockets (lsof prints
nothing and exits 1). `fuser -k` sends SIGKILL through the same path as `kill` (procs.py), so it
is a recorded change. Reads resolve to ("ports", PORT) — the same read as `ss ... sport = :PORT`
is a different program's, but both name the port asked about.
"""

from __future__ import annotations

import zlib

from agentbench.sim.core.base import CommandResult, NotSimulated, ShellContext
from agentbench.sim.core.options import parse_options, usage_text
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.spec import ProcessSpec, SocketSpec
from agentbench.sim.core.system import SystemState
from agentbench.sim.host.netinfo import SERVICES
from agentbench.sim.host.procs import comm, send


def _visible(
    state: SystemState, ctx: ShellContext, port: str | None, proto: str | None
) -> list[tuple[SocketSpec, ProcessSpec]]:
    procs = {p.pid: p for p in state.processes}
    found = []
    for sock in state.sockets:
        owner = procs.get(sock.pid) if sock.pid is not None else None
        if owner is None or (ctx.user != "root" and owner.user != ctx.user):
            continue
        if port is not None and sock.local.rsplit(":", 1)[-1] != port:
            continue
        if proto is not None and sock.proto != proto:
            continue
        found.append((sock, owner))
    return found


def _selector(value: str) -> tuple[str | None, str | None]:
    """`-i` argument -> (port, proto): `:8080`, `tcp:8080`, `TCP:http-alt`, `4tcp`, ``."""
    proto = None
    text = value.lstrip("46")
    if text.lower().startswith(("tcp", "udp")):
        proto, text = text[:3].lower(), text[3:]
    port = text.split(":")[-1] if ":" in text else None
    if port and not port.isdigit():
        port = next((str(n) for n, name in SERVICES.items() if name == port), port)
    return port, proto


@program("lsof", needs=("system",))
def lsof(call: Call) -> CommandResult:
    state, argv, ctx = call.system, call.argv, call.ctx
    args = argv[1:]
    selector = None
    for i, arg in enumerate(args):
        if arg == "-i":
            selector = args[i + 1] if i + 1 < len(args) and not args[i + 1].startswith("-") else ""
        elif arg.startswith("-i"):
            selector = arg[2:]
    if selector is None:
        raise NotSimulated("lsof without -i (only network files are simulated)")
    port, proto = _selector(selector)
    numeric = "-P" in args or any(a.startswith("-") and "P" in a[1:] for a in args)
    rows = [["COMMAND", "PID", "USER", "FD", "TYPE", "DEVICE", "SIZE/OFF", "NODE", "NAME"]]
    for sock, owner in _visible(state, ctx, port, proto):
        address, number = sock.local.rsplit(":", 1)
        host = "*" if address in ("0.0.0.0", "[::]", "*") else address
        service = number if numeric else SERVICES.get(int(number), number)
        state_text = " (LISTEN)" if sock.proto == "tcp" else ""
        kind = "IPv6" if address.startswith("[") or address == "*" else "IPv4"
        device = str(zlib.crc32(f"{owner.pid}{sock.local}".encode()) % 90000 + 10000)
        rows.append(
            [
                comm(owner)[:9],
                str(owner.pid),
                owner.user[:8],
                "6u",
                kind,
                device,
                "0t0",
                sock.proto.upper(),
                f"{host}:{service}{state_text}",
            ]
        )
    identity = ("ports", port or "*")
    if len(rows) == 1:
        return CommandResult(exit_code=1, identity=identity)
    widths = [max(len(r[i]) for r in rows) for i in range(8)]
    right = {1, 5, 6}
    lines = [
        " ".join(r[i].rjust(widths[i]) if i in right else r[i].ljust(widths[i]) for i in range(8))
        + " "
        + r[8]
        for r in rows
    ]
    return CommandResult(stdout="\n".join(lines) + "\n", identity=identity)


_FUSER_OTHER = ["all", "interactive", "inode", "list-signals", "mount", "ismountpoint"]
_FUSER_OTHER += ["silent", "user", "verbose", "writeonly", "version", "ipv4", "ipv6"]


@program("fuser", needs=("system",))
def fuser(call: Call) -> CommandResult:
    """psmisc fuser over ports (`8080/tcp`, `-n tcp 8080`), -k to kill their holders; files,
    mounts and its other options (-v, -u, -SIGNAL, ...) are not simulated."""
    state, ctx = call.system, call.ctx
    opts, names, error = parse_options(
        "fuser",
        call.argv[1:],
        "kn:",
        ["kill", "namespace="],
        uncarried="acfiIlmMsuvwV46",
        uncarried_long=_FUSER_OTHER,
        reject=usage_text,  # -SIGNAL too: psmisc's own grammar
    )
    if error:
        return error
    flags = "".join("k" if o in ("-k", "--kill") else "" for o, _ in opts)
    space = next((v for o, v in opts if o in ("-n", "--namespace")), None)
    if space is not None:  # fuser -n tcp 8080
        names = [f"{n}/{space}" for n in names]
    if not names:
        return CommandResult(stderr="No process specification given\n", exit_code=1)
    result = CommandResult(identity=("ports", *[n.split("/")[0] for n in names]))
    found_any = False
    for name in names:
        port, _, proto = name.partition("/")
        if not port.isdigit() or proto not in ("tcp", "udp"):
            raise NotSimulated(f"fuser {name} (only ports, PORT/tcp, are simulated)")
        holders = sorted({owner.pid for _, owner in _visible(state, ctx, port, proto)})
        if not holders:
            continue
        found_any = True
        # fuser writes the name to stderr and the pids to stdout; a terminal shows one line
        result.stdout += f"{name + ':':<21}" + "".join(f" {pid}" for pid in holders) + "\n"
        if "k" in flags:
            for pid in holders:
                result.changes += send(state, pid, 9, ctx)[1]
    result.exit_code = 0 if found_any else 1
    return result
