"""`systemctl` over the declared units (journalctl is host/journal.py).

Reads resolve to ("systemd", "status", UNIT); start/stop/restart/reload change the unit (as root;
otherwise polkit refuses as on a headless host) and report a `Change`.
"""

from __future__ import annotations

from agentbench.sim.core.base import Change, CommandResult, NotSimulated, ShellContext
from agentbench.sim.core.options import getopt_line, parse_options
from agentbench.sim.core.registry import Call, program
from agentbench.sim.core.spec import JournalEntry, UnitSpec
from agentbench.sim.core.system import SystemState


def _status(state: SystemState, unit: UnitSpec) -> str:
    from agentbench.sim.host.systemd_status import status_text

    return status_text(state, unit)


@program("systemctl", needs=("system",))
def systemctl(call: Call) -> CommandResult:
    state, ctx = call.system, call.ctx
    from agentbench.sim.host.systemd_status import list_units

    parsed = _options(call.argv[1:])
    if isinstance(parsed, CommandResult):
        return parsed
    flags, words = parsed
    verb = words[0] if words else "list-units"
    names = words[1:]
    if verb == "show":
        from agentbench.sim.host.systemd_show import show

        return show(
            state,
            [*names, *(f for f in flags if f.startswith("--property="))]
            + (["--value"] if "--value" in flags else []),
        )
    if verb in ("list-units", "list-unit-files") or "--failed" in flags:
        return list_units(state, flags, verb)
    if verb in ("status", "is-active", "is-enabled", "is-failed", "cat"):
        return _read(state, verb, names, flags)
    if verb in (
        "start",
        "stop",
        "restart",
        "reload",
        "try-restart",
        "reload-or-restart",
        "enable",
        "disable",
        "daemon-reload",
        "kill",
        "mask",
    ):
        result = _write(state, verb, names, ctx)
        follow = {"enable": "start", "disable": "stop", "mask": "stop"}.get(verb)
        if "--now" in flags and follow and result.exit_code == 0:  # enable --now starts, ...
            then = _write(state, follow, names, ctx)
            result.stderr += then.stderr
            result.exit_code = then.exit_code
            result.changes += then.changes
        return result
    return CommandResult(stderr=f"Unknown command verb '{verb}'.\n", exit_code=1)


# the options systemctl carries, by the name they are read under; the rest of systemctl's
# options are not simulated, and one it does not have is getopt's line, exit 1
_SHORT = {"-l": "--full", "-q": "--quiet", "-t": "--type", "-p": "--property", "-P": "-P"}
_CARRIED = ["full", "no-pager", "no-legend", "quiet", "failed", "now", "type=", "state="]
_CARRIED += ["property=", "value"]
_OTHER = ["all", "recursive", "reverse", "after", "before", "with-dependencies", "job-mode="]
_OTHER += ["show-types", "check-inhibitors=", "ignore-inhibitors", "kill-whom=", "kill-value="]
_OTHER += ["signal=", "what=", "user", "system", "global", "runtime", "force", "preset-mode="]
_OTHER += ["root=", "image=", "lines=", "output=", "firmware-setup", "boot-loader-menu="]
_OTHER += ["boot-loader-entry=", "reboot-argument=", "timestamp=", "read-only", "mkdir"]
_OTHER += ["marked", "host=", "machine=", "no-block", "no-wall", "no-reload", "no-warn"]
_OTHER += ["no-ask-password", "legend=", "wait", "dry-run", "message=", "drop-in=", "when="]
_OTHER += ["stdin", "show-transaction", "version", "image-policy=", "capsule=", "plain"]


def _options(args: list[str]) -> tuple[list[str], list[str]] | CommandResult:
    """(the carried options as `--long[=VALUE]`, the verb and its operands), or the rejection;
    `--state` other than failed and every option not carried raise NotSimulated."""
    opts, words, error = parse_options(
        "systemctl",
        args,
        "lqt:p:P:",
        _CARRIED,
        uncarried="ahrsfn:o:H:M:iT",
        uncarried_long=_OTHER,
        reject=getopt_line,
    )
    if error:
        return error
    flags: list[str] = []
    for name, value in opts:
        if name == "-P":
            flags += [f"--property={value}", "--value"]
            continue
        name = _SHORT.get(name, name)
        if name == "--state" and value != "failed":
            raise NotSimulated(f"systemctl --state={value}")
        flags.append(f"{name}={value}" if name in ("--type", "--state", "--property") else name)
    return flags, words


def _read(state: SystemState, verb: str, names: list[str], flags: list[str]) -> CommandResult:
    if verb == "status":  # `systemctl status PID`: the unit that process belongs to
        owners = {str(u.main_pid): u.name for u in state.units.values() if u.main_pid}
        names = [owners.get(n, n) for n in names]
    result = CommandResult(
        identity=("systemd", "status" if verb != "cat" else "cat", *map(state.unit_name, names))
    )
    if not names and verb == "status":
        return CommandResult(
            stdout=f"● {state.spec.hostname}\n    State: running\n", identity=("systemd", "status")
        )
    for name in names:
        unit = state.unit(name)
        full = state.unit_name(name)
        if unit is None:
            text = {
                "status": f"Unit {full} could not be found.\n",
                "cat": f"No files found for {full}.\n",
            }
            if verb in ("is-active", "is-failed"):
                result.stdout += "inactive\n"
            elif verb == "is-enabled":
                result.stderr += (
                    f"Failed to get unit file state for {full}: No such file or directory\n"
                )
            else:
                result.stderr += text.get(verb, f"Unit {full} could not be found.\n")
            result.exit_code = 4 if verb == "status" else 1
            continue
        if verb == "status":
            result.stdout += ("\n" if result.stdout else "") + _status(state, unit)
            if unit.active != "active":
                result.exit_code = result.exit_code or 3
        elif verb == "is-active":
            result.stdout += unit.active + "\n"
            result.exit_code = result.exit_code or (0 if unit.active == "active" else 3)
        elif verb == "is-failed":
            result.stdout += unit.active + "\n"
            result.exit_code = result.exit_code or (0 if unit.active == "failed" else 1)
        elif verb == "is-enabled":
            result.stdout += unit.enabled + "\n"
        elif verb == "cat":
            path = unit.path or f"/etc/systemd/system/{unit.name}"
            node = state.fs.nodes.get(path) if state.fs else None
            if node is None:
                result.stderr += f"No files found for {unit.name}.\n"
                result.exit_code = 1
                continue
            result.stdout += f"# {path}\n{node.content}"
    if "--quiet" in flags and verb.startswith("is-"):  # -q: the exit status alone
        result.stdout = ""
    return result


def _write(state: SystemState, verb: str, names: list[str], ctx: ShellContext) -> CommandResult:
    if verb == "daemon-reload":
        names = []
    elif not names:
        return CommandResult(stderr="Too few arguments.\n", exit_code=1)
    if ctx.user != "root":
        action = {"start": "start", "stop": "stop", "restart": "restart", "reload": "reload"}.get(
            verb, verb
        )
        target = state.unit_name(names[0]) if names else ""
        text = (
            f"Failed to {action} {target}: Interactive authentication required.\n"
            f"See system logs and 'systemctl status {target}' for details.\n"
        )
        if verb == "daemon-reload":
            text = "Failed to reload daemon: Interactive authentication required.\n"
        return CommandResult(
            stderr=text,
            exit_code=1,
            identity=("systemd", verb, *map(state.unit_name, names), "!denied"),
        )
    result = CommandResult(identity=("systemd", verb, *map(state.unit_name, names)))
    for name in names:
        unit = state.unit(name)
        full = state.unit_name(name)
        if unit is None:
            result.stderr += f"Failed to {verb} {full}: Unit {full} not found.\n"
            result.exit_code = 5
            continue
        result.changes.append(Change("systemd", verb, unit.name))
        stamp = state.spec.now
        starting = verb in ("start", "restart", "try-restart", "reload-or-restart")
        if starting and unit.listen and unit.active == "active":
            state.end_process(unit.main_pid)  # a restart: the old main process exits first
        holder = state.port_holder(unit.listen) if starting and unit.listen else None
        if holder is not None and unit.active != "active":
            pid = _failed_start(state, unit)
            state.units[unit.name] = unit.model_copy(
                update={
                    "active": "failed",
                    "sub": "failed",
                    "since": stamp,
                    "result": "exit-code",
                    "main_pid": pid,
                    "status": "1/FAILURE",
                }
            )
            result.stderr += (
                f"Job for {unit.name} failed because the control process exited with error "
                f'code.\nSee "systemctl status {unit.name}" and "journalctl -xeu {unit.name}" '
                "for details.\n"
            )
            result.exit_code = 1
        elif (
            verb in ("start", "restart", "reload", "try-restart", "reload-or-restart")
            and unit.restart_fails
        ):
            state.log(unit.name, unit.restart_fails, priority=3)
            state.units[unit.name] = unit.model_copy(
                update={"active": "failed", "sub": "failed", "since": stamp, "result": "exit-code"}
            )
            kind = "control process exited with error code"
            result.stderr += (
                f"Job for {unit.name} failed because the {kind}.\n"
                f'See "systemctl status {unit.name}" and "journalctl -xeu {unit.name}" '
                "for details.\n"
            )
            result.exit_code = 1
        elif verb in ("start", "restart", "reload", "try-restart", "reload-or-restart"):
            if verb != "reload":
                update: dict[str, object] = {
                    "active": "active",
                    "sub": "running",
                    "since": stamp,
                    "result": None,
                    "status": None,
                }
                if unit.listen and (unit.active != "active" or starting):
                    update["main_pid"] = state.spawn(unit)
                state.units[unit.name] = unit.model_copy(update=update)
            state.log(
                unit.name,
                f"{'Reloaded' if verb == 'reload' else 'Started'} {unit.name} - "
                f"{unit.description}.",
            )
        elif verb in ("stop", "kill"):
            state.units[unit.name] = unit.model_copy(
                update={"active": "inactive", "sub": "dead", "since": stamp}
            )
            state.log(unit.name, f"Stopped {unit.name} - {unit.description}.")
            state.end_process(unit.main_pid)
        elif verb in ("enable", "disable", "mask"):
            state.units[unit.name] = unit.model_copy(
                update={"enabled": {"enable": "enabled", "disable": "disabled"}.get(verb, "masked")}
            )
    return result


def _failed_start(state: SystemState, unit: UnitSpec) -> int:
    """Journal a start whose process exits at once because its port is taken; its pid."""
    pid = state.next_pid()
    program = (unit.exec_start or unit.name).split()[0].rsplit("/", 1)[-1]
    lines = [
        ("systemd", 1, f"Started {unit.name} - {unit.description}.", 6),
        (program, pid, f"Error: listen EADDRINUSE: address already in use {unit.listen}", 3),
        ("systemd", 1, f"{unit.name}: Main process exited, code=exited, status=1/FAILURE", 6),
        ("systemd", 1, f"{unit.name}: Failed with result 'exit-code'.", 4),
    ]
    for ident, who, message, priority in lines:
        state.journal.append(
            JournalEntry(
                time=state.spec.now,
                message=message,
                unit=unit.name,
                ident=ident,
                pid=who,
                priority=priority,
            )
        )
    return pid
