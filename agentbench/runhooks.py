"""Run hooks: server-side figures read around each episode and around the whole run.

The runner calls a `RunHook` before and after the run and every episode, and puts its
`summary` in the run summary. Which hook runs depends on the kind of server the local target is
(`ServerInfo.kind`, from the server's self-description): servers that may draft speculatively
get the speculative-decoding monitor (vLLM's `/metrics` counters, llama.cpp's per-request
`timings`); the others get `NoHook`. A new server kind with figures of its own registers a hook
here, and the runner stays unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from agentbench.backends.base import Backend
from agentbench.backends.vllm import SpecDecodeMonitor
from agentbench.records import EpisodeResult, RunRecord


class RunHook(Protocol):
    async def before_run(self, run: RunRecord) -> None: ...

    async def before_episode(self) -> None: ...

    async def after_episode(self, episode: EpisodeResult) -> None:
        """May attach figures to the episode before it is stored."""

    async def after_run(self, run: RunRecord) -> None: ...

    def summary(self, episodes: Iterable[EpisodeResult]) -> dict[str, Any] | None:
        """What goes into the run summary under the hook's key; None: nothing to add."""


class NoHook:
    """For servers with no figures of their own to read around episodes."""

    async def before_run(self, run: RunRecord) -> None:
        return None

    async def before_episode(self) -> None:
        return None

    async def after_episode(self, episode: EpisodeResult) -> None:
        return None

    async def after_run(self, run: RunRecord) -> None:
        return None

    def summary(self, episodes: Iterable[EpisodeResult]) -> dict[str, Any] | None:
        return None


HookFactory = Callable[[Backend | None, int], RunHook]

# Server kinds (backends.introspect, backends.ollama) -> the hook that reads their figures.
# The reference server mimics vLLM's drafter counters; an unidentified OpenAI-compatible server
# is probed once (the monitor stays inactive when it shows no counters).
RUN_HOOKS: dict[str, HookFactory] = {
    "vllm": SpecDecodeMonitor,
    "refserver": SpecDecodeMonitor,
    "llama.cpp": SpecDecodeMonitor,
    "llama-cpp-python": SpecDecodeMonitor,
    "openai-compatible": SpecDecodeMonitor,
}


def hook_for(server_kind: str, backend: Backend | None, concurrency: int) -> RunHook:
    """The run hook for a local server of this kind (`NoHook` for kinds without one)."""
    factory = RUN_HOOKS.get(server_kind)
    return NoHook() if factory is None else factory(backend, concurrency)
