"""`docker ps`, `docker logs`, `docker inspect` over the declared `system.docker` containers.

Without a declared daemon every docker command answers as the CLI does when the socket is
absent. Reads resolve to ("docker", "ps"|"logs"|"inspect", NAME). Verbs that change containers
(stop, restart, rm, exec, ...) are not simulated: they are answered off-script, so a task's rules
or the fallback answer them and the run table counts them.
"""

from __future__ import annotations

import json

from agentbench.sim.core.base import CommandResult, NotSimulated, ShellContext
from agentbench.sim.core.spec_services import ContainerSpec
from agentbench.sim.core.system import Command, SystemState
from agentbench.sim.core.units import parse_time

NO_DAEMON = (
    "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. "
    "Is the docker daemon running?\n"
)
_READS = ("ps", "logs", "inspect", "container")
_VERBS = frozenset(
    [
        "attach",
        "build",
        "commit",
        "cp",
        "create",
        "diff",
        "events",
        "exec",
        "export",
        "history",
        "image",
        "images",
        "import",
        "info",
        "kill",
        "load",
        "login",
        "logout",
        "network",
        "pause",
        "port",
        "pull",
        "push",
        "rename",
        "restart",
        "rm",
        "rmi",
        "run",
        "save",
        "search",
        "start",
        "stats",
        "stop",
        "system",
        "tag",
        "top",
        "unpause",
        "update",
        "version",
        "volume",
        "wait",
        "compose",
    ]
)


def human_duration(seconds: float) -> str:
    """Docker's HumanDuration: `About a minute`, `5 minutes`, `2 hours`, `3 days`, `2 weeks`."""
    s = int(seconds)
    if s < 1:
        return "Less than a second"
    if s == 1:
        return "1 second"
    if s < 60:
        return f"{s} seconds"
    minutes = s // 60
    if minutes == 1:
        return "About a minute"
    if minutes < 60:
        return f"{minutes} minutes"
    hours = round(s / 3600)
    if hours == 1:
        return "About an hour"
    if hours < 48:
        return f"{hours} hours"
    if hours < 24 * 7 * 2:
        return f"{hours // 24} days"
    if hours < 24 * 30 * 2:
        return f"{hours // 24 // 7} weeks"
    if hours < 24 * 365 * 2:
        return f"{hours // 24 // 30} months"
    return f"{hours // 24 // 365} years"


def _ago(state: SystemState, stamp: str) -> str:
    return human_duration((state.now - parse_time(stamp)).total_seconds())


def _status(state: SystemState, c: ContainerSpec) -> str:
    since = c.started or c.created
    if c.state == "running":
        return f"Up {_ago(state, since)}" + (f" ({c.health})" if c.health else "")
    if c.state == "paused":
        return f"Up {_ago(state, since)} (Paused)"
    if c.state == "restarting":
        return f"Restarting ({c.exit_code}) {_ago(state, since)} ago"
    if c.state == "created":
        return "Created"
    return f"Exited ({c.exit_code}) {_ago(state, c.finished or since)} ago"


def _find(state: SystemState, name: str) -> ContainerSpec | None:
    containers = state.spec.docker.containers if state.spec.docker else []
    return next((c for c in containers if name in (c.name, c.id) or c.id.startswith(name)), None)


def _ps(state: SystemState, args: list[str]) -> CommandResult:
    assert state.spec.docker is not None
    letters = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    args = [*args, *(f"-{c}" for c in letters)]
    shown = [
        c
        for c in state.spec.docker.containers
        if "-a" in args or "--all" in args or c.state in ("running", "paused", "restarting")
    ]
    shown.sort(key=lambda c: c.created, reverse=True)
    if "-q" in args or "--quiet" in args:
        return CommandResult(
            stdout="".join(c.id[:12] + "\n" for c in shown), identity=("docker", "ps")
        )
    rows = [["CONTAINER ID", "IMAGE", "COMMAND", "CREATED", "STATUS", "PORTS", "NAMES"]]
    for c in shown:
        command = c.command if len(c.command) <= 20 else c.command[:19] + "…"
        rows.append(
            [
                c.id[:12],
                c.image,
                f'"{command}"',
                f"{_ago(state, c.created)} ago",
                _status(state, c),
                ", ".join(c.ports),
                c.name,
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    lines = ["".join(r[i].ljust(widths[i] + 3) for i in range(6)) + r[6] for r in rows]
    return CommandResult(stdout="\n".join(lines) + "\n", identity=("docker", "ps"))


def _logs(state: SystemState, args: list[str]) -> CommandResult:
    tail, names, i = None, [], 0
    while i < len(args):
        if args[i] in ("--tail", "-n") and i + 1 < len(args):
            tail, i = args[i + 1], i + 1
        elif args[i].startswith("--tail="):
            tail = args[i].split("=", 1)[1]
        elif not args[i].startswith("-"):
            names.append(args[i])
        i += 1
    if len(names) != 1:
        text = "\"docker logs\" requires exactly 1 argument.\nSee 'docker logs --help'.\n\n"
        text += "Usage:  docker logs [OPTIONS] CONTAINER\n\nFetch the logs of a container\n"
        return CommandResult(stderr=text, exit_code=1)
    container = _find(state, names[0])
    identity = ("docker", "logs", names[0])
    if container is None:
        text = f"Error response from daemon: No such container: {names[0]}\n"
        return CommandResult(stderr=text, exit_code=1, identity=(*identity, "!missing"))
    lines = container.logs.splitlines()
    if tail not in (None, "all"):
        if not str(tail).isdigit():
            return CommandResult(stderr=f'invalid value "{tail}" for flag --tail\n', exit_code=1)
        lines = lines[-int(str(tail)) :] if int(str(tail)) else []
    return CommandResult(
        stdout="".join(x + "\n" for x in lines), identity=(*identity[:2], container.name)
    )


def _inspect(state: SystemState, names: list[str]) -> CommandResult:
    found, errors = [], ""
    for name in names:
        c = _find(state, name)
        if c is None:
            errors += f"Error: No such object: {name}\n"
            continue
        stamp = (c.started or c.created).replace("+00:00", "Z")
        words = c.command.split()
        found.append(
            {
                "Id": (c.id * 6)[:64],
                "Created": c.created,
                "Path": words[0] if words else "",
                "Args": words[1:],
                "State": {
                    "Status": c.state,
                    "Running": c.state in ("running", "paused"),
                    "Paused": c.state == "paused",
                    "Restarting": c.state == "restarting",
                    "OOMKilled": c.oom_killed,
                    "Dead": False,
                    "ExitCode": c.exit_code,
                    "StartedAt": stamp,
                    "FinishedAt": c.finished or "0001-01-01T00:00:00Z",
                    **({"Health": {"Status": c.health}} if c.health else {}),
                },
                "Name": f"/{c.name}",
                "RestartCount": c.restart_count,
                "Config": {"Image": c.image, "Env": c.env, "Cmd": words},
                "NetworkSettings": {"Ports": c.ports},
            }
        )
    code = 1 if errors else 0
    return CommandResult(
        stdout=json.dumps(found, indent=4) + "\n",
        stderr=errors,
        exit_code=code,
        identity=("docker", "inspect", *names),
    )


def docker(
    state: SystemState, argv: list[str], stdin: str | None, ctx: ShellContext
) -> CommandResult:
    args = argv[1:]
    verb = args[0] if args else ""
    if verb == "container" and len(args) > 1:
        verb, args = {"ls": "ps", "list": "ps"}.get(args[1], args[1]), args[1:]
    if verb not in _READS and verb not in _VERBS:
        text = f"docker: '{verb}' is not a docker command.\nSee 'docker --help'\n"
        return CommandResult(stderr=text, exit_code=1, identity=("docker", "invalid", verb))
    if state.spec.docker is None:
        return CommandResult(stderr=NO_DAEMON, exit_code=1, identity=("docker", verb, "!no-daemon"))
    if verb == "ps":
        return _ps(state, args[1:])
    if verb == "logs":
        return _logs(state, args[1:])
    if verb == "inspect":
        return _inspect(state, [a for a in args[1:] if not a.startswith("-")])
    raise NotSimulated(f"docker {verb}")


DOCKER_COMMANDS: dict[str, Command] = {"docker": docker}
