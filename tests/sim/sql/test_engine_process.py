"""The engine processes behind SQL (issue 21): a lost one is replaced with the episode's
writes, and none outlives a killed harness."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from agentbench.tasks.loader import TaskSuite
from tests.sim.sql.test_sandbox import _env, _task, count


def test_a_lost_engine_is_restarted_with_the_episodes_writes(suite: TaskSuite) -> None:
    env = _env(suite, _task())
    assert env.execute("sql_query", {"query": "DELETE FROM orders WHERE id = 1"}).ok
    db: Any = env.world.sql
    engine = db.session._engine
    os.kill(engine.pid, signal.SIGKILL)
    lost = env.execute("run_command", {"cmd": "psql -c 'SELECT 1'"})
    assert "server closed the connection unexpectedly" in lost.output and lost.exit_code == 2
    assert count(env) == "2"  # a fresh engine, the committed delete replayed
    assert env.world.identify("sql_query", {"query": "DELETE FROM orders"}) is not None
    assert count(env) == "2"  # a dry run is rolled back


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_engine_processes_end_with_a_killed_harness() -> None:
    script = (
        "import sys, time\n"
        "from agentbench.sim.sql.spec import SqlSpec, TableSpec\n"
        "from agentbench.sim.sql.engine import Engine, setup_of, _SERVER\n"
        "e = Engine(setup_of(SqlSpec(tables={'t': TableSpec(columns={'a': 'int'})})))\n"
        "print(e.pid, _SERVER[0][0].pid, flush=True)\n"
        "e.request('run', ['SELECT count(*) FROM range(10000000000000)'], False)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])}
    harness = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env
    )
    assert harness.stdout is not None
    engine, server = map(int, harness.stdout.readline().split())
    time.sleep(0.5)  # the engine is busy with a statement that would run for hours
    harness.kill()
    harness.wait()
    deadline = time.monotonic() + 15  # the statement timeout (10 s) at the latest
    while (_alive(engine) or _alive(server)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(server) and not _alive(engine)
