"""The figure an answer puts forward as its result, held to the required amount."""

import pytest

from agentbench.scoring.headline import headline_problems
from agentbench.tasks.expectations import Fact

REVENUE = Fact.model_validate(
    {"name": "EUR 48,213.40", "amount": {"value": 48213.4, "unit": "EUR", "tolerance": 0.005}}
)
TABLE = (
    "| status | total |\n|---|---|\n| completed | **48,213.40** |\n| refunded | **1,923.15** |\n"
)


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("Completed revenue for the week was **€48,213.40**.", False),
        ("Completed 48,213.40, refunded 1,923.15; revenue for the week was **€50,136.55**.", True),
        ("Revenue was **48,213.40 EUR**, about **€6,887.63** per day.", False),  # a rate
        ("Revenue was **48,213.40 EUR**; the average order is **€1,721.91**.", False),
        ("Revenue was €48,213.40 (**€1,923.15** refunded orders excluded).", False),
        (TABLE + "\nRevenue: €48,213.40.", False),  # table cells
        ("The week had **28** completed orders and €48,213.40 of revenue.", False),  # a count
        ("Revenue **€41,877.15**.", True),
    ],
)
def test_an_emphasised_result_must_be_the_required_amount(answer: str, fails: bool) -> None:
    assert bool(headline_problems(answer, [REVENUE])) is fails


def test_no_amount_with_a_unit_leaves_emphasis_alone() -> None:
    count = Fact.model_validate({"name": "28 orders", "amount": {"value": 28}})
    assert headline_problems("There were **27** orders.", [count]) == []
