"""A figure said of one row of a printed table that another row holds: the rows crossed."""

import pytest

from agentbench.scoring.entities import declared_entities
from agentbench.scoring.printed import tables
from agentbench.scoring.reading import Reading
from agentbench.scoring.tables import crossed_row_problems
from agentbench.tasks.model import Environment

ENV = Environment.model_validate({"files": {"/var/log/x.log": "x"}})
DAYS = """     d      | count |   sum
------------+-------+---------
 2026-11-18 |     4 | 5980.45
 2026-11-19 |     4 | 6802.00
 2026-11-20 |     4 | 8110.75
(3 rows)
"""
STAGING = (
    "NAME       READY   UP-TO-DATE   AVAILABLE   AGE    IMAGES\n"
    "checkout   2/2     2            2           120d   "
    "registry.internal/shop/checkout:2.15.0-rc2\n"
)
PRODUCTION = (
    "NAME       READY   UP-TO-DATE   AVAILABLE   AGE    IMAGES\n"
    "checkout   6/6     6            6           120d   registry.internal/shop/checkout:2.14.0\n"
)
PDB = (
    "NAME     MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\n"
    "search   3               N/A               1                     30d\n"
)
DEPLOYS = (
    "NAME        READY   UP-TO-DATE   AVAILABLE   AGE\n"
    "inventory   2/2     2            2           112d\n"
    "search      4/4     4            4           112d\n"
)


def problems(answer: str, outputs: list[str]) -> list[str]:
    return crossed_row_problems(Reading(answer, declared_entities(ENV, ""), [], []), outputs, [])


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("The best day was Thursday 2026-11-19 with 8,110.75 EUR.", True),
        ("The best day was Friday 2026-11-20 with 8,110.75 EUR.", False),
        ("2026-11-19 made 6802.00 and 2026-11-20 made 8110.75.", False),  # cut at "and"
        ("2026-11-19 did not make 8110.75; it made 6802.00.", False),  # denied
        ("The week made 20893.20 over 2026-11-18 to 2026-11-20.", False),  # a sum, no row's
    ],
)
def test_a_figure_read_off_the_neighbouring_row_fails(answer: str, fails: bool) -> None:
    assert bool(problems(answer, [DAYS])) is fails


def test_rows_under_one_header_join_across_outputs() -> None:
    swapped = "staging: registry.internal/shop/checkout:2.15.0-rc2 (6/6 replicas ready)"
    assert problems(swapped, [STAGING, PRODUCTION])
    right = "staging: registry.internal/shop/checkout:2.15.0-rc2 (2/2 replicas ready)"
    assert problems(right, [STAGING, PRODUCTION]) == []


def test_what_another_output_says_of_the_row_is_its_own() -> None:
    said = "search has a PodDisruptionBudget (min available 3, 1 allowed disruption) at 4/4."
    assert problems(said, [DEPLOYS, PDB]) == []


def test_one_object_printed_twice_is_one_row() -> None:
    before = DEPLOYS.replace(
        "search      4/4     4            4", "search      3/4     4            3"
    )
    merged = [t for t in tables([before, DEPLOYS]) if t.header[0] == "NAME"]
    assert len(merged) == 1 and len(merged[0].rows) == 2
    assert problems("search went from 3/4 to 4/4 ready.", [before, DEPLOYS]) == []


DF = """Filesystem      Size Used Avail Use% Mounted on
/dev/nvme0n1p1   50G  21G   29G  42% /
tmpfs           7.8G    0  7.8G   0% /dev/shm
tmpfs           3.1G 1.2M  3.1G   1% /run
/dev/nvme1n1    200G 192G  8.0G  96% /var
"""


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("Note /var is a tmpfs mount, so it is wiped on reboot.", True),
        ("/run is a tmpfs mount; /var is on /dev/nvme1n1 and 96% full.", False),
        ("/var is not a tmpfs mount: it is /dev/nvme1n1.", False),  # denied
        ("/var (96% full) is the one to clean; the tmpfs mounts are fine.", False),  # not tied
    ],
)
def test_a_word_of_another_row_said_of_this_one_fails(answer: str, fails: bool) -> None:
    from agentbench.scoring.tables import crossed_word_problems

    reading = Reading(answer, declared_entities(ENV, ""), [], [])
    assert bool(crossed_word_problems(reading, [DF])) is fails
