"""Figures said of one declared record, held against that record."""

from pathlib import Path

import pytest

from agentbench.scoring.bound_figures import bound_figure_problems
from agentbench.scoring.entities import declared_entities
from agentbench.scoring.reading import Reading
from agentbench.tasks.loader import load_suite
from agentbench.tasks.model import Task

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def task() -> Task:
    return next(
        t for t in load_suite(ROOT / "tasks").tasks if t.id == "data-inventory-available-units"
    )


def problems(task: Task, answer: str) -> list[str]:
    reading = Reading(answer, declared_entities(task.environment, ""), [], [])
    return bound_figure_problems(reading, [])


@pytest.mark.parametrize(
    "answer",
    [
        "34 sellable: AMS-1 contributes 7, BER-2 contributes 27, WAW-1 none.",
        "AMS-1 has 11 on hand and 4 reserved.",
        "BER-2: 36 on hand minus 9 reserved.",
        "Once WAW-1 frees its reservations, it will do.",
    ],
)
def test_a_record_s_own_figures_pass(task: Task, answer: str) -> None:
    assert problems(task, answer) == []


@pytest.mark.parametrize(
    "answer",
    [
        "34 sellable: AMS-1 contributes 27, BER-2 contributes 7.",  # swapped
        "WAW-1 also has 5 units on inbound backorder.",  # invented
    ],
)
def test_a_figure_the_record_does_not_state_fails(task: Task, answer: str) -> None:
    found = problems(task, answer)
    assert len(found) == 1 and "whose record does not state it" in found[0]


def test_two_records_in_one_clause_are_left_alone(task: Task) -> None:
    assert problems(task, "AMS-1 and BER-2 together hold 27 of them.") == []


def test_a_figure_an_output_prints_beside_the_record_is_its_own() -> None:
    """An aggregate's row (`marco.rossi@example.com | 13` of a GROUP BY) states what no row of
    the declared table holds; a figure no line beside the record prints is still held."""
    from agentbench.scoring.bound_figures import _printed_beside

    out = [" marco.rossi@example.com  | 13\n sofia.marin@example.com  | 11\n"]
    assert _printed_beside("13", ["marco.rossi@example.com"], out)
    assert not _printed_beside("11", ["marco.rossi@example.com"], out)
