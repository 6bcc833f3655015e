"""Regular expressions a task file gives the scorer (`claims[].regex`, `facts[].patterns`,
`answer.regex`, lexicon patterns a task extends an entry with), matched on the bounded engine.

A task file is hostile input like a model's answer: Python's `re` cannot be stopped once it
backtracks (`^(a+)+$` on a line of `a`s ending in `!` never returns, and holds the GIL, so not
even SIGTERM ends the process). These patterns run on the `regex` engine with a time slice per
match (agentbench/sim/core/regex.py); one that runs past it raises `SlowPattern` naming the
pattern, and the answer check fails with that reason instead of hanging.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from agentbench.sim.core.budget import WorkExceeded
from agentbench.sim.core.regex import Pattern, compile_regex


class SlowPattern(Exception):
    """A task pattern ran past its time slice on one text (or is too big to compile)."""

    def __init__(self, pattern: str, detail: str) -> None:
        super().__init__(f"the task's pattern /{pattern[:80]}/: {detail}")
        self.pattern = pattern


class TaskPattern:
    """A task file's pattern whose every match is bounded; `SlowPattern` when it is not."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        try:
            self._compiled: Pattern = compile_regex(pattern, flags)
        except WorkExceeded as exc:
            raise SlowPattern(pattern, str(exc)) from None

    def search(self, text: str) -> Any:
        try:
            return self._compiled.search(text)
        except WorkExceeded as exc:
            raise SlowPattern(self.pattern, str(exc)) from None

    def finditer(self, text: str) -> Iterator[Any]:
        try:
            yield from self._compiled.finditer(text)
        except WorkExceeded as exc:
            raise SlowPattern(self.pattern, str(exc)) from None


@lru_cache(maxsize=8192)
def task_pattern(pattern: str, flags: int = re.IGNORECASE) -> TaskPattern:
    """The pattern compiled once for bounded matching (case-insensitive unless told)."""
    return TaskPattern(pattern, flags)
