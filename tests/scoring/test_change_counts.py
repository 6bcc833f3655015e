"""A count of changes the answer asserts, held against the change log."""

from pathlib import Path

import pytest

from agentbench.scoring.change_counts import change_count_problems
from agentbench.scoring.entities import declared_entities
from agentbench.scoring.reading import Reading
from agentbench.sim.core.base import Change
from agentbench.tasks.loader import load_suite

ROOT = Path(__file__).resolve().parents[2]
EVICTED = [
    Change("kubernetes", "cordon", "node/node-15"),
    Change("kubernetes", "evict", "pod/shop/checkout-a203cfe13-18049"),
    Change("kubernetes", "evict", "pod/shop/recommender-baf40ca6f-f1a9b"),
    Change("kubernetes", "evict", "pod/media/thumbnailer-2712c817f-06cea"),
    Change("kubernetes", "drain", "node/node-15"),
]


def problems(answer: str, changes: list[Change]) -> list[str]:
    task = load_suite(ROOT / "tasks").tasks[0]
    return change_count_problems(
        Reading(answer, declared_entities(task.environment), [], []), changes
    )


@pytest.mark.parametrize(
    "answer",
    [
        "Drained node-15: 3 pods were evicted through the eviction API.",
        "I evicted all three pods and cordoned 1 node.",
        "3 pods are left on the node.",  # a count of what remains, not of changes
        "Not 4 pods were evicted, only the ones the PDB allowed.",
    ],
)
def test_the_recorded_count_passes(answer: str) -> None:
    assert problems(answer, EVICTED) == []


@pytest.mark.parametrize(
    "answer",
    ["Drained it: 4 pods were evicted.", "We evicted two pods and the node is empty."],
)
def test_another_count_fails(answer: str) -> None:
    found = problems(answer, EVICTED)
    assert len(found) == 1 and "recorded 3 such change(s)" in found[0]


def test_no_change_of_that_kind_leaves_it_to_the_claimed_action_check() -> None:
    assert problems("2 pods were deleted.", EVICTED) == []
    assert problems("4 pods were evicted.", []) == []
