"""SQL from a hostile model or task file never reaches the host (issue 21), through the real
tool runtime: `sql_query` and `psql -c` via `run_command` on a task that declares a database."""

from __future__ import annotations

import resource
import shlex
import socket
import threading
import time
from pathlib import Path

import pytest

from agentbench.sim.sql.classify import classify_sql, split_statements
from agentbench.sim.sql.engine import Engine, setup_of
from agentbench.tasks.env import SimulatedEnvironment, ToolResult
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task

ROWS = [[1, "completed", 5.0], [2, "completed", 10.5], [3, "cancelled", 99.0]]


def _task(read_only: bool = False, timeout_s: float = 10.0) -> Task:
    sql = {
        "read_only": read_only,
        "statement_timeout_s": timeout_s,
        "tables": {
            "orders": {
                "columns": {"id": "bigint", "status": "text", "total_eur": "numeric"},
                "rows": ROWS,
            }
        },
    }
    return Task.model_validate(
        {
            "id": "sql-sandbox-test",
            "category": "data-lookup",
            "difficulty": "easy",
            "description": "d",
            "prompt": "p",
            "tools": ["sql_query", "run_command"],
            "environment": {"sql": sql},
            "expect": {"answer": {"claims": [{"name": "x", "regex": ["x"]}]}},
            "reference": [{"answer": "x"}],
            "wrong": [{"name": "w", "steps": [{"answer": "y"}]}],
        }
    )


def _env(suite: TaskSuite, task: Task) -> SimulatedEnvironment:
    return SimulatedEnvironment(task, suite.tools, suite.grammar)


def both(env: SimulatedEnvironment, sql: str) -> list[ToolResult]:
    """The same SQL through the `sql_query` tool and through `psql -c` in the shell."""
    return [
        env.execute("sql_query", {"query": sql}),
        env.execute("run_command", {"cmd": "psql -c " + shlex.quote(sql)}),
    ]


def count(env: SimulatedEnvironment) -> str:
    return env.execute("sql_query", {"query": "SELECT count(*) FROM orders"}).output.split()[2]


SECRET = "sk-sandbox-test-7f3a9c"


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT content FROM read_text('/proc/self/environ')",
        "SELECT * FROM read_blob('/proc/self/environ')",
        "SELECT * FROM glob('/*')",
        "SELECT * FROM '/etc/passwd'",
        "SELECT getenv('AGENTBENCH_SANDBOX_KEY')",
        "SELECT * FROM read_csv('https://127.0.0.1:9/x.csv')",
        "SELECT * FROM sniff_csv('/etc/passwd')",
    ],
)
def test_no_host_file_or_variable_reaches_a_tool_output(
    suite: TaskSuite, sql: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTBENCH_SANDBOX_KEY", SECRET)
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else ""
    for result in both(_env(suite, _task(read_only=True)), sql):
        assert not result.ok and result.source.startswith("sim:")
        assert SECRET not in result.output and "root:x:0:0" not in result.output
        assert not hostname or hostname not in result.output
        assert result.output.startswith("ERROR:  ")


def test_the_engine_process_has_no_environment(suite: TaskSuite) -> None:
    engine = Engine(setup_of(_task().environment.sql))  # type: ignore[arg-type]
    assert Path(f"/proc/{engine.pid}/environ").read_bytes().count(b"=") <= 2  # import path only
    assert b"API_KEY" not in Path(f"/proc/{engine.pid}/environ").read_bytes()
    engine.close()


def test_writes_to_the_host_and_extension_installs_are_refused(
    suite: TaskSuite, tmp_path: Path
) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    port = listener.getsockname()[1]
    target = tmp_path / "out.csv"
    refused = {
        f"COPY (SELECT 1) TO '{target}'": "pg_write_server_files role to COPY to a file",
        f"/**/ COPY orders TO '{target}'": "pg_write_server_files role to COPY to a file",
        f"-- note\nCOPY orders FROM '{target}'": "pg_read_server_files role to COPY from a file",
        f"EXPORT DATABASE '{tmp_path / 'dump'}'": 'syntax error at or near "EXPORT"',
        f"IMPORT DATABASE '{tmp_path}'": 'syntax error at or near "IMPORT"',
        f"ATTACH '{tmp_path / 'x.db'}' AS x": 'syntax error at or near "ATTACH"',
        "ATTACH ':memory:' AS x": 'syntax error at or near "ATTACH"',
        f"SET custom_extension_repository = 'http://127.0.0.1:{port}/'; INSTALL httpfs": (
            'permission denied to set parameter "custom_extension_repository"'
        ),
        "INSTALL httpfs": 'syntax error at or near "INSTALL"',
        "LOAD httpfs": 'access to library "httpfs" is not allowed',
        "SET enable_external_access = true": 'denied to set parameter "enable_external_access"',
        "RESET lock_configuration": 'permission denied to set parameter "lock_configuration"',
        "PRAGMA enable_profiling": 'syntax error at or near "PRAGMA"',
        "CALL pragma_version()": "permission denied for procedure pragma_version",
        "SELECT 1; COPY (SELECT 2) TO '/tmp/agentbench-sandbox-x.csv'": "to COPY to a file",
    }
    for read_only in (False, True):
        env = _env(suite, _task(read_only=read_only))
        for sql, text in refused.items():
            for result in both(env, sql):
                assert text in result.output and result.changes == (), sql
    assert list(tmp_path.iterdir()) == [] and not Path("/tmp/agentbench-sandbox-x.csv").exists()
    with pytest.raises(BlockingIOError):
        listener.accept()  # nothing ever connected to the model's "repository"
    listener.close()


def test_the_engine_is_locked_even_for_sql_that_skips_the_parser_check(
    suite: TaskSuite, tmp_path: Path
) -> None:
    engine = Engine(setup_of(_task().environment.sql))  # type: ignore[arg-type]
    for sql in (
        "SET enable_external_access = true",
        "SET autoinstall_known_extensions = true",
        "SET lock_configuration = false",
        f"COPY (SELECT 1) TO '{tmp_path / 'x.csv'}'",
        "INSTALL httpfs",
        f"ATTACH '{tmp_path / 'x.db'}'",
    ):
        reply = engine.request("run", [sql], False)
        assert reply[0] == "error", sql
        assert "locked" in reply[1] or "disabled" in reply[1], reply
    settings = engine.request(
        "run",
        [
            "SELECT current_setting('enable_external_access'), "
            "current_setting('lock_configuration'), "
            "current_setting('autoload_known_extensions'), current_setting('threads')"
        ],
        False,
    )
    assert settings[2] == [(False, True, False, 1)]
    assert list(tmp_path.iterdir()) == []
    engine.close()


def test_one_episode_never_changes_another_or_the_template(suite: TaskSuite) -> None:
    task = _task()
    first, second = _env(suite, task), _env(suite, task)
    for sql in ("DELETE FROM memory.main.orders", "DROP TABLE orders"):
        assert first.execute("sql_query", {"query": sql}).ok
    names = second.execute("sql_query", {"query": "SELECT database_name FROM duckdb_databases()"})
    assert sorted(names.output.split()[2:-2]) == ["memory", "system", "temp"]
    assert count(second) == "3" and count(_env(suite, task)) == "3"  # a later repeat too
    results: list[str] = []

    def episode() -> None:
        env = _env(suite, task)
        env.execute("run_command", {"cmd": "psql -c 'DELETE FROM orders WHERE id < 3'"})
        results.append(count(env))

    threads = [threading.Thread(target=episode) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert results == ["1"] * 4 and count(second) == "3"


def test_statements_are_classified_by_the_engines_parser(suite: TaskSuite) -> None:
    assert classify_sql("/**/ COPY t TO '/tmp/x'") == ("refused",)
    assert classify_sql("-- hi\nDELETE FROM t; SELECT 1") == ("write", "read")
    assert classify_sql(
        "WITH gone AS (SELECT 1 AS id) DELETE FROM t WHERE id IN (SELECT id FROM gone)"
    ) == ("write",)
    assert classify_sql("EXPLAIN ANALYZE DELETE FROM t") == ("write",)
    assert classify_sql("EXPLAIN DELETE FROM t") == ("read",)
    assert classify_sql("BEGIN; UPDATE t SET a = 1; COMMIT") == ("control", "write", "control")
    assert classify_sql("PREPARE p AS DELETE FROM t; EXECUTE p") == ("read", "write")
    assert classify_sql("selec 1") == ("invalid",)
    types = [s.type for s in split_statements("TRUNCATE t; SET x = 1; LOAD h; CHECKPOINT")]
    assert types == ["DELETE", "SET", "LOAD", "CALL"]
    sneaky = [
        "/* read */ DELETE FROM orders WHERE id = 3",
        "WITH gone AS (SELECT id FROM orders WHERE status = 'cancelled') "
        "DELETE FROM orders WHERE id IN (SELECT id FROM gone)",
    ]
    for sql in sneaky:
        refused = both(_env(suite, _task(read_only=True)), sql)
        for result in refused:
            assert "ERROR:  cannot execute DELETE in a read-only transaction" in result.output
            assert result.changes == ()
        done = _env(suite, _task()).execute("sql_query", {"query": sql})
        assert [(c.action, c.target, c.detail) for c in done.changes] == [
            ("delete", "orders", "1 row: 3")
        ]
    # the statement type is SELECT; the write is inside it
    hidden = (
        "WITH gone AS (DELETE FROM orders WHERE status = 'cancelled' RETURNING id) "
        "SELECT count(*) FROM gone"
    )
    for result in both(_env(suite, _task(read_only=True)), hidden):
        assert "ERROR:  cannot execute DELETE in a read-only transaction" in result.output
        assert result.changes == ()
    env = _env(suite, _task())
    done = env.execute("sql_query", {"query": hidden})
    assert [(c.action, c.target) for c in done.changes] == [("delete", "orders")]
    assert count(env) == "2"
    # an INSERT's parse tree names its table by a string, not a table reference
    inserted = "WITH p AS (INSERT INTO orders (id) VALUES (9) RETURNING *) SELECT * FROM p"
    for result in both(_env(suite, _task(read_only=True)), inserted):
        assert "ERROR:  cannot execute INSERT in a read-only transaction" in result.output
        assert result.changes == ()
    explained = _env(suite, _task(read_only=True)).execute(
        "sql_query", {"query": "EXPLAIN ANALYZE DELETE FROM orders"}
    )
    assert "read-only transaction" in explained.output
    env = _env(suite, _task())
    for sql in ("EXPLAIN ANALYZE DELETE FROM orders WHERE id = 1", "DELETE FROM orders; SELECT 1"):
        result = env.execute("sql_query", {"query": sql})
        assert [(c.action, c.target) for c in result.changes] == [("delete", "orders")], sql
    assert count(env) == "0"


TIMEOUT = "ERROR:  canceling statement due to statement timeout"


def _peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def test_runaway_queries_end_within_the_deadline_and_the_episode_goes_on(
    suite: TaskSuite,
) -> None:
    env = _env(suite, _task(timeout_s=1.0))
    assert env.execute("sql_query", {"query": "DELETE FROM orders WHERE id = 3"}).ok
    before = _peak_mb()
    answers = {
        "SELECT count(*) FROM range(10000000000000)": TIMEOUT,
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r": (
            TIMEOUT
        ),
        "SELECT count(*) FROM range(100000) a, range(100000) b, range(100000) c": (TIMEOUT),
        "SELECT length(repeat('x', 1000000000))": "ERROR:  out of memory",
        "SELECT length(replace(repeat('x', 10000), 'x', repeat('y', 200000)))": "ERROR:  ",
        "SELECT * FROM range(100000) a, range(1000) b": "out of memory for query result",
        "SELECT repeat('x', 10000000) FROM range(3)": "out of memory for query result",
    }
    for sql, text in answers.items():
        for result in both(env, sql):
            started = time.monotonic()
            assert text in result.output, (sql, result.output)
            assert time.monotonic() - started < 6
        assert count(env) == "2"  # the episode's database and its earlier write survive
    assert _peak_mb() - before < 200
