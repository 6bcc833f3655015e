"""Counterfactual replay with a fork: a confidence threshold on a `--record-both` episode.

A `--record-both` episode holds, at every step, the local model's answer (with its logprobs)
and the frontier's (the one kept). `confidence:threshold=T` decides from the local answer alone,
so its decision at each step can be read off the recording: escalate iff the local mean logprob
is below T. While the decided answer is the one the recording kept, the step is replayed (no
model call). At the first step where the threshold keeps a local answer that differs from the
kept one, the recorded trajectory no longer applies: the conversation is rebuilt from the
recorded prefix (messages, and the simulated environment's state by re-executing the recorded
tool calls in a fresh SimulatedEnvironment), the decided answer is appended and its tool calls
run, and the episode goes on LIVE with the real backends and a `confidence:threshold=T` policy.
A threshold sweep thus pays only for the divergent suffixes.

Exact up to the divergence as long as the local model answers a step the same way whatever the
earlier answers were (the reference server does: its answer depends on the step index only);
with a deterministic server the forked episode is the live run's episode.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass

from agentbench.agent.episode import EpisodeState
from agentbench.agent.loop import Agent
from agentbench.metrics.replay import answer_pairs
from agentbench.metrics.routing import same_answer
from agentbench.records import EpisodeResult, EpisodeTrace, StepRecord
from agentbench.scoring import score_episode
from agentbench.scoring.score import EpisodeScore
from agentbench.tasks.model import Task
from router import LOCAL, build_policy


@dataclass
class ForkedEpisode:
    """One recorded episode replayed at one threshold, forked live where it diverged."""

    task_id: str
    repeat: int
    threshold: float
    trace: EpisodeTrace
    score: EpisodeScore
    replayed_steps: int  # steps whose answer came from the recording (no model call)
    live_steps: int  # steps answered live after the fork
    live_calls: int  # model calls made live (an escalated live step makes two)
    diverged_at: int | None  # step index of the first divergence; None: never left the recording

    @property
    def success(self) -> bool:
        return self.score.status == "ok"

    @property
    def targets(self) -> list[str]:
        """The target that answered each kept step, in order (the per-step decisions)."""
        return [s.target for s in self.trace.steps if not s.discarded]

    @property
    def decisions(self) -> int:
        return len(self.targets)

    @property
    def escalated(self) -> int:
        return sum(t != LOCAL for t in self.targets)


class _Fork(Agent):
    """An agent that answers from the recording while the threshold's choices match it, and
    live from the first divergence (or once the recording runs out)."""

    def __init__(self, agent: Agent, pairs: list[tuple[StepRecord, StepRecord]]) -> None:
        super().__init__(agent.suite, agent.targets, agent.config)
        self.pairs = pairs
        self.replayed = 0  # steps answered from the recording
        self.diverged_at: int | None = None
        self.live_from: int | None = None  # index in trace.steps of the first live call
        self._replaying = False

    async def next_step(self, state: EpisodeState, trace: EpisodeTrace) -> StepRecord:
        index = state.ctx.step_index
        self._replaying = self.diverged_at is None and index < len(self.pairs)
        if not self._replaying:
            if self.live_from is None:
                self.live_from = len(trace.steps)
            return await super().next_step(state, trace)
        local, frontier = self.pairs[index]

        async def recorded(target: str, at: int) -> StepRecord:
            out = copy.deepcopy(local if target == LOCAL else frontier)
            out.tool_results, out.tool_time_s = [], 0.0
            out.discarded, out.target, out.index = False, target, at
            return out

        step = await self.routed_step(state, trace, recorded)
        self.replayed += 1
        if step.target == LOCAL and not same_answer(local, frontier):
            self.diverged_at = index
        return step

    async def tool_latency(self, step: StepRecord, seconds: float) -> None:
        # re-executing recorded tool calls need not wait for their simulated latency
        if not self._replaying:
            await super().tool_latency(step, seconds)


async def fork_episode(
    agent: Agent, task: Task, episode: EpisodeResult, threshold: float
) -> ForkedEpisode:
    """Replay `episode` (a --record-both episode of `task`) at `threshold`, live past the fork.

    `agent` holds the live targets (local and frontier) and the run's settings; its config must
    request logprobs, as the threshold reads the local model's.
    """
    policy = build_policy(f"confidence:threshold={threshold!r}")()
    fork = _Fork(agent, answer_pairs(episode))
    trace = await fork.run(task, policy)
    live = trace.steps[fork.live_from :] if fork.live_from is not None else []
    score = await score_episode(task, trace, agent.suite)
    return ForkedEpisode(
        task_id=task.id,
        repeat=episode.repeat,
        threshold=threshold,
        trace=trace,
        score=score,
        replayed_steps=fork.replayed,
        live_steps=sum(1 for s in live if not s.discarded),
        live_calls=len(live),
        diverged_at=fork.diverged_at,
    )


async def fork_sweep(
    agent: Agent, episodes: list[EpisodeResult], thresholds: list[float], concurrency: int = 1
) -> dict[float, list[ForkedEpisode]]:
    """`fork_episode` for every recorded episode at every threshold, N episodes at a time."""
    tasks = {t.id: t for t in agent.suite.tasks}
    semaphore = asyncio.Semaphore(max(1, concurrency))

    async def one(episode: EpisodeResult, threshold: float) -> ForkedEpisode:
        async with semaphore:
            return await fork_episode(agent, tasks[episode.task_id], episode, threshold)

    out: dict[float, list[ForkedEpisode]] = {}
    for t in thresholds:
        out[t] = list(await asyncio.gather(*(one(e, t) for e in episodes)))
    return out
