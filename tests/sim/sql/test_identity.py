"""Two queries that read the same rows are one read, whatever columns they show or their order;
a query that reads other rows is another read."""

from __future__ import annotations

import asyncio

import pytest

from agentbench.sim.sql.identity import identities_match
from agentbench.sim.sql.spec import SqlSpec, TableSpec
from agentbench.sim.world import World, WorldSpec
from agentbench.tasks.model import Step
from agentbench.tasks.validate import play

INVENTORY = TableSpec(
    columns={"sku": "text", "warehouse": "text", "qty_on_hand": "int", "reorder_point": "int"},
    rows=[
        ["A-1009", "AMS-1", 3, 10],
        ["B-2207", "AMS-1", 4, 12],
        ["C-3310", "AMS-1", 0, 5],
        ["E-5001", "AMS-1", 6, 6],
        ["A-1002", "BER-2", 1, 10],
    ],
)
WHERE = "FROM inventory WHERE warehouse = 'AMS-1' AND qty_on_hand < reorder_point"
EXPECTED = f"SELECT sku, warehouse, qty_on_hand, reorder_point {WHERE} ORDER BY sku"


def identity(sql: str):
    world = World(WorldSpec(sql=SqlSpec(tables={"inventory": INVENTORY})))
    answer = world.call("sql_query", {"query": sql})
    assert answer is not None and answer.result.exit_code == 0, answer
    return answer.result.identity


@pytest.mark.parametrize(
    "sql",
    [
        f"SELECT sku {WHERE}",  # what Qwen2.5-Coder-1.5B wrote
        f"SELECT * {WHERE}",
        f"select sku as item, qty_on_hand {WHERE} order by qty_on_hand desc;",
        f"SELECT warehouse, sku {WHERE}",
        "SELECT sku FROM inventory WHERE reorder_point - qty_on_hand > 0 AND warehouse LIKE 'AMS%'",
    ],
)
def test_the_same_rows_read_another_way_are_the_same_read(sql: str) -> None:
    assert identities_match(identity(sql), identity(EXPECTED))


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT sku FROM inventory WHERE warehouse = 'AMS-1' AND qty_on_hand <= reorder_point",
        "SELECT sku FROM inventory WHERE qty_on_hand < reorder_point",  # both warehouses
        "SELECT sku FROM inventory WHERE warehouse = 'AMS-1'",
        f"SELECT count(*) {WHERE}",
        f"SELECT qty_on_hand + 1 {WHERE}",  # other values
    ],
)
def test_other_rows_or_other_values_are_another_read(sql: str) -> None:
    assert not identities_match(identity(sql), identity(EXPECTED))


def test_counts_pair_by_value_and_empty_reads_by_column_name() -> None:
    assert identities_match(
        identity(f"SELECT count(sku) AS n {WHERE}"), identity(f"SELECT count(*) {WHERE}")
    )
    none = "FROM inventory WHERE qty_on_hand < 0"
    assert identities_match(identity(f"SELECT sku {none}"), identity(f"SELECT SKU {none}"))
    assert not identities_match(
        identity(f"SELECT sku {none}"), identity(f"SELECT warehouse {none}")
    )


def test_the_real_models_right_query_and_answer_score_one(suite) -> None:
    (task,) = [t for t in suite.tasks if t.id == "data-inventory-low-stock"]
    steps = [
        Step(calls=[{"tool": "sql_query", "args": {"query": f"SELECT sku {WHERE}"}}]),
        Step(
            answer="The SKUs in warehouse AMS-1 that are currently below their reorder point "
            "are A-1009, B-2207, and C-3310."
        ),
    ]
    played = asyncio.run(play(suite, task, steps))
    assert not isinstance(played, str) and played.score == 1.0, played
