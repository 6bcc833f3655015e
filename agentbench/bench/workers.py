"""Load generation in several worker processes on one shared monotonic clock.

One Python event loop reads every stream of a repetition; past a few dozen concurrent streams
on a small machine it falls behind, reads chunks late and in bunches, and TTFT grows with the
concurrency although the server's does not (benchmarks/concurrency_curve.py measures it). With
`--workers W` the repetition's requests are split over W processes, each with its own event
loop and connections to the server. time.perf_counter is CLOCK_MONOTONIC on Linux and macOS,
one clock for every process of the machine, so each worker's send and arrival times need no
translation: the parent gives every worker the same start instant and gets back completions
timed on that clock.

A worker rebuilds the backend from a picklable recipe (OpenAI-compatible servers only), keeps
its event loop and connections across repetitions, and reports its own event-loop lag.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from agentbench.backends.base import Backend, RetryPolicy
from agentbench.bench.measure import ContextTooSmall, ForceOutput, LoopLag, complete_one
from agentbench.bench.prompts import Prompt
from agentbench.bench.scenarios import Scenario
from agentbench.errors import BackendError, ConfigError

START_MARGIN_S = 0.1  # every worker has its job well before the shared start instant


@dataclass(frozen=True)
class BackendRecipe:
    """What a worker needs to open the same OpenAI-compatible backend (no live objects)."""

    base_url: str
    model: str
    api_key: str | None
    headers: dict[str, str]
    retry: RetryPolicy
    max_tokens_field: str
    extra_body: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, backend: Backend) -> BackendRecipe:
        from agentbench.backends.openai_compat import OpenAICompatBackend

        if not isinstance(backend, OpenAICompatBackend):
            raise ConfigError(
                f"--workers needs an OpenAI-compatible server; {backend.base_url} is "
                f"{type(backend).__name__}: run with --workers 1"
            )
        return cls(
            backend.base_url, backend.model, backend.api_key, dict(backend.headers),
            backend.retry, backend.max_tokens_field, dict(backend.extra_body),
        )  # fmt: skip

    def build(self) -> Backend:
        from agentbench.backends.openai_compat import OpenAICompatBackend

        return OpenAICompatBackend(
            self.base_url, self.model, api_key=self.api_key, headers=self.headers,
            retry=self.retry, max_tokens_field=self.max_tokens_field, extra_body=self.extra_body,
        )  # fmt: skip


Outcome = tuple[Any, float, float] | BaseException


def _failure(exc: BaseException) -> tuple[str, str, str, int | None]:
    """An exception as plain data (BackendError subclasses do not all unpickle)."""
    if isinstance(exc, ContextTooSmall):
        return ("context", "context_length", str(exc), 400)
    return (
        "error",
        getattr(exc, "kind", type(exc).__name__),
        str(exc),
        getattr(exc, "status_code", None),
    )


def _restore(data: tuple[str, str, str, int | None]) -> BaseException:
    what, kind, message, status = data
    if what == "context":
        return ContextTooSmall(message)
    return BackendError(kind, message, status_code=status)


def _serve(recipe: BackendRecipe, conn: Connection) -> None:
    """A worker: one event loop and backend for its life; one job per repetition."""
    loop = asyncio.new_event_loop()
    backend = recipe.build()
    try:
        while True:
            job = conn.recv()
            if job is None:
                break
            conn.send(loop.run_until_complete(_job(backend, *job)))
    except (EOFError, KeyboardInterrupt):
        pass
    finally:
        loop.run_until_complete(backend.aclose())
        loop.close()


async def _job(
    backend: Backend, prompts: list[Prompt], scenario: Scenario, forced: bool, start_at: float
) -> tuple[list[Any], float | None, str | None]:
    force = ForceOutput(enabled=forced)
    async with LoopLag() as lag:
        delay = start_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        outcomes = await asyncio.gather(
            *(complete_one(backend, p, scenario, force) for p in prompts), return_exceptions=True
        )
    sent = [o if isinstance(o, tuple) else _failure(o) for o in outcomes]
    return sent, lag.max_s, force.rejected


class WorkerPool:
    """W worker processes (spawned once per bench) that share one repetition's requests."""

    def __init__(self, backend: Backend, workers: int) -> None:
        recipe = BackendRecipe.of(backend)
        context = multiprocessing.get_context("spawn")
        self._conns: list[Connection] = []
        self._procs = []
        for _ in range(workers):
            parent, child = context.Pipe()
            proc = context.Process(target=_serve, args=(recipe, child), daemon=True)
            proc.start()
            self._conns.append(parent)
            self._procs.append(proc)

    @property
    def size(self) -> int:
        return len(self._procs)

    async def gather(
        self, prompts: list[Prompt], scenario: Scenario, force: ForceOutput
    ) -> tuple[list[Outcome], float, float | None]:
        """Every prompt once, spread round-robin over the workers, all starting together.
        Returns the outcomes in prompt order, the start instant and the largest worker lag."""
        start = time.perf_counter() + START_MARGIN_S
        shares = [prompts[i :: self.size] for i in range(self.size)]
        for conn, share in zip(self._conns, shares, strict=True):
            conn.send((share, scenario, force.enabled, start))
        answers = await asyncio.gather(*(asyncio.to_thread(c.recv) for c in self._conns))
        outcomes: list[Outcome] = [BackendError("worker", "no answer")] * len(prompts)
        lags = []
        for index, (sent, lag, rejected) in enumerate(answers):
            for j, outcome in enumerate(sent):
                restored = _restore(outcome) if isinstance(outcome[0], str) else outcome
                outcomes[index + j * self.size] = restored
            if lag is not None:
                lags.append(lag)
            if rejected and force.enabled:
                force.enabled, force.rejected = False, rejected
        return outcomes, start, max(lags) if lags else None

    def close(self) -> None:
        for conn in self._conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        for proc in self._procs:
            proc.join(5)
            if proc.is_alive():
                proc.terminate()
