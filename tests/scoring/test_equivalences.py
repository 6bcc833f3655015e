"""Two figures given as one amount in two units must be that one amount."""

import pytest

from agentbench.scoring.entities import declared_entities
from agentbench.scoring.equivalences import equivalence_problems
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("10w = 1680 hours (that's 100,800 seconds).", False),
        ("10w = 1680 hours (that's 6,048,000 seconds).", True),
        ("The limit is 64Mi (about 67 MB).", True),
        ("The limit is 64Mi (32 MB).", False),
        ("Raise it to 128Mi or 256Mi.", True),  # two alternatives
        ("6 × 7 days = 42 days = 1008 hours", True),  # a product worked out
        ("MemAvailable is 9,626,412 kB (~9.2 GiB).", True),
        ("1.5 GiB = 1,610,612,736 bytes", True),
        ("The timeout is 30 s, i.e. 30000 ms.", True),
        ("The timeout is 30 s, i.e. 3000 ms.", False),
        ("It waited 5 minutes and then 300 seconds more.", True),  # two amounts, not one
        # a gap to the figure before it, not the figure restated
        ("available 3658Mi vs. a threshold of 5898Mi, i.e. 2240Mi short", True),
        ("a threshold of 5898Mi, i.e. 2240Mi", False),
    ],
)
def test_figures_said_to_be_equal_must_be(answer: str, passes: bool) -> None:
    reading = Reading(answer, declared_entities(Environment(), ""), [], [])
    assert (equivalence_problems(reading) == []) is passes


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("auth has been up 604211 s (≈ 6 d 23 h 50 m).", True),  # days, hours, minutes
        ("auth has been up 604211 s (≈ 5 d 23 h 50 m).", False),
        ("Space: pg_wal 313G + base 178G = ~491G.", True),  # a labelled operand
        ("Its container is capped at 64Mi (32Mi requested).", True),  # another field, glossed
        ("Its container is capped at 64Mi (32Mi).", False),
    ],
)
def test_compound_durations_operands_and_glosses(answer: str, passes: bool) -> None:
    reading = Reading(answer, declared_entities(Environment(), ""), [], [])
    assert (equivalence_problems(reading) == []) is passes
