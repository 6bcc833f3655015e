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
from dataclasses import dataclass, replace

from agentbench.agent.loop import Agent, EpisodeTrace, assess
from agentbench.metrics.replay import answer_pairs
from agentbench.metrics.routing import same_answer
from agentbench.records import EpisodeResult, RouterDecisionRecord, StepRecord
from agentbench.scoring import score_trace
from agentbench.scoring.score import EpisodeScore
from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.model import Task
from router import LOCAL, StepContext, build_policy


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


def _from_recording(step: StepRecord, target: str, policy: str, reason: str,
                    discarded: bool) -> StepRecord:
    out = copy.deepcopy(step)
    out.tool_results = []
    out.tool_time_s = 0.0
    out.discarded = discarded
    out.target = target
    out.router = RouterDecisionRecord(target=target, policy=policy, reason=reason,
                                      decision_s=0.0)
    return out


async def fork_episode(agent: Agent, task: Task, episode: EpisodeResult,
                       threshold: float) -> ForkedEpisode:
    """Replay `episode` (a --record-both episode of `task`) at `threshold`, live past the fork.

    `agent` holds the live targets (local and frontier) and the run's settings; its config must
    request logprobs, as the threshold reads the local model's.
    """
    policy = build_policy(f"confidence:threshold={threshold!r}")()
    # re-executing recorded tool calls need not wait for their simulated latency
    quiet = Agent(agent.suite, agent.targets, replace(agent.config, simulate_latency=False))
    native = agent.config.tool_mode == "native"
    env = SimulatedEnvironment(task, agent.suite.tools, agent.suite.grammar)
    tools = [agent.suite.tools[n].openai_schema() for n in task.tools]
    messages = agent._initial_messages(task)
    ctx = StepContext(0, task.step_kind, messages, tools)
    trace = EpisodeTrace()
    replayed = 0
    diverged_at: int | None = None
    budget = agent.config.max_steps or task.max_steps
    for index, (local, frontier) in enumerate(answer_pairs(episode)):
        if index >= budget:
            break
        ctx.step_index = index
        choice = policy.choose(ctx)
        step = _from_recording(local, LOCAL, policy.name, choice.reason, False)
        step.index = len(trace.steps)
        trace.steps.append(step)
        review = policy.review(ctx, assess(local, tools))
        if review is not None and review.target != LOCAL:
            step.discarded = True
            step = _from_recording(frontier, review.target, policy.name, review.reason, False)
            step.index = len(trace.steps)
            trace.steps.append(step)
        elif not same_answer(local, frontier):
            diverged_at = index
        replayed += 1
        if await quiet.after_step(step, trace, ctx, env, messages, native):
            break
        if diverged_at is not None:
            break
    kept_before = len(trace.steps)
    if trace.status == "running":  # diverged, or the recording ended without an outcome
        await agent.resume(task, policy, trace, env, ctx)
    trace.state = env.state
    live = trace.steps[kept_before:]
    return ForkedEpisode(
        task_id=task.id, repeat=episode.repeat, threshold=threshold, trace=trace,
        score=score_trace(task, trace, agent.suite), replayed_steps=replayed,
        live_steps=sum(1 for s in live if not s.discarded), live_calls=len(live),
        diverged_at=diverged_at,
    )


async def fork_sweep(agent: Agent, episodes: list[EpisodeResult], thresholds: list[float],
                     concurrency: int = 1) -> dict[float, list[ForkedEpisode]]:
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
