"""Built-in policies.

Every decision carries a reason of the form ``TRIGGER: detail`` (or just ``TRIGGER``); reports
group escalations by the TRIGGER part, so keep it a short stable word.
"""

from __future__ import annotations

import hashlib
import math
import random as _random

from router._base import FRONTIER, LOCAL, Decision, LocalAnswer, Policy, StepContext
from router._registry import register


def _first_user(ctx: StepContext) -> str:
    for message in ctx.messages:
        if message.get("role") == "user":
            return str(message.get("content") or "")
    return ""


@register("always-local")
class AlwaysLocal(Policy):
    """Baseline: every step on the local model."""

    name = "always-local"
    needs_frontier = False

    def choose(self, ctx: StepContext) -> Decision:
        return Decision(LOCAL, "always-local")


@register("always-frontier")
class AlwaysFrontier(Policy):
    """Baseline: every step on the frontier model."""

    name = "always-frontier"

    def choose(self, ctx: StepContext) -> Decision:
        return Decision(FRONTIER, "always-frontier")


@register("escalate-on-invalid")
class EscalateOnInvalid(Policy):
    """Every step starts local; a local answer that is not valid is re-run on the frontier.

    Valid means a call to an offered tool with schema-valid arguments, or a non-empty final
    answer (the caller assesses it).
    """

    name = "escalate-on-invalid"

    def choose(self, ctx: StepContext) -> Decision:
        return Decision(LOCAL, "local-first")

    def review(self, ctx: StepContext, answer: LocalAnswer) -> Decision | None:
        if answer.valid:
            return None
        return Decision(FRONTIER, f"invalid: {answer.problem or 'not a valid answer'}")


@register("confidence")
class Confidence(Policy):
    """Escalate a local answer whose mean token log-probability is below `threshold`.

    Needs the server to return logprobs (the caller must request them). An answer without
    logprobs is kept (`missing=keep`, the default) or escalated (`missing=escalate`).
    """

    name = "confidence"
    needs_logprobs = True

    def __init__(self, threshold: float = -0.5, missing: str = "keep") -> None:
        if not isinstance(threshold, int | float) or isinstance(threshold, bool) \
                or not math.isfinite(threshold) or threshold > 0:
            raise ValueError(f"confidence threshold must be a log-probability <= 0, "
                             f"got {threshold!r}")
        if missing not in ("keep", "escalate"):
            raise ValueError(f"confidence missing= must be keep or escalate, got {missing!r}")
        self.threshold = float(threshold)
        self.missing = missing
        self.name = f"confidence:threshold={self.threshold:g}"

    def choose(self, ctx: StepContext) -> Decision:
        return Decision(LOCAL, "local-first")

    def review(self, ctx: StepContext, answer: LocalAnswer) -> Decision | None:
        if answer.mean_logprob is None:
            if self.missing == "escalate":
                return Decision(FRONTIER, "no-logprobs: the server returned no logprobs")
            return None
        if answer.mean_logprob < self.threshold:
            return Decision(FRONTIER, f"low-confidence: mean logprob "
                            f"{answer.mean_logprob:.3f} < {self.threshold:g}")
        return None


@register("plan-execute")
class PlanExecute(Policy):
    """Plans go to the frontier, execution stays local.

    Frontier for every step of a `plan` task and for the first step (the plan) of any task;
    local for the rest. `first_steps=N` sends the first N steps up (default 1).
    """

    name = "plan-execute"

    def __init__(self, first_steps: int = 1) -> None:
        if not isinstance(first_steps, int) or isinstance(first_steps, bool) or first_steps < 0:
            raise ValueError(f"plan-execute first_steps must be an integer >= 0, "
                             f"got {first_steps!r}")
        self.first_steps = first_steps

    def choose(self, ctx: StepContext) -> Decision:
        if ctx.step_kind == "plan":
            return Decision(FRONTIER, "plan: the task is a planning task")
        if ctx.step_index < self.first_steps:
            return Decision(FRONTIER, f"plan: step {ctx.step_index + 1} of the episode")
        return Decision(LOCAL, "execute")


@register("cascade-after-failure")
class CascadeAfterFailure(Policy):
    """Local until the episode's failing tool results reach `failures`, then frontier for good.

    Latching: once escalated, the rest of the episode stays on the frontier even if later tool
    calls succeed.
    """

    name = "cascade-after-failure"

    def __init__(self, failures: int = 2) -> None:
        if not isinstance(failures, int) or isinstance(failures, bool) or failures < 1:
            raise ValueError(f"cascade-after-failure failures must be an integer >= 1, "
                             f"got {failures!r}")
        self.failures = failures
        self.name = f"cascade-after-failure:failures={failures}"
        self._latched_at: int | None = None

    def choose(self, ctx: StepContext) -> Decision:
        if self._latched_at is None and ctx.tool_failures >= self.failures:
            self._latched_at = ctx.step_index
            return Decision(FRONTIER, f"tool-failures: {ctx.tool_failures} failing tool "
                            f"results >= {self.failures}")
        if self._latched_at is not None:
            return Decision(FRONTIER, f"latched: escalated at step {self._latched_at + 1}")
        return Decision(LOCAL, f"tool-failures {ctx.tool_failures} < {self.failures}")


@register("random")
class RandomRouter(Policy):
    """Control: each step goes to the frontier with probability `p`, from a seeded generator.

    The draw depends only on (seed, task, step index) — the task is known by its first user
    message, or by `ctx.extra["episode_key"]` when the caller sets one — so a rerun routes the
    same steps the same way whatever the concurrency. Repeats of a task see the same draws.
    """

    name = "random"

    def __init__(self, p: float = 0.1, seed: int = 0) -> None:
        if not isinstance(p, int | float) or isinstance(p, bool) or not 0.0 <= p <= 1.0:
            raise ValueError(f"random p must be a probability in [0, 1], got {p!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"random seed must be an integer, got {seed!r}")
        self.p = float(p)
        self.seed = seed
        self.name = f"random:p={self.p:g},seed={seed}"
        self._draws: dict[tuple[str, int], float] = {}

    def _draw(self, ctx: StepContext) -> float:
        key = ctx.extra.get("episode_key")
        if key is None:
            key = _first_user(ctx)
        slot = (str(key), ctx.step_index)
        if slot not in self._draws:
            digest = hashlib.sha256(f"{self.seed}:{key}:{ctx.step_index}".encode()).digest()
            self._draws[slot] = _random.Random(int.from_bytes(digest[:8], "big")).random()
        return self._draws[slot]

    def choose(self, ctx: StepContext) -> Decision:
        draw = self._draw(ctx)
        if draw < self.p:
            return Decision(FRONTIER, f"random: draw {draw:.3f} < p={self.p:g}")
        return Decision(LOCAL, f"random: draw {draw:.3f} >= p={self.p:g}")


@register("record-both")
class RecordBoth(Policy):
    """Instrumentation, not a router: every step is answered by the local model (with logprobs)
    AND by the frontier; the frontier's answer is kept. The recorded pairs let reports replay
    confidence thresholds counterfactually (`agentbench routes --replay-confidence RUN_ID`).
    """

    name = "record-both"
    needs_logprobs = True

    def choose(self, ctx: StepContext) -> Decision:
        return Decision(LOCAL, "record-both: local answer recorded first")

    def review(self, ctx: StepContext, answer: LocalAnswer) -> Decision | None:
        return Decision(FRONTIER, "record-both: frontier answer kept")


@register("external")
class ExternalRouter(Policy):
    """A router outside agentbench (e.g. NeMo Switchyard) behind the local endpoint.

    Every call goes to the configured endpoint (target `local` from agentbench's point of view);
    after the call, `attribute(served_model)` says which target actually answered: the served
    model (the `x-model-router-selected-model` header, or the response's model field) is a
    frontier model when it is listed in `frontier_models` (comma-separated).
    """

    name = "external"
    needs_frontier = False

    def __init__(self, frontier_models: str = "") -> None:
        models = [m.strip() for m in str(frontier_models).split(",") if m.strip()]
        if not models:
            raise ValueError("external needs frontier_models=NAME[,NAME...]: the served model "
                             "names that count as frontier (escalated) calls")
        self.frontier_models = frozenset(models)
        self.name = "external"

    def choose(self, ctx: StepContext) -> Decision:
        return Decision(LOCAL, "external: the endpoint's router decides")

    def attribute(self, served_model: str | None) -> Decision:
        if served_model and _matches(served_model, self.frontier_models):
            return Decision(FRONTIER, f"external: served by {served_model}")
        return Decision(LOCAL, f"external: served by {served_model or 'unknown model'}")


def _matches(served: str, names: frozenset[str]) -> bool:
    """Exact name, or the name after a provider prefix (`openai/gpt-5` matches `gpt-5`)."""
    return served in names or served.rsplit("/", 1)[-1] in names
