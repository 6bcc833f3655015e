"""PostgreSQL built-ins the embedded engine lacks (pg_notify, pg_sleep_for, ...) are not
simulated, never "function does not exist"; the email task answers every query from its
declared read-only database, with no canned rows."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.sql.database import Database
from agentbench.sim.sql.spec import SqlSpec
from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import TaskSuite


@pytest.fixture(scope="module")
def db() -> Database:
    return Database(SqlSpec(tables={"t": {"columns": {"id": "int"}, "rows": [[1]]}}))


def test_a_postgres_only_function_is_not_simulated(db: Database) -> None:
    answer = db.query("SELECT pg_notify('mail', 'x')")
    assert (answer.simulated, answer.not_simulated) == (False, "SQL function pg_notify()")
    with pytest.raises(NotSimulated):
        db.run("select pg_terminate_backend(4242)")


def test_an_unknown_function_is_still_postgres_error(db: Database) -> None:
    answer = db.query("select frobnicate(id) from t")
    assert answer.simulated and answer.stderr.startswith("ERROR:  function frobnicate does not")


def email_env(suite: TaskSuite) -> SimulatedEnvironment:
    task = next(t for t in suite.tasks if t.id == "none-email-without-mail-tool")
    return SimulatedEnvironment(task, suite.tools, suite.grammar)


def test_the_email_task_answers_from_its_database_alone(suite: TaskSuite) -> None:
    env = email_env(suite)
    assert not env.task.environment.rules
    one = env.execute("sql_query", {"query": "SELECT 1"})
    assert one.source == "sim:sql" and one.ok
    row = env.execute("sql_query", {"query": "select status from incidents where id = 'INC-2291'"})
    assert row.source == "sim:sql" and "resolved" in row.output
    # a text merely naming the incident is not a canned row: it runs as SQL
    other = env.execute("sql_query", {"query": "select 'INC-2291' as id from incidents limit 0"})
    assert other.source == "sim:sql" and "(0 rows)" in other.output
    insert = env.execute("sql_query", {"query": "INSERT INTO incidents (id) VALUES ('INC-2292')"})
    assert insert.output == "ERROR:  cannot execute INSERT in a read-only transaction\n"
    notify = env.execute("sql_query", {"query": "SELECT pg_notify('mail', 'INC-2291')"})
    assert notify.source == "fallback" and "INC-2291 |" not in notify.output
    assert env.changes == []
