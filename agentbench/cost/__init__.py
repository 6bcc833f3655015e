"""The dollar ledger: what each model call cost, from a dated price table and a local $/hour.

A frontier call is priced from its token counts (uncached input, cached input, output; reasoning
is part of output). A local call is priced at a declared $/hour of model time (the call's stream
duration). Anything that cannot be priced stays `None` — "unpriced" — and every total that
contains it is `None` too: a missing price is never a silent $0.
"""

from agentbench.cost.ledger import (
    Pricing,
    StepPrice,
    episode_cost,
    price_episode,
    price_step,
    price_steps,
)
from agentbench.cost.prices import ModelPrice, PriceTable, load_prices

__all__ = [
    "ModelPrice",
    "PriceTable",
    "Pricing",
    "StepPrice",
    "episode_cost",
    "load_prices",
    "price_episode",
    "price_step",
    "price_steps",
]
