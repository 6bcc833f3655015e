"""A figure said of a name is the one the outputs print on that name's line."""

import pytest

from agentbench.scoring.entities import declared_entities
from agentbench.scoring.pairs import pair_problems
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment

ENV = Environment.model_validate({"files": {"/var/log/x.log": "x"}})
DU = (
    "4.0K\t/var/lib/postgresql/16/main/PG_VERSION\n"
    "178G\t/var/lib/postgresql/16/main/base\n"
    "313G\t/var/lib/postgresql/16/main/pg_wal\n"
)
DF = "/dev/mapper/vg1-pgdata  492G  492G     0 100% /var/lib/postgresql\n"


def problems(answer: str) -> list[str]:
    return pair_problems(Reading(answer, declared_entities(ENV, ""), [], []), [DU, DF])


@pytest.mark.parametrize(
    "answer",
    [
        "`base` (table and index data) is 313G and `pg_wal` 178G.",
        "pg_wal holds 178G; the table data is small.",
    ],
)
def test_a_figure_from_a_siblings_line_fails(answer: str) -> None:
    why = problems(answer)
    assert why and "line" in why[0]


@pytest.mark.parametrize(
    "answer",
    [
        "pg_wal is 313G and base 178G.",
        "`/var/lib/postgresql` is 492G, 492G used, 0 available (100%).",
        "pg_wal is 313G (~64% of the 492G volume).",
        "It is not true that pg_wal holds 178G.",
    ],
)
def test_a_figure_on_its_own_line_passes(answer: str) -> None:
    assert problems(answer) == []


def test_a_count_from_another_row_of_one_listing_fails() -> None:
    rows = (
        "          email           | n\n"
        "--------------------------+----\n"
        " lena.fischer@example.org | 14\n"
        " marco.rossi@example.com  | 13\n"
        " sofia.marin@example.com  | 11\n"
    )
    users = " id   | email\n------+------\n 4821 | lena.fischer@example.org\n"

    def problems(answer: str) -> list[str]:
        return pair_problems(Reading(answer, declared_entities(ENV, ""), [], []), [rows, users])

    assert problems("Lena leads with 14, ahead of the runner-up marco.rossi@example.com (11).")
    assert not problems("Lena leads with 14, ahead of runner-up marco.rossi@example.com (13).")
    # another listing's figure in the name's column is no rival: the users table has no counts
    assert problems('{"email": "lena.fischer@example.org", "completed_orders": 14}') == []
