"""The work one tool call may do: a deadline, a step budget and byte caps, checked as it runs.

A tool call runs in a worker thread (agentbench/agent/toolrun.py) and Python cannot stop a
thread, so every simulator a model's input can make loop or grow stops itself: awk, jq, sed,
sort, the shell and kubectl's YAML charge `step()` per unit of work and `value()`/`built()`
for what they build; regular expressions run with a time slice (sim/core/regex.py). Past a limit
the call raises `WorkExceeded`, which the shell turns into what a real sandbox shows for a
killed command (its text, exit 124 or 137), and the tool result records the limit's name
(`ToolResultRecord.limit`). `cancel()` (the agent loop abandoning the call: the episode's
time ran out, or the run was stopped) makes the next check raise, so an abandoned thread ends
within one check.

The budget of the running call is a context variable, installed by `bounded()`; code that runs
outside any (a unit test calling `awk()`) gets a fresh budget per `current()` call.
"""

from __future__ import annotations

import contextlib
import math
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from agentbench.sim.core.base import CommandResult

MiB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """What one tool call may use. The defaults leave real one-liners 10x and more headroom."""

    seconds: float = 10.0  # wall time of the call's simulation
    steps: int = 2_000_000  # interpreter steps (an awk expression, a jq value, a sed command)
    value_bytes: int = 4 * MiB  # one string or JSON value (a printf width, a jq input)
    total_bytes: int = 32 * MiB  # all the text the call builds: outputs, pipes, strings
    fields: int = 32_767  # awk's highest field index (mawk's limit)
    # one regular-expression match on one line; the engine looks at its clock seldom, so a
    # match stops 2-4 times later than this
    regex_seconds: float = 0.3


class WorkExceeded(Exception):
    """The call went past a limit: `limit` names it, `detail` says what was seen."""

    def __init__(self, limit: str, detail: str, exit_code: int, *, prefix: bool = True) -> None:
        super().__init__(detail)
        self.limit = limit
        self.detail = detail
        self.exit_code = exit_code
        self.prefix = prefix  # the program's name leads the line (else `detail` is the line)

    def result(self, program: str) -> CommandResult:
        """What the command shows: its own error line and the code of a killed process."""
        return CommandResult(
            stderr=f"{program}: {self.detail}\n" if self.prefix else f"{self.detail}\n",
            exit_code=self.exit_code,
            timed_out=True,
            limit=self.limit,
        )


class Budget:
    """The counters of one call. `exceeded` keeps the first limit hit (later checks raise it
    again, so a loop that caught one error stops at the next step)."""

    _CLOCK_EVERY = 256  # steps between two looks at the clock

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.started = time.monotonic()
        self.deadline = self.started + self.limits.seconds
        self.steps = 0
        self.bytes = 0
        self.exceeded: WorkExceeded | None = None
        self.cancelled = False
        self._next_clock = self._CLOCK_EVERY
        self._on_cancel: list[Callable[[], object]] = []
        self._sizes: dict[int, tuple[object, int]] = {}  # id -> (value, JSON size)

    def fail(self, error: WorkExceeded) -> WorkExceeded:
        if self.exceeded is None:
            self.exceeded = error
        return self.exceeded

    def check(self) -> None:
        """Raise if the call was cancelled, ran out of time, or already went past a limit."""
        if self.exceeded is not None:
            raise self.exceeded
        if self.cancelled:
            raise self.fail(
                WorkExceeded("cancelled", "terminated: the episode ended during the call", 143)
            )
        if time.monotonic() > self.deadline:
            raise self.fail(self._late())

    def _late(self) -> WorkExceeded:
        seconds = f"{self.limits.seconds:g}"
        return WorkExceeded(
            "time", f"terminated: the tool call ran past its time limit of {seconds} s", 124
        )

    def step(self, n: int = 1) -> None:
        """Charge `n` units of work."""
        self.steps += n
        if self.steps > self.limits.steps:
            raise self.fail(
                WorkExceeded(
                    "steps",
                    f"terminated: the tool call ran past its work limit of "
                    f"{self.limits.steps:,} steps",
                    124,
                )
            )
        if self.steps >= self._next_clock or self.exceeded is not None or self.cancelled:
            self._next_clock = self.steps + self._CLOCK_EVERY
            self.check()

    def value(self, size: int, what: str = "a value") -> None:
        """One string or value of `size` bytes is about to be built."""
        if size > self.limits.value_bytes:
            raise self.fail(
                WorkExceeded(
                    "value_bytes",
                    f"out of memory: {what} of {size:,} bytes is over the limit of "
                    f"{self.limits.value_bytes:,} bytes for one value",
                    137,
                )
            )

    def built(self, size: int) -> None:
        """`size` more bytes of text were built (an output, a pipe, a string)."""
        self.bytes += size
        self.step(1 + size // 4096)
        if self.bytes > self.limits.total_bytes:
            raise self.fail(
                WorkExceeded(
                    "total_bytes",
                    f"out of memory: the tool call built more than "
                    f"{self.limits.total_bytes:,} bytes of text",
                    137,
                )
            )

    def text(self, value: str, what: str = "a string") -> str:
        """Check and charge a string just built; returns it."""
        self.value(len(value), what)
        self.built(len(value))
        return value

    def regex_timeout(self, wait: float | None = None) -> float:
        """Seconds of wall time one regular-expression match may take now: the slice, or
        `wait` for a match run again (sim/core/regex.py); at least a little, so that a match
        started just before the deadline fails as a timeout, not as a crash."""
        self.check()
        left = self.deadline - time.monotonic()
        return max(0.01, min(wait or self.limits.regex_seconds, left))

    def cancel(self) -> None:
        """Called from another thread: the call is abandoned; stop at the next check."""
        self.cancelled = True
        self._interrupt()

    def expire(self) -> None:
        """Called from another thread at the deadline: the call may be blocked where no step
        reaches (a database engine), so record the time limit and interrupt it."""
        self.fail(self._late())
        self._interrupt()

    def _interrupt(self) -> None:
        for hook in list(self._on_cancel):
            with contextlib.suppress(Exception):  # best effort (an engine already closed)
                hook()

    def on_cancel(self, hook: Callable[[], object]) -> None:
        """Run `hook` when the call is abandoned or expires (an engine's own interrupt)."""
        self._on_cancel.append(hook)

    def size_of(self, value: Any) -> int:
        """The bytes `value` takes as JSON text, every shared part counted each time it appears
        (a YAML alias, a jq `[., .]`), computed once per container and charged as steps; a
        value over `value_bytes` raises. A value that contains itself raises ValueError."""
        if not isinstance(value, list | dict):
            return _scalar_size(value)
        sizes = self._sizes
        if id(value) in sizes:
            return sizes[id(value)][1]
        open_: set[int] = set()
        stack: list[tuple[Any, bool]] = [(value, False)]
        while stack:
            node, children_done = stack.pop()
            key = id(node)
            if not children_done and key in sizes:
                continue
            items = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
            if not children_done:
                if key in open_:
                    raise ValueError("a value that contains itself")
                open_.add(key)
                self.step(1 + len(items))
                stack.append((node, True))
                for _, child in items:
                    if isinstance(child, list | dict) and id(child) not in sizes:
                        if id(child) in open_:
                            raise ValueError("a value that contains itself")
                        stack.append((child, False))
                continue
            total = 2
            for k, child in items:
                if isinstance(node, dict):
                    total += _scalar_size(k) + 1
                total += (
                    sizes[id(child)][1] if isinstance(child, list | dict) else (_scalar_size(child))
                )
                total += 1
            self.value(total)
            sizes[key] = (node, total)
            open_.discard(key)
        return sizes[id(value)][1]


def fetch_rows(cursor: Any, width: int, chunk: int = 1024) -> list[Any]:
    """Every row of a database cursor, fetched a chunk at a time with each cell charged (a step,
    and the bytes a Python value takes), so a query that returns millions of rows ends at the
    call's limits instead of being materialised whole in Python."""
    budget = current()
    rows: list[Any] = []
    while batch := cursor.fetchmany(chunk):
        cells = len(batch) * max(1, width)
        budget.step(cells)
        budget.built(64 * cells)
        rows += batch
    return rows


def _scalar_size(value: Any) -> int:
    if isinstance(value, str):
        return len(value) + 2
    if value is None or isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return len(str(value)) if abs(value) < 10**18 else value.bit_length() * 3 // 10 + 2
    return 24


_CONVERSION = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(\*|\d+)?(?:\.(\*|\d*))?[hlL]?(.)", re.S)


def format_size(fmt: str, args: tuple[Any, ...]) -> int:
    """An upper bound on the length of `fmt % args` (printf's widths and precisions, `*` ones
    taken from the arguments), to check before Python builds it."""
    total = len(fmt)
    queue = list(args)
    for match in _CONVERSION.finditer(fmt):
        if match.group(3) == "%":
            continue
        widths = [0]
        for spec in (match.group(1), match.group(2)):
            if spec == "*":
                star = queue.pop(0) if queue else 0
                finite = isinstance(star, int | float) and math.isfinite(star)
                widths.append(abs(int(star)) if finite else 0)
            elif spec:
                widths.append(int(spec) if len(spec) < 12 else 10**12)
        arg = queue.pop(0) if queue else ""
        total += max(widths) + (len(arg) if isinstance(arg, str) else 330)
    return total


_ACTIVE: ContextVar[Budget | None] = ContextVar("agentbench_tool_budget", default=None)


def current() -> Budget:
    """The budget of the running tool call (a fresh one outside any)."""
    return _ACTIVE.get() or Budget()


def active() -> Budget | None:
    """The budget installed by `bounded()`, if any."""
    return _ACTIVE.get()


@contextmanager
def bounded(budget: Budget | None = None) -> Iterator[Budget]:
    """Run the block under `budget` (a fresh one if None); inside another `bounded()` without
    a budget of its own, the block shares the outer one (one call, one budget)."""
    outer = _ACTIVE.get()
    if budget is None and outer is not None:
        yield outer
        return
    chosen = budget or Budget()
    token = _ACTIVE.set(chosen)
    try:
        yield chosen
    finally:
        _ACTIVE.reset(token)
