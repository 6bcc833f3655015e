"""State-backed simulators of the tools a task offers. Nothing here executes on the host."""

from agentbench.sim.core.base import Change, CommandResult, Identity, Program, ShellContext

__all__ = ["Change", "CommandResult", "Identity", "Program", "ShellContext"]
