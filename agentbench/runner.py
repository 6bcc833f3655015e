"""Run a suite: episodes for every (task, repeat), N at a time, each committed when finished.

The runner owns no metric and no rendering: it turns tasks into EpisodeResults, hands each to
the store the moment it is scored, and reports progress through a callback.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import uuid
import zlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from agentbench.agent.episode import EpisodeLoop
from agentbench.agent.loop import Agent, AgentConfig
from agentbench.backends.base import Backend
from agentbench.cost import Pricing, episode_cost, price_steps
from agentbench.errors import ConfigError, StorageError
from agentbench.metrics.summary import episode_figures, summarize
from agentbench.records import (
    SCHEMA_VERSION,
    TRANSCRIPT_FIELDS,
    EpisodeResult,
    RunRecord,
    ServerInfo,
)
from agentbench.runhooks import RunHook, hook_for
from agentbench.scoring import score_episode
from agentbench.store import ResultStore
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task
from router import LOCAL, PolicyFactory


class RunConfig(BaseModel):
    """What a run was asked to do. Never holds credentials."""

    target: str = Field(description="How the local model was named: --local/--model/--base-url.")
    model: str
    base_url: str
    router: str = "always-local"
    frontier_model: str | None = None
    frontier_base_url: str | None = None
    tool_mode: str = "native"
    repeats: int = 1
    concurrency: int = 1
    max_tokens: int | None = 1024
    temperature: float | None = 0.0
    max_steps: int | None = None
    episode_timeout_s: float | None = None
    suite: str = Field(default="default", description="Tier: default | full (families).")
    task_seed: int = Field(default=1, description="Seed the family variants were drawn from.")
    variants: int | None = Field(default=None, description="Cap on variants per family.")
    task_ids: list[str] = Field(default_factory=list)
    categories: list[str] = Field(default_factory=list)
    note: str | None = None
    logprobs: bool = False
    local_usd_per_hour: float | None = None
    prices_file: str | None = None
    agent: str = "native"  # native | langchain (agentbench.agent.langchain_agent)
    request: dict[str, Any] = Field(
        default_factory=dict, description="Sampling and extra body sent; header names only."
    )
    flags: dict[str, Any] = Field(
        default_factory=dict, description="The defining command-line flags, for --resume."
    )
    selected_tasks: list[str] = Field(default_factory=list, description="Task ids, in order.")
    task_hashes: dict[str, str] = Field(
        default_factory=dict, description="sha256 of each task file (and the tools) at start."
    )
    text_tool_calls: bool = Field(
        default=True, description="Native mode: calls left as text are read (text-parsed)."
    )
    connection: str = Field(
        default="reused",
        description="Connection policy of the model calls: reused (a kept-alive pool, as the "
        "OpenAI SDK does); each step records its connect_s and whether it reused one.",
    )

    def agent_config(self, *, logprobs: bool | None = None) -> AgentConfig:
        """The agent loop's settings for this run: the one place they are derived (a run, its
        resume and a replay fork of it all get the same loop). `logprobs` overrides the run's."""
        return AgentConfig(
            tool_mode="prompt" if self.tool_mode == "prompt" else "native",
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            max_steps=self.max_steps,
            episode_timeout_s=self.episode_timeout_s,
            logprobs=self.logprobs if logprobs is None else logprobs,
            text_tool_calls=self.text_tool_calls,
        )


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


Progress = Callable[[EpisodeResult], None]


class Runner:
    def __init__(
        self,
        suite: TaskSuite,
        targets: dict[str, Backend],
        policy_factory: PolicyFactory,
        config: RunConfig,
        store: ResultStore,
        pricing: Pricing | None = None,
        hook: RunHook | None = None,
    ) -> None:
        self.suite = suite
        self.targets = targets
        self.policy_factory = policy_factory
        self.config = config
        self.store = store
        self.pricing = pricing or Pricing.build(config.prices_file, config.local_usd_per_hour)
        # Server-side figures read around episodes / the run; chosen by server kind in start()
        self.hook: RunHook | None = hook
        agent_config = config.agent_config()
        self.agent: EpisodeLoop[Any]
        if config.agent == "langchain":
            from agentbench.agent.langchain_agent import LangChainAgent

            self.agent = LangChainAgent(suite, targets, agent_config, router_spec=config.router)
        else:
            self.agent = Agent(suite, targets, agent_config)

    def start(self, server: ServerInfo, resume: RunRecord | None = None) -> RunRecord:
        if self.hook is None:
            self.hook = hook_for(server.kind, self.targets.get(LOCAL), self.config.concurrency)
        if resume is not None:
            resume.status = "running"
            self.store.save_run(resume)
            return resume
        run = RunRecord(
            run_id=new_run_id(),
            created_at=now_iso(),
            task_dir=str(self.suite.root),
            config=self.config.model_dump(),
            server=server,
        )
        self.store.save_run(run)
        return run

    def pending(self, run: RunRecord) -> list[tuple[Task, int]]:
        done = self.store.done_keys(run.run_id)
        return [
            (task, repeat)
            for repeat in range(self.config.repeats)
            for task in self.suite.tasks
            if (task.id, repeat) not in done
        ]

    async def run_episode(self, run_id: str, task: Task, repeat: int) -> EpisodeResult:
        started = now_iso()
        policy = self.policy_factory()
        trace = await self.agent.run(task, policy)
        attribute = getattr(policy, "attribute", None)
        if attribute is not None:  # an external router: who served each call
            for step in trace.steps:
                decided = attribute(step.model)
                step.target = decided.target
                if step.router is not None:
                    step.router.target, step.router.reason = decided.target, decided.reason
        price_steps(trace.steps, self.pricing)
        scored = await score_episode(task, trace, self.suite)
        figures = episode_figures(trace.steps)
        return EpisodeResult(
            run_id=run_id,
            task_id=task.id,
            category=task.category,
            difficulty=task.difficulty,
            step_kind=task.step_kind,
            repeat=repeat,
            status=scored.status,
            score=scored.score,
            checks=scored.checks,
            explanation=scored.explanation,
            final_answer=trace.final_answer,
            steps=trace.steps,
            time_to_done_s=trace.time_to_done_s,
            router_time_s=trace.router_time_s,
            tool_mode=self.config.tool_mode,
            started_at=started,
            cost_usd=episode_cost(trace.steps),
            simulator_errors=trace.simulator_errors,
            **figures,
        )

    async def execute(self, run: RunRecord, progress: Progress | None = None) -> RunRecord:
        """Run every pending episode; each is committed before it is reported."""
        hook = self._hook()
        semaphore = asyncio.Semaphore(max(1, self.config.concurrency))

        async def one(task: Task, repeat: int) -> None:
            async with semaphore:
                await hook.before_episode()
                episode = await self.run_episode(run.run_id, task, repeat)
                await hook.after_episode(episode)
                self.store.add_episode(episode)
                if progress:
                    progress(episode)

        await hook.before_run(run)
        jobs = [asyncio.ensure_future(one(t, r)) for t, r in self.pending(run)]
        try:
            await asyncio.gather(*jobs)
        except BaseException as exc:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
            with contextlib.suppress(StorageError):  # a full disk may refuse this one too
                self.finish(run, "interrupted")
            if isinstance(exc, StorageError):
                raise StorageError(f"{exc} {run.run_id}") from exc
            raise
        await hook.after_run(run)
        return self.finish(run, "complete")

    def finish(self, run: RunRecord, status: str) -> RunRecord:
        run.status = status
        run.summary = summarize(self.store.iter_episodes(run.run_id)).model_dump()
        spec = self._hook().summary(self.store.iter_episodes(run.run_id))
        if spec:
            run.summary["spec_decode"] = spec
        self.store.save_run(run)
        return run

    def _hook(self) -> RunHook:
        if self.hook is None:
            raise RuntimeError("Runner.start() chooses the run hook; call it before execute()")
        return self.hook


def results_json(
    run: RunRecord, episodes: list[EpisodeResult], transcripts: bool = False
) -> dict[str, Any]:
    """The JSON results contract of docs/design.md#results-contract (stable keys; more are
    added freely; `schema_version` says which contract). With `transcripts`, each step also
    carries what it sent and the raw stream parts (docs/transcripts.md); the episodes must have
    been read with them (ResultStore.episodes(..., transcripts=True))."""
    left_out = set() if transcripts else set(TRANSCRIPT_FIELDS)
    return {
        "schema_version": SCHEMA_VERSION,
        "run_id": run.run_id,
        "created_at": run.created_at,
        "status": run.status,
        "config": run.config,
        "server": run.server.model_dump() if run.server else None,
        "summary": run.summary,
        "episodes": [
            {
                **e.model_dump(exclude={"steps"}),
                "steps": [s.model_dump(exclude=left_out) for s in e.steps],
            }
            for e in episodes
        ],
    }


RESULTS_JSON_MAX_BYTES = 512 * 1024 * 1024  # a results JSON read back, decompressed


def read_results_json(path: Path) -> tuple[dict[str, Any], list[EpisodeResult]]:
    """A results JSON written by `results_json` (`agentbench run --json`), plain or gzipped:
    the run's keys (config, server, summary, ...) and its episodes. A file that is not one, or
    decompresses past RESULTS_JSON_MAX_BYTES, is a ConfigError naming it."""
    try:
        with gzip.open(path) if path.name.endswith(".gz") else path.open("rb") as f:
            data = f.read(RESULTS_JSON_MAX_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:  # zlib.error: a corrupt gzip stream
        raise ConfigError(f"{path}: cannot read it ({exc})") from None
    if len(data) > RESULTS_JSON_MAX_BYTES:
        raise ConfigError(f"{path}: over {RESULTS_JSON_MAX_BYTES:,} bytes; not a results JSON")
    try:
        run = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise ConfigError(f"{path}: not JSON ({exc}); give a `run --json` file") from None
    if not isinstance(run, dict) or not isinstance(run.get("episodes"), list):
        raise ConfigError(f"{path}: no 'episodes' list; give a `run --json` file")
    version = run.get("schema_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise ConfigError(
            f"{path}: schema_version {version!r}; this agentbench reads up to {SCHEMA_VERSION}"
        )
    episodes = []
    for i, episode in enumerate(run["episodes"]):
        try:
            episodes.append(EpisodeResult.model_validate(episode))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ConfigError(f"{path}: episode {i}: field '{where}': {first['msg']}") from None
    return {k: v for k, v in run.items() if k != "episodes"}, episodes
