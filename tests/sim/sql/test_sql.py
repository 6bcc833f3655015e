"""SQL on the embedded engine: equivalent queries agree, wrong ones do not, psql's layout."""

from __future__ import annotations

import time

import pytest

from agentbench.sim.core.base import Change, CommandResult
from agentbench.sim.sql.spec import SqlSpec, TableSpec
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

ORDERS = TableSpec(
    columns={"id": "bigint", "created_at": "timestamptz", "status": "text", "total_eur": "numeric"},
    rows=[
        [1, "2026-11-15 23:59:00+00", "completed", 5.00],
        [2, "2026-11-16 00:10:00+00", "completed", 10.50],
        [3, "2026-11-22 13:00:00+00", "completed", 20.25],
        [4, "2026-11-22 14:00:00+00", "cancelled", 99.00],
        [5, "2026-11-23 00:00:00+00", "completed", 7.00],
    ],
)
CUSTOMERS_CSV = "id,name\n1,Acme\n2,Globex\n"


def db(read_only: bool = False) -> World:
    tables = {
        "orders": ORDERS,
        "customers": TableSpec(columns={"id": "int", "name": "text"}, csv=CUSTOMERS_CSV),
    }
    return World(WorldSpec(sql=SqlSpec(tables=tables, read_only=read_only)))


def query(world: World, sql: str) -> CommandResult:
    answer = world.call("sql_query", {"query": sql})
    assert answer is not None
    return answer.result


def rows(result: CommandResult) -> tuple[str, ...]:
    """The rows of a single read's identity (its columns come first: sim/sql/identity.py)."""
    assert result.identity is not None and result.identity[1].startswith("cols:")
    return result.identity[2 + int(result.identity[1][5:]) :]


BASE = "SELECT SUM(total_eur) FROM orders WHERE status = 'completed' AND "
WEEK = [
    BASE + "created_at >= '2026-11-16' AND created_at < '2026-11-23'",
    BASE + "created_at >= DATE '2026-11-16' AND created_at < DATE '2026-11-16' + INTERVAL '7 days'",
    BASE + "date_trunc('week', created_at) = '2026-11-16'",
    BASE + "created_at BETWEEN '2026-11-16' AND '2026-11-22 23:59:59.999999'",
    BASE + "(created_at AT TIME ZONE 'UTC')::date BETWEEN '2026-11-16' AND '2026-11-22'",
]


@pytest.mark.parametrize("sql", WEEK)
def test_equivalent_formulations_give_the_same_figure_and_identity(sql: str) -> None:
    result = query(db(), sql)
    assert result.stdout == "  sum\n-------\n 30.75\n(1 row)\n"
    assert rows(result) == ("30.75",)


def test_a_wrong_range_gives_its_own_wrong_figure() -> None:
    wrong = BASE + "created_at BETWEEN '2026-11-16' AND '2026-11-22'"
    assert rows(query(db(), wrong)) == ("10.50",)


def test_psql_aligned_layout_with_aliases_and_text_columns() -> None:
    result = query(db(), "SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status")
    assert result.stdout == (
        "  status   | n\n-----------+---\n cancelled | 1\n completed | 4\n(2 rows)\n"
    )
    joined = query(db(), "SELECT c.name FROM customers c WHERE c.id = 2")
    assert joined.stdout == "  name\n--------\n Globex\n(1 row)\n"


def test_engine_errors_in_postgres_words_and_psql_layout() -> None:
    result = query(db(), "SELECT * FROM nope")
    assert (result.exit_code, result.stderr) == (
        1,
        'ERROR:  relation "nope" does not exist\nLINE 1: SELECT * FROM nope\n'
        "                      ^\n",
    )
    column = query(db(), "select id,\n  totl from orders")
    assert column.stderr == (
        'ERROR:  column "totl" does not exist\nLINE 2:   totl from orders\n          ^\n'
    )
    qualified = query(db(), "SELECT o.totl FROM orders o")
    assert qualified.stderr == (
        "ERROR:  column o.totl does not exist\nLINE 1: SELECT o.totl FROM orders o\n"
        "               ^\n"
    )
    syntax = sh(db(), "psql -c 'selec 1;'")
    assert syntax.stderr == (
        'ERROR:  syntax error at or near "selec"\nLINE 1: selec 1\n        ^\n'
    )


def test_writes_change_state_or_fail_on_a_read_only_replica() -> None:
    world = db()
    result = query(world, "UPDATE orders SET status = 'refunded' WHERE id = 5")
    assert result.stdout == "UPDATE 1\n"
    assert result.changes == [Change("sql", "update", "orders", "1 row: 5")]
    assert rows(query(world, "SELECT count(*) FROM orders WHERE status = 'refunded'")) == ("1",)
    replica = query(db(read_only=True), "DELETE FROM orders")
    assert replica.stderr == "ERROR:  cannot execute DELETE in a read-only transaction\n"
    assert replica.changes == []


def test_psql_in_the_shell_and_identify_leaves_no_trace() -> None:
    world = db()
    result = sh(world, 'psql -d analytics -c "SELECT count(*) FROM orders"')
    assert result.stdout == " count\n-------\n     5\n(1 row)\n\n"
    assert (
        sh(world, "psql -At -c 'SELECT name FROM customers ORDER BY id'").stdout == "Acme\nGlobex\n"
    )
    assert "does not exist" in sh(world, "psql -d sales -c 'SELECT 1'").stderr
    deleted = ("sql", "delete", "orders", "1", "2", "3", "4", "5")
    assert world.identify("sql_query", {"query": "DELETE FROM orders"}) == deleted
    assert rows(query(world, "SELECT count(*) FROM orders")) == ("5",)


def test_an_episode_world_is_fast_to_build_and_query() -> None:
    db()  # the first build pays the engine's import
    started = time.perf_counter()
    world = db()
    for _ in range(20):
        query(world, WEEK[0])
    assert time.perf_counter() - started < 0.5


def test_episodes_share_one_load_but_not_their_writes() -> None:
    spec = SqlSpec(tables={"orders": ORDERS})
    first, second = World(WorldSpec(sql=spec)), World(WorldSpec(sql=spec))
    assert query(first, "BEGIN").stdout == "BEGIN\n"
    assert query(first, "DELETE FROM orders").stdout == "DELETE 5\n"
    assert query(first, "COMMIT").stdout == "COMMIT\n"
    assert rows(query(first, "SELECT count(*) FROM orders")) == ("0",)
    assert rows(query(second, "SELECT count(*) FROM orders")) == ("5",)
    assert rows(query(first.copy(), "SELECT count(*) FROM orders")) == ("5",)


def test_psql_hosts_primary_and_hot_standby_replica() -> None:
    spec = SqlSpec(
        tables={"orders": ORDERS},
        database="orders",
        host="db-1.internal",
        replicas=["db-2.internal"],
    )
    world = World(WorldSpec(sql=spec))
    update = "-d orders -c \"UPDATE orders SET status = 'refunded' WHERE id = 5\""
    refused = sh(world, f"psql -h db-2.internal {update}")
    assert refused.stderr == "ERROR:  cannot execute UPDATE in a read-only transaction\n"
    recovery = "psql -At -h db-2.internal -d orders -c 'SELECT pg_is_in_recovery()'"
    assert sh(world, recovery).stdout == "t\n"
    assert sh(world, recovery.replace("db-2", "db-1")).stdout == "f\n"
    done = sh(world, f"psql -h db-1.internal {update}")
    assert done.stdout == "UPDATE 1\n" and done.changes == [
        Change("sql", "update", "orders", "1 row: 5")
    ]
    check = (
        "psql postgresql://ops@db-2.internal/orders -At -c 'SELECT status FROM orders WHERE id = 5'"
    )
    assert sh(world, check).stdout == "refunded\n"
    unknown = sh(world, "psql -h db-9.internal -c 'SELECT 1'")
    assert (
        unknown.exit_code == 2 and 'could not translate host name "db-9.internal"' in unknown.stderr
    )


def test_an_error_aborts_nothing_as_in_psql_autocommit() -> None:
    world = db()
    assert query(world, "SELECT * FROM nope").exit_code == 1
    assert rows(query(world, "SELECT count(*) FROM orders")) == ("5",)


def test_psql_backslash_commands_describe_the_declared_tables() -> None:
    world = db()
    listing = sh(world, 'psql -c "\\dt"').stdout
    assert " public | customers | table | postgres" in listing and "(2 rows)" in listing
    described = sh(world, 'psql -c "\\d orders"').stdout.splitlines()
    assert described[0].strip() == 'Table "public.orders"'
    assert described[3].split("|")[:2] == [" id         ", " bigint                   "]
    assert described[4].split("|")[1].strip() == "timestamp with time zone"
    missing = sh(world, 'psql -c "\\d nope"')
    assert (missing.exit_code, missing.stderr) == (1, 'Did not find any relation named "nope".\n')


def test_psql_bundled_flags_and_connection_forms() -> None:
    world = db()
    for line in (
        "psql -tAc 'select count(*) from orders'",
        "psql -qtAX -c 'select count(*) from orders;'",
        'psql -d analytics -At -c "SELECT count(*) FROM orders -- all of them"',
        "psql -d postgresql://ops@localhost/analytics -tA --command='select count(*) from orders'",
        "psql --dbname=analytics --tuples-only --no-align -c 'select count(*) from orders'",
    ):
        result = sh(world, line)
        assert (result.stdout, result.exit_code, rows(result)) == ("5\n", 0, ("5",)), line


def test_statements_wrapped_in_begin_commit_run_and_fail_on_a_read_only_database() -> None:
    wrapped = "BEGIN; DELETE FROM orders WHERE status = 'cancelled'; COMMIT;"
    refused = query(db(read_only=True), wrapped)
    assert (refused.stderr, refused.exit_code, refused.changes) == (
        "ERROR:  cannot execute DELETE in a read-only transaction\n",
        1,
        [],
    )
    writable = db()
    done = query(writable, wrapped)
    assert done.changes == [Change("sql", "delete", "orders", "1 row: 4")]
    assert query(writable, "begin;").stdout == "BEGIN\n"
