"""Task families and tiers: scenarios written once, variants drawn from a seed."""

from agentbench.tasks.families.generate import MAX_VARIANTS, Family, parse_family
from agentbench.tasks.families.tier import DEFAULT_SEED, TIERS, Tier, load_families, load_tier

__all__ = [
    "DEFAULT_SEED",
    "MAX_VARIANTS",
    "TIERS",
    "Family",
    "Tier",
    "load_families",
    "load_tier",
    "parse_family",
]
