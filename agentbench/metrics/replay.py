"""Counterfactual replay of confidence thresholds over `--record-both` runs (bounds only).

Each recorded step holds the local answer (with its logprobs) and the frontier's answer; a
threshold decides which one a `confidence` router would have kept. Where it keeps a local answer
that differs from the recorded one, the real episode would have diverged: the outcome from there
is unknown, hence accuracy bounds. agentbench.agent.replay forks such episodes live instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, Field

from agentbench.metrics.routing import same_answer
from agentbench.records import EpisodeResult, StepRecord
from router import LOCAL, Policy, StepContext, assess_answer, build_policy


def escalates(policy: Policy, index: int, local: StepRecord) -> bool:
    """Whether `policy` (a reviewing one, e.g. confidence) sends this recorded local answer up.

    The policy itself decides: its review sees the answer as the live loop would show it (the
    tools' schemas are not recorded, so only the answer's shape and confidence are assessed).
    """
    ctx = StepContext(index, "execute", [], [])
    answer = assess_answer(
        [(c.name, c.parsed) for c in local.tool_calls],
        local.content,
        None,
        mean_logprob=local.mean_logprob,
        min_logprob=local.min_logprob,
    )
    review = policy.review(ctx, answer)
    return review is not None and review.target != LOCAL


class ReplayPoint(BaseModel):
    """What `confidence:threshold=T` would have done on a --record-both run, step by step."""

    threshold: float
    decisions: int
    rate_steps: float | None = Field(description="Share of decisions that would escalate.")
    kept_agree: float | None = Field(
        default=None, description="Kept local answers equal to the frontier's (same calls)."
    )
    exact_episodes: int = Field(
        description="Episodes whose replay never leaves the recorded "
        "trajectory: their outcome is known."
    )
    accuracy_low: float | None = Field(
        default=None, description="Known successes / episodes (diverged counted as failures)."
    )
    accuracy_high: float | None = Field(
        default=None, description="(Known successes + diverged) / episodes."
    )
    cost_usd: float | None = Field(
        default=None,
        description="Every local call plus the frontier calls this threshold "
        "makes, over the recorded steps (an estimate once an episode diverges).",
    )


def answer_pairs(episode: EpisodeResult) -> list[tuple[StepRecord, StepRecord]]:
    """(local answer, frontier answer) per decision of a --record-both episode."""
    out = []
    steps = episode.steps
    for i, step in enumerate(steps[:-1]):
        after = steps[i + 1]
        if step.discarded and step.target == LOCAL and after.target != LOCAL:
            out.append((step, after))
    return out


def replay_confidence(
    episodes: Iterable[EpisodeResult], thresholds: Sequence[float], *, missing: str = "keep"
) -> list[ReplayPoint]:
    """Replay confidence thresholds over recorded (local, frontier) answer pairs.

    At each decision the threshold keeps the local answer (mean logprob >= T) or escalates. When
    a kept local answer differs from the frontier's, the real trajectory would have left the
    recorded one: from there the episode's outcome is unknown, hence the accuracy bounds.
    """
    eps = [e for e in episodes if answer_pairs(e)]
    out = []
    for t in thresholds:
        decisions = escalated = kept = agree = exact = solved_exact = 0
        cost: float | None = 0.0
        for e in eps:
            policy = build_policy(f"confidence:threshold={t!r},missing={missing}")()
            diverged = False
            for index, (local, frontier) in enumerate(answer_pairs(e)):
                decisions += 1
                up = escalates(policy, index, local)
                if cost is not None:
                    paid = [local.cost_usd] + ([frontier.cost_usd] if up else [])
                    cost = (
                        None
                        if any(c is None for c in paid)
                        else cost + sum(c for c in paid if c is not None)
                    )
                if up:
                    escalated += 1
                    continue
                kept += 1
                if same_answer(local, frontier):
                    agree += 1
                else:
                    diverged = True
            if not diverged:
                exact += 1
                solved_exact += e.success
        n = len(eps)
        out.append(
            ReplayPoint(
                threshold=t,
                decisions=decisions,
                rate_steps=escalated / decisions if decisions else None,
                kept_agree=agree / kept if kept else None,
                exact_episodes=exact,
                accuracy_low=solved_exact / n if n else None,
                accuracy_high=(solved_exact + n - exact) / n if n else None,
                cost_usd=cost if decisions else None,
            )
        )
    return out
