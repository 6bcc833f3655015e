"""Built-in policies."""

from __future__ import annotations

from router._base import FRONTIER, LOCAL, Decision, Policy, StepContext
from router._registry import register


@register("always-local")
class AlwaysLocal(Policy):
    """Baseline: every step on the local model."""

    name = "always-local"

    def choose(self, ctx: StepContext) -> Decision:
        return Decision(LOCAL, "always-local")


@register("always-frontier")
class AlwaysFrontier(Policy):
    """Baseline: every step on the frontier model."""

    name = "always-frontier"

    def choose(self, ctx: StepContext) -> Decision:
        return Decision(FRONTIER, "always-frontier")
