"""systemd's `Restart=` when a unit's main process dies of a signal (`kill`, `pkill`,
`fuser -k`): the unit is restarted at once with a new main PID that binds the old process's
sockets again, or is left failed (an unclean signal) or inactive (a clean one).

Which deaths restart a unit follows systemd.service(5): SIGHUP, SIGINT, SIGTERM and SIGPIPE are
clean signals, any other (SIGKILL, SIGQUIT, ...) is unclean. `always` restarts after both,
`on-success` after a clean one, `on-failure`, `on-abnormal` and `on-abort` after an unclean
one; `no` (the default) never. The policy is the unit's `restart`, else the `Restart=` line of
its unit file on the declared filesystem. The restart is recorded as a change
("systemd", "auto-restart", UNIT) so the episode shows the service came back.
"""

from __future__ import annotations

import re

from agentbench.sim.core.base import Change
from agentbench.sim.core.spec import ProcessSpec, SocketSpec, UnitSpec
from agentbench.sim.core.system import SystemState

CLEAN_SIGNALS = frozenset({1, 2, 13, 15})  # HUP INT PIPE TERM
_RESTARTS_AFTER_CLEAN = frozenset({"always", "on-success"})
_RESTARTS_AFTER_UNCLEAN = frozenset({"always", "on-failure", "on-abnormal", "on-abort"})
_UNIT_DIRS = ("/etc/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system")
_RESTART_LINE = re.compile(r"^\s*Restart\s*=\s*(\S*)\s*$", re.MULTILINE)


def restart_policy(state: SystemState, unit: UnitSpec) -> str:
    """The unit's Restart= setting: declared, else read from its unit file, else `no`."""
    if unit.restart is not None:
        return unit.restart
    paths = [unit.path] if unit.path else [f"{d}/{unit.name}" for d in _UNIT_DIRS]
    for path in paths:
        text, _ = state.fs.read(path, "root") if state.fs is not None else (None, "")
        if text is not None:
            found = _RESTART_LINE.findall(text)
            return found[-1] if found and found[-1] else "no"  # the last assignment wins
    return "no"


def main_process_died(
    state: SystemState, unit: UnitSpec, dead: ProcessSpec | None, signal: int, name: str
) -> Change | None:
    """Journal the death of `unit`'s main process by `signal` (named `name`, e.g. KILL) and
    apply Restart=; the auto-restart change when systemd brought the unit back."""
    clean = signal in CLEAN_SIGNALS
    sockets = [s for s in state.sockets if dead is not None and s.pid == dead.pid]
    state.end_process(unit.main_pid)
    state.log(unit.name, f"{unit.name}: Main process exited, code=killed, status={signal}/{name}")
    if clean:
        state.log(unit.name, f"{unit.name}: Deactivated successfully.")
    else:
        state.log(unit.name, f"{unit.name}: Failed with result 'signal'.", priority=4)
    policy = restart_policy(state, unit)
    restarts = policy in (_RESTARTS_AFTER_CLEAN if clean else _RESTARTS_AFTER_UNCLEAN)
    if not restarts:
        state.units[unit.name] = unit.model_copy(
            update={
                "active": "inactive" if clean else "failed",
                "sub": "dead" if clean else "failed",
                "since": state.spec.now,
                "result": None if clean else "signal",
            }
        )
        return None
    pid = _respawn(state, unit, dead, sockets)
    state.log(unit.name, f"{unit.name}: Scheduled restart job, restart counter is at 1.")
    state.log(unit.name, f"Stopped {unit.name} - {unit.description}.")
    state.log(unit.name, f"Started {unit.name} - {unit.description}.")
    state.units[unit.name] = unit.model_copy(
        update={"active": "active", "sub": "running", "since": state.spec.now, "main_pid": pid}
    )
    return Change(
        "systemd", "auto-restart", unit.name, f"Restart={policy} after SIG{name}, main PID {pid}"
    )


def _respawn(
    state: SystemState, unit: UnitSpec, dead: ProcessSpec | None, sockets: list[SocketSpec]
) -> int:
    """The new main process: the unit's ExecStart (else the dead command) as the same user,
    listening where the dead one listened (and on the unit's `listen`)."""
    pid = state.spawn(unit)
    fresh = state.processes[-1]
    update: dict[str, object] = {}
    if dead is not None:
        update["user"] = dead.user
        if not unit.exec_start:
            update["command"] = dead.command
    state.processes[-1] = fresh.model_copy(update=update)
    bound = {s.local for s in state.sockets if s.pid == pid}
    for socket in sockets:
        if socket.local not in bound:
            state.sockets.append(socket.model_copy(update={"pid": pid}))
    return pid
