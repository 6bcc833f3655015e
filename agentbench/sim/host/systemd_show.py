"""`systemctl show UNIT`: the unit's properties as KEY=VALUE lines, in systemd's order (the
service interface's, then the unit's), narrowed by `-p/--property` (repeatable, or
comma-separated) and printed bare with `--value` (`-P NAME` is both). A property the
simulator does not model is left out, as systemd leaves out a name it does not know."""

from __future__ import annotations

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.core.spec import UnitSpec
from agentbench.sim.core.system import SystemState
from agentbench.sim.core.units import parse_time

_SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "ABRT": 6, "KILL": 9, "SEGV": 11, "PIPE": 13, "TERM": 15}
_RUNNING = ("active", "reloading", "activating")


def show_args(args: list[str]) -> tuple[list[str], list[str], bool] | str:
    """(unit names, wanted properties, --value) from `show`'s arguments, or an error line."""
    names: list[str] = []
    wanted: list[str] = []
    value = False
    rest = iter(args)
    for arg in rest:
        if arg in ("-p", "--property", "-P"):
            given = next(rest, None)
            if given is None:
                return f"systemctl: option '{arg}' requires an argument\n"
            wanted += given.split(",")
            value = value or arg == "-P"
        elif arg.startswith("--property="):
            wanted += arg.split("=", 1)[1].split(",")
        elif arg.startswith(("-p", "-P")) and len(arg) > 2:
            wanted += arg[2:].split(",")
            value = value or arg.startswith("-P")
        elif arg == "--value":
            value = True
        elif arg in ("--all", "-a"):
            continue
        elif arg.startswith("-"):
            return f"systemctl: unrecognized option '{arg}'\n"
        else:
            names.append(arg)
    return names, [w for w in wanted if w], value


def _exit(unit: UnitSpec) -> tuple[str, str]:
    """ExecMainCode (1 exited, 2 killed; 0 never ended) and ExecMainStatus of `status`."""
    if not unit.status:
        return "0", "0"
    number, _, name = unit.status.partition("/")
    if name in _SIGNALS:
        return "2", str(_SIGNALS[name])
    return "1", number if number.isdigit() else "0"


def properties(state: SystemState, unit: UnitSpec) -> dict[str, str]:
    code, status = _exit(unit)
    running = unit.active in _RUNNING
    props = {
        "MainPID": str(unit.main_pid or 0) if running else "0",
        "Result": unit.result or "success",
        "ExecMainPID": str(unit.main_pid or 0),
        "ExecMainCode": code,
        "ExecMainStatus": status,
        "Id": unit.name,
        "Names": unit.name,
        "Description": unit.description,
        "LoadState": unit.load,
        "ActiveState": unit.active,
        "SubState": unit.sub or ("running" if running else "dead"),
        "FragmentPath": unit.path or f"/etc/systemd/system/{unit.name}",
        "UnitFileState": unit.enabled,
    }
    if unit.since:
        props["StateChangeTimestamp"] = parse_time(unit.since).strftime("%a %Y-%m-%d %H:%M:%S UTC")
    if unit.triggered_by:
        props["TriggeredBy"] = unit.triggered_by
    return props


def show(state: SystemState, args: list[str]) -> CommandResult:
    parsed = show_args(args)
    if isinstance(parsed, str):
        return CommandResult(stderr=parsed, exit_code=1)
    names, wanted, bare = parsed
    if not names:
        raise NotSimulated("systemctl show of the manager")
    result = CommandResult(identity=("systemd", "status", *map(state.unit_name, names)))
    blocks = []
    for name in names:
        unit = state.unit(name)
        if unit is None:  # systemd shows a not-found unit's few properties
            props = {
                "Id": state.unit_name(name),
                "LoadState": "not-found",
                "ActiveState": "inactive",
            }
        else:
            props = properties(state, unit)
        keys = [k for k in props if not wanted or k in wanted]
        blocks.append("".join((props[k] if bare else f"{k}={props[k]}") + "\n" for k in keys))
    result.stdout = "\n".join(blocks)
    return result
