"""Routing between a local model and a frontier model. Standalone: never imports agentbench.

A `Policy` sees a `StepContext` before each model call and decides the target; after a local
answer it may `review` the answer and escalate the same step (both calls are then paid for).
Policies are registered by name and built from `NAME[:key=value,...]` specs.
"""

from router._assess import assess_answer, call_problem, tool_schemas
from router._base import (
    FRONTIER,
    LOCAL,
    Decision,
    LocalAnswer,
    Policy,
    PolicyFactory,
    StepContext,
)
from router._registry import (
    PolicySpecError,
    available_policies,
    build_policy,
    parse_spec,
    register,
)

__all__ = [
    "FRONTIER",
    "LOCAL",
    "Decision",
    "LocalAnswer",
    "Policy",
    "PolicyFactory",
    "PolicySpecError",
    "StepContext",
    "assess_answer",
    "available_policies",
    "build_policy",
    "call_problem",
    "parse_spec",
    "register",
    "tool_schemas",
]
