"""The runner's hook: chosen by the local server's kind, called around every episode and the run."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from agentbench.backends.scripted import ScriptedBackend
from agentbench.backends.vllm import SpecDecodeMonitor
from agentbench.records import SCHEMA_VERSION, EpisodeResult, RunRecord, ServerInfo
from agentbench.runhooks import NoHook, hook_for
from agentbench.runner import RunConfig, Runner, results_json
from agentbench.store import ResultStore
from agentbench.tasks.loader import TaskSuite
from router import LOCAL, build_policy


class CountingHook:
    """A RunHook that counts its calls and tags every episode."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def before_run(self, run: RunRecord) -> None:
        self.calls.append("before_run")

    async def before_episode(self) -> None:
        self.calls.append("before_episode")

    async def after_episode(self, episode: EpisodeResult) -> None:
        self.calls.append("after_episode")
        episode.spec_decode = {"seen_by": "counting"}

    async def after_run(self, run: RunRecord) -> None:
        self.calls.append("after_run")

    def summary(self, episodes: Iterable[EpisodeResult]) -> dict[str, Any] | None:
        return {"episodes": sum(1 for _ in episodes)}


def test_hook_is_chosen_by_server_kind() -> None:
    assert isinstance(hook_for("vllm", None, 1), SpecDecodeMonitor)
    assert isinstance(hook_for("llama.cpp", None, 1), SpecDecodeMonitor)
    assert isinstance(hook_for("ollama", None, 1), NoHook)
    assert isinstance(hook_for("scripted", None, 1), NoHook)


def _runner(suite: TaskSuite, store: ResultStore, hook: CountingHook | None) -> Runner:
    task = suite.tasks[0]
    backend = ScriptedBackend(task.reference)
    config = RunConfig(
        target="scripted", model=backend.model, base_url=backend.base_url, task_ids=[task.id]
    )
    return Runner(
        suite.select([task.id]),
        {LOCAL: backend},
        build_policy("always-local"),
        config,
        store,
        hook=hook,
    )


async def test_runner_calls_its_hook_around_episodes_and_the_run(
    suite: TaskSuite, tmp_path: Path
) -> None:
    hook = CountingHook()
    with ResultStore(tmp_path / "r.db") as store:
        runner = _runner(suite, store, hook)
        run = runner.start(ServerInfo(kind="scripted", base_url="scripted://", model="m"))
        done = await runner.execute(run)
        episodes = store.episodes(run.run_id)
    assert hook.calls == ["before_run", "before_episode", "after_episode", "after_run"]
    assert episodes[0].spec_decode == {"seen_by": "counting"}
    assert done.summary is not None and done.summary["spec_decode"] == {"episodes": 1}
    data = json.loads(json.dumps(results_json(done, episodes)))
    assert data["schema_version"] == SCHEMA_VERSION == done.schema_version


async def test_runner_without_a_hook_takes_the_server_kinds(
    suite: TaskSuite, tmp_path: Path
) -> None:
    with ResultStore(tmp_path / "r.db") as store:
        runner = _runner(suite, store, None)
        run = runner.start(ServerInfo(kind="ollama", base_url="http://127.0.0.1:1", model="m"))
        assert isinstance(runner.hook, NoHook)
        done = await runner.execute(run)
    assert done.status == "complete" and "spec_decode" not in (done.summary or {})
