"""Request-rate mode: when each request of a repetition is sent.

Poisson arrivals are exponential gaps at rate R; `burstiness` B generalises them to gamma gaps
with shape B and mean 1/R, as vLLM's bench serve does (B = 1 is Poisson, B < 1 burstier,
B > 1 more even). Constant arrivals are gaps of exactly 1/R. The first request goes at 0. The
schedule is seeded, so the same seed always sends at the same offsets.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from agentbench.errors import ConfigError


@dataclass(frozen=True)
class RateMode:
    """Send `requests` requests per repetition at `rate_req_s` on average."""

    rate_req_s: float
    requests: int = 10
    arrival: str = "poisson"  # poisson | constant
    burstiness: float = 1.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.rate_req_s <= 0:
            raise ConfigError(f"--request-rate {self.rate_req_s}: must be above 0 requests/s")
        if self.burstiness <= 0:
            raise ConfigError(f"--burstiness {self.burstiness}: must be above 0 (1 = Poisson)")
        if self.requests < 1:
            raise ConfigError(f"--num-requests {self.requests}: must be at least 1")
        if self.arrival not in ("poisson", "constant"):
            raise ConfigError(f"--arrival {self.arrival}: use poisson or constant")

    def offsets_s(self, repetition: int) -> list[float]:
        """Send offsets (seconds after the repetition starts) for one repetition."""
        if self.arrival == "constant":
            return [i / self.rate_req_s for i in range(self.requests)]
        rng = random.Random(self.seed * 1_000_003 + repetition)
        scale = 1.0 / (self.rate_req_s * self.burstiness)
        offsets, t = [0.0], 0.0
        for _ in range(self.requests - 1):
            t += rng.gammavariate(self.burstiness, scale)
            offsets.append(t)
        return offsets
