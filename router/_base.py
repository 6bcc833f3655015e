"""The policy interface and the context a policy decides on."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

LOCAL = "local"
FRONTIER = "frontier"


@dataclass(frozen=True)
class LocalAnswer:
    """What the local model answered at this step, assessed by the caller."""

    valid: bool  # a valid call to an offered tool with schema-valid arguments, or a final answer
    problem: str | None = None  # why not valid
    is_final: bool = False
    mean_logprob: float | None = None
    min_logprob: float | None = None


@dataclass
class StepContext:
    """Everything a policy may look at before one model call."""

    step_index: int
    step_kind: str  # "plan" or "execute" (the task's kind)
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    last_tool_ok: bool | None = None  # None before any tool ran
    tool_failures: int = 0  # failing tool results so far in this episode
    previous_valid: bool | None = None  # whether the previous model answer was valid
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    target: str
    reason: str


class Policy(ABC):
    """Routing state for one episode. A fresh instance is built for every episode."""

    name: str = "policy"
    needs_frontier: bool = True  # whether a frontier backend must be configured
    needs_logprobs: bool = False  # whether the caller must request token logprobs

    @abstractmethod
    def choose(self, ctx: StepContext) -> Decision:
        """Target for the next model call."""

    def review(self, ctx: StepContext, answer: LocalAnswer) -> Decision | None:
        """After a local answer: a Decision to re-run the step elsewhere, or None to keep it."""
        return None

    @property
    def reviews(self) -> bool:
        """Whether `review` can escalate (the caller then assesses every local answer)."""
        return type(self).review is not Policy.review


PolicyFactory = Callable[[], Policy]
