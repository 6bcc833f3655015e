"""Pricing model calls: per step, per episode. Reports aggregate what is filled in here."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from agentbench.cost.prices import PriceTable, load_prices
from agentbench.errors import ConfigError
from agentbench.records import EpisodeResult, StepRecord
from router import LOCAL


@dataclass(frozen=True)
class StepPrice:
    cost_usd: float | None
    basis: str  # how it was priced, or why it could not be


@dataclass
class Pricing:
    """A price table for frontier calls and a declared $/hour for the local model."""

    table: PriceTable
    local_usd_per_hour: float | None = None

    @classmethod
    def build(
        cls, prices_file: str | Path | None = None, local_usd_per_hour: float | None = None
    ) -> Pricing:
        if local_usd_per_hour is not None and (
            not math.isfinite(local_usd_per_hour) or local_usd_per_hour < 0
        ):
            raise ConfigError(
                f"--local-usd-per-hour {local_usd_per_hour}: must be a "
                "non-negative number of US dollars per hour of model time"
            )
        return cls(load_prices(prices_file), local_usd_per_hour)


def price_step(step: StepRecord, pricing: Pricing) -> StepPrice:
    """The cost of one model call (a discarded answer is paid for like any other)."""
    if step.target == LOCAL:
        if pricing.local_usd_per_hour is None:
            return StepPrice(None, "unpriced: local model without --local-usd-per-hour")
        if step.duration_s is None:
            return StepPrice(None, "unpriced: no model time measured")
        return StepPrice(
            step.duration_s * pricing.local_usd_per_hour / 3600,
            f"local {pricing.local_usd_per_hour:g} $/h x {step.duration_s:.3f} s",
        )
    price = pricing.table.lookup(step.model) or pricing.table.lookup(step.requested_model)
    if price is None:
        return StepPrice(
            None, f"unpriced: no price for model '{step.model}' (add it with --prices FILE)"
        )
    if step.prompt_tokens is None or step.output_tokens is None:
        return StepPrice(None, f"unpriced: the server reported no token usage for '{step.model}'")
    cached = step.cached_prompt_tokens or 0
    cost = price.cost(step.prompt_tokens, cached, step.output_tokens)
    return StepPrice(
        cost,
        f"{price.model} as of {price.as_of or '?'}: {step.prompt_tokens} in "
        f"({cached} cached), {step.output_tokens} out",
    )


def price_steps(steps: Iterable[StepRecord], pricing: Pricing) -> list[StepPrice]:
    """Fill `cost_usd` on every step; returns how each was priced."""
    out = []
    for step in steps:
        priced = price_step(step, pricing)
        step.cost_usd = priced.cost_usd
        out.append(priced)
    return out


def episode_cost(steps: Iterable[StepRecord]) -> float | None:
    """Sum of the steps' costs; None when any step is unpriced. No call made costs $0."""
    costs = [s.cost_usd for s in steps]
    if any(c is None for c in costs):
        return None
    return sum(c for c in costs if c is not None)


def price_episode(episode: EpisodeResult, pricing: Pricing) -> EpisodeResult:
    """Re-price a stored episode (e.g. with another table): a priced copy, the input untouched."""
    copy = episode.model_copy(deep=True)
    price_steps(copy.steps, pricing)
    copy.cost_usd = episode_cost(copy.steps)
    return copy
