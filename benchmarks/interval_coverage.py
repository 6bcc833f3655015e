"""Coverage of agentbench's intervals on simulated runs with a known true value.

    python benchmarks/interval_coverage.py [--sims 2000] [--tasks 69]

Each simulated task has a latent difficulty u ~ N(0, 1); run A solves a repeat of it with
probability Phi(a + u), run B with Phi(b + u). The population success rates are then exactly
Phi(a / sqrt(2)) and Phi(b / sqrt(2)), so the true difference is known. For base rates near 0,
0.5 and 1, with 1 and 3 repeats, it prints the share of simulated runs whose 95% interval holds
the truth: the success-rate interval (clustered Wilson), the paired difference (Bonett-Price on
per-task differences), and the mean score (the same score interval on the clustered mean; scores are
1 for a success, else partial credit uniform in [0, 0.8]). Nominal: 95%.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from statistics import NormalDist

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from agentbench.metrics.intervals import (
    paired_rate_difference,
    rate_interval,
)

PHI = NormalDist().cdf
SCENARIOS = (("near 0", 0.03, 0.06), ("near 0.5", 0.50, 0.55), ("near 1", 0.94, 0.97))


def latent(rate: float) -> float:
    """The a with Phi(a / sqrt 2) = rate."""
    return NormalDist().inv_cdf(rate) * math.sqrt(2)


def simulate(
    rate_a: float, rate_b: float, tasks: int, repeats: int, sims: int, seed: int
) -> dict[str, float]:
    gen = np.random.default_rng(seed)
    a, b = latent(rate_a), latent(rate_b)
    truth_d = rate_b - rate_a
    hit_rate = hit_diff = hit_mean = 0
    for _ in range(sims):
        u = gen.standard_normal(tasks)
        pa = np.array([PHI(a + x) for x in u])
        pb = np.array([PHI(b + x) for x in u])
        ya = (gen.random((tasks, repeats)) < pa[:, None]).astype(float)
        yb = (gen.random((tasks, repeats)) < pb[:, None]).astype(float)
        ga, gb = ya.tolist(), yb.tolist()
        r = rate_interval(ga)
        assert r is not None
        hit_rate += r.low <= rate_a <= r.high
        d = paired_rate_difference(ga, gb)
        assert d is not None
        hit_diff += d.low <= truth_d <= d.high
        # scores: 1 for a success, else partial credit uniform in [0, 0.8] (mean 0.4)
        sa = np.where(ya == 1.0, 1.0, gen.random((tasks, repeats)) * 0.8).tolist()
        truth_mean = rate_a + (1 - rate_a) * 0.4
        m = rate_interval(sa)
        assert m is not None
        hit_mean += m.low <= truth_mean <= m.high

    return {"rate": hit_rate / sims, "difference": hit_diff / sims, "mean": hit_mean / sims}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sims", type=int, default=2000)
    parser.add_argument("--tasks", type=int, default=69)
    args = parser.parse_args()
    print(f"coverage of nominal 95% intervals, {args.sims} simulated run pairs, {args.tasks} tasks")
    print(f"{'rates A -> B':<22}{'repeats':>8}{'rate':>8}{'diff':>8}{'mean':>8}")
    for name, ra, rb in SCENARIOS:
        for repeats in (1, 3):
            cov = simulate(ra, rb, args.tasks, repeats, args.sims, 7)
            print(
                f"{name + f' ({ra:.2f}->{rb:.2f})':<22}{repeats:>8}"
                f"{cov['rate']:>8.1%}{cov['difference']:>8.1%}{cov['mean']:>8.1%}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
