"""How systemctl prints units: `systemctl status UNIT` and `systemctl list-units`."""

from __future__ import annotations

from agentbench.sim.core.base import CommandResult
from agentbench.sim.core.spec import UnitSpec
from agentbench.sim.core.system import SystemState
from agentbench.sim.core.units import ago, parse_time
from agentbench.sim.host.journal import journal_line
from agentbench.sim.host.procs import comm


def status_text(state: SystemState, unit: UnitSpec) -> str:
    dot = {"active": "●", "failed": "×", "inactive": "○"}.get(unit.active, "●")
    sub = unit.sub or {"active": "running", "failed": "failed", "inactive": "dead"}.get(
        unit.active, "dead"
    )
    path = unit.path or f"/etc/systemd/system/{unit.name}"
    lines = [
        f"{dot} {unit.name} - {unit.description}" if unit.description else f"{dot} {unit.name}"
    ]
    lines.append(f"     Loaded: {unit.load} ({path}; {unit.enabled}; preset: enabled)")
    active = (
        f"{unit.active} ({sub})"
        if unit.active != "failed"
        else f"failed (Result: {unit.result or 'exit-code'})"
    )
    if unit.since:
        since = parse_time(unit.since)
        active += f" since {since.strftime('%a %Y-%m-%d %H:%M:%S UTC')}; {ago(state.now, since)}"
    lines.append(f"     Active: {active}")
    if unit.triggered_by:
        lines.append(f"TriggeredBy: ● {unit.triggered_by}")
    if unit.main_pid:
        if unit.active == "failed" or unit.status:
            status = unit.status or "1/FAILURE"
            if unit.exec_start:
                lines.append(
                    f"    Process: {unit.main_pid} ExecStart={unit.exec_start} "
                    f"(code=exited, status={status})"
                )
            lines.append(f"   Main PID: {unit.main_pid} (code=exited, status={status})")
        else:
            live = next((p for p in state.processes if p.pid == unit.main_pid), None)
            command = (
                comm(live)
                if live is not None
                else (unit.exec_start or unit.name).split()[0].rsplit("/", 1)[-1]
            )
            lines.append(f"   Main PID: {unit.main_pid} ({command})")
    if unit.memory:
        lines.append(f"     Memory: {unit.memory}")
    entries = [e for e in state.journal if e.unit == unit.name][-10:]
    if entries:
        lines.append("")
        lines += [journal_line(e, state.spec.hostname, "short") for e in entries]
    return "\n".join(lines) + "\n"


def list_units(state: SystemState, flags: list[str], verb: str) -> CommandResult:
    failed_only = "--failed" in flags or "--state=failed" in flags
    kind = next(
        (f.split("=", 1)[1] for f in flags if f.startswith("--type=") or f.startswith("-t=")), None
    )
    units = [u for u in state.units.values() if (not failed_only or u.active == "failed")]
    if kind:
        units = [u for u in units if u.name.endswith("." + kind)]
    units.sort(key=lambda u: u.name)
    identity = ("systemd", "list", *(["failed"] if failed_only else []), *([kind] if kind else []))
    if verb == "list-unit-files":
        width = max([len(u.name) for u in units] + [9])
        rows = [f"{'UNIT FILE':<{width}} STATE           PRESET"] + [
            f"{u.name:<{width}} {u.enabled:<15} enabled" for u in units
        ]
        if "--no-legend" in flags:
            return CommandResult(stdout="".join(r + "\n" for r in rows[1:]), identity=identity)
        return CommandResult(
            stdout="\n".join(rows) + f"\n\n{len(units)} unit files listed.\n", identity=identity
        )
    width = max([len(u.name) + 2 for u in units] + [6])
    rows = [f"  {'UNIT':<{width - 2}} LOAD   ACTIVE SUB     DESCRIPTION"]
    for u in units:
        sub = u.sub or {"active": "running", "failed": "failed", "inactive": "dead"}.get(
            u.active, "dead"
        )
        dot = "●" if u.active == "failed" else " "
        rows.append(
            f"{dot} {u.name:<{width - 2}} {u.load:<6} {u.active:<6} {sub:<7} {u.description}"
        )
    legend = (
        "\nLegend: LOAD   → Reflects whether the unit definition was properly loaded.\n"
        "        ACTIVE → The high-level unit activation state, i.e. generalization of SUB.\n"
        "        SUB    → The low-level unit activation state, values depend on unit type.\n\n"
        f"{len(units)} loaded units listed.\n"
    )
    if "--no-legend" in flags:  # neither the column headers nor the footer
        return CommandResult(stdout="".join(row + "\n" for row in rows[1:]), identity=identity)
    if not units and failed_only:
        return CommandResult(stdout=rows[0] + "\n\n0 loaded units listed.\n", identity=identity)
    return CommandResult(stdout="\n".join(rows) + "\n" + legend, identity=identity)
