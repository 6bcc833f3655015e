"""Regular expressions from a model: POSIX BRE/ERE (grep's, sed's, awk's) translated to Python's
syntax, compiled and matched under the running call's budget (sim/core/budget.py).

Python's `re` backtracks without a way to stop it (`(a+)+b` on a line of `a`s never returns),
so patterns run on the `regex` engine, which takes a timeout per match and releases the GIL
while it matches: one match may take `Limits.regex_seconds` of the matching thread's CPU time,
else the call ends with grep's "too expensive" error. The engine's timeout is wall time, which a
busy process (episodes streaming, a scorer beside them) stretches: a match that times out having
used less CPU than the slice is run again with a longer timeout, so a verdict never depends on
the load (`_patient`). That engine expands counted repeats when it compiles, so a pattern whose
expansion (`((a{100}){100}){100}`) is over `MAX_WEIGHT` is refused first, as GNU grep refuses
"regular expression too big". Backreferences work (the engine backtracks, within the slice).
"""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Callable, Iterator
from functools import lru_cache
from re import _parser  # type: ignore[attr-defined]
from typing import Any

import regex as _engine

from agentbench.sim.core.budget import Budget, WorkExceeded, current

MAX_WEIGHT = 20_000  # pattern items after counted repeats are expanded
_FLAGS = (
    (re.IGNORECASE, _engine.IGNORECASE),
    (re.MULTILINE, _engine.MULTILINE),
    (re.DOTALL, _engine.DOTALL),
    (re.VERBOSE, _engine.VERBOSE),
)

_CLASSES = {
    "[:alpha:]": "a-zA-Z",
    "[:digit:]": "0-9",
    "[:alnum:]": "a-zA-Z0-9",
    "[:upper:]": "A-Z",
    "[:lower:]": "a-z",
    "[:space:]": r"\s",
    "[:blank:]": r" \t",
    "[:punct:]": r"!-/:-@\[-`{-~",
    "[:xdigit:]": "0-9A-Fa-f",
}


def translate(pattern: str, *, extended: bool) -> str:
    """A POSIX pattern as a Python one. In a BRE, `\\(` `\\)` `\\|` `\\{` `\\}` `\\+` `\\?` are
    the operators and the bare characters are literal; in an ERE it is the other way round."""
    for name, chars in _CLASSES.items():
        pattern = pattern.replace(name, chars)
    if extended:
        return pattern
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(nxt if nxt in "(){}|+?" else c + nxt)
            i += 2
            continue
        if c == "[":  # a bracket expression is copied as is
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("]", "^") else i + 1)
            if end > 0:
                out.append(pattern[i : end + 1])
                i = end + 1
                continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


def compile_pattern(
    patterns: list[str],
    *,
    extended: bool = False,
    fixed: bool = False,
    ignore_case: bool = False,
    word: bool = False,
    line: bool = False,
) -> Pattern:
    """One regex matching any of `patterns` (grep's -e list), with grep's -F -i -w -x."""
    parts = [re.escape(p) if fixed else translate(p, extended=extended) for p in patterns]
    body = "|".join(f"(?:{p})" for p in parts)
    if word:
        body = rf"(?<!\w)(?:{body})(?!\w)"
    if line:
        body = rf"^(?:{body})$"
    return compile_regex(body, re.IGNORECASE if ignore_case else 0)


class Pattern:
    """A compiled pattern whose every match is bounded by the running call's budget."""

    def __init__(self, compiled: Any, source: str) -> None:
        self._compiled = compiled
        self.pattern = source

    def _bounded(self, run: Callable[[float], Any]) -> Any:
        budget = current()
        budget.step()
        return _patient(budget, run)

    @property
    def groups(self) -> int:
        return int(self._compiled.groups)

    def search(self, text: str, pos: int = 0) -> Any:
        return self._bounded(lambda t: self._compiled.search(text, pos, timeout=t, concurrent=True))

    def match(self, text: str) -> Any:
        return self._bounded(lambda t: self._compiled.match(text, timeout=t, concurrent=True))

    def fullmatch(self, text: str) -> Any:
        return self._bounded(lambda t: self._compiled.fullmatch(text, timeout=t, concurrent=True))

    def finditer(self, text: str) -> Iterator[Any]:
        """The matches one by one, each a step and its share of the call's bytes (`x*` on a
        long line matches at every position). A match run again with a longer timeout restarts
        the scan where the last match ended, past an empty match already given there."""
        budget = current()
        found: Iterator[Any] = iter(())
        scanning: float | None = None  # the timeout `found` was made with
        end, empty_at = 0, -1

        def following(timeout: float) -> Any:
            nonlocal found, scanning
            fresh = scanning != timeout
            if fresh:
                scanning = timeout
                found = self._compiled.finditer(text, end, timeout=timeout, concurrent=True)
            match = next(found, None)
            if fresh and match is not None and match.span() == (empty_at, empty_at):
                match = next(found, None)
            return match

        while True:
            match = self._bounded(following)
            if match is None:
                return
            end = match.end()
            empty_at = end if match.start() == end else -1
            budget.built(48)
            yield match

    def subn(self, repl: str, text: str, count: int = 0) -> tuple[str, int]:
        """`re.subn`, the result's size checked as it is built (a replacement of many `&`s
        on a long line would otherwise be built whole before it could be refused)."""
        budget = current()
        size, last = 0, 0

        def replace(match: Any) -> str:
            nonlocal size, last
            budget.step()
            piece = str(match.expand(repl))
            size += match.start() - last + len(piece)
            last = match.end()
            budget.value(size, "the result of a substitution")
            return piece

        def run(t: float) -> tuple[str, int]:
            nonlocal size, last
            size, last = 0, 0  # a run again starts the result afresh
            return tuple(
                self._compiled.subn(replace, text, count=count, timeout=t, concurrent=True)
            )

        new, made = self._bounded(run)
        budget.text(new, "the result of a substitution")
        return new, made

    def split(self, text: str) -> list[str]:
        return list(self._bounded(lambda t: self._compiled.split(text, timeout=t, concurrent=True)))


_GROWTH = 4  # each run again waits this many times longer
_TRIES = 5  # runs at most, all within the call's deadline


def _patient(budget: Budget, run: Callable[[float], Any]) -> Any:
    """`run(timeout)` until it returns within its timeout, or has used the slice's CPU time.

    The engine's timeout is wall time; CPU time is the work the pattern did. A run that timed
    out on less CPU than the slice waited for the processor (other threads, other processes),
    so it runs again with a longer timeout, within the call's own deadline; the CPU of every
    run counts, so a pattern that backtracks without end still fails after its slice of work.
    """
    limit = budget.limits.regex_seconds
    used, wait = 0.0, limit
    for _ in range(_TRIES):
        timeout = budget.regex_timeout(wait)
        began = time.thread_time()
        try:
            return run(timeout)
        except TimeoutError:
            used += time.thread_time() - began
            if used >= limit * 0.9 or timeout < limit:  # did its work, or met the deadline
                break
            wait = timeout * _GROWTH
    seconds = f"{limit:g}"
    raise budget.fail(
        WorkExceeded(
            "regex",
            f"regular expression too expensive: matching one line took over {seconds} s",
            2,
        )
    ) from None


def compile_regex(pattern: str, flags: int = 0) -> Pattern:
    """`pattern` (Python syntax) compiled on the bounded engine; a bad one raises `re.error`,
    one too big to compile raises `WorkExceeded` (grep's "regular expression too big")."""
    return _compile(pattern, flags)


def search(pattern: str, text: str, flags: int = 0) -> Any:
    """`re.search` on the bounded engine."""
    return compile_regex(pattern, flags).search(text)


@lru_cache(maxsize=512)
def _compile(pattern: str, flags: int) -> Pattern:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            weight = _weight(_parser.parse(pattern, flags))
    except RecursionError:
        weight = MAX_WEIGHT + 1
    if weight > MAX_WEIGHT:
        raise WorkExceeded("regex", "regular expression too big", 2)
    engine_flags = _engine.VERSION0
    for python_flag, engine_flag in _FLAGS:
        if flags & python_flag:
            engine_flags |= engine_flag
    try:
        return Pattern(_engine.compile(pattern, engine_flags), pattern)
    except _engine.error as exc:
        raise re.error(str(exc)) from None
    except RecursionError:
        raise WorkExceeded("regex", "regular expression too big", 2) from None


def _weight(parsed: Any) -> int:
    """Pattern items once counted repeats are expanded (the size the engine compiles to)."""
    total = 0
    for op, av in parsed:
        if op in (_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT):
            low, high, sub = av
            times = low if high == _parser.MAXREPEAT else high
            total += max(1, times) * _weight(sub)
        elif op is _parser.SUBPATTERN:
            total += 1 + _weight(av[3])
        elif op is _parser.BRANCH:
            total += 1 + sum(_weight(branch) for branch in av[1])
        elif op in (_parser.ASSERT, _parser.ASSERT_NOT):
            total += 1 + _weight(av[1])
        elif op is _parser.ATOMIC_GROUP:
            total += 1 + _weight(av)
        elif op is _parser.GROUPREF_EXISTS:
            total += 1 + _weight(av[1]) + (_weight(av[2]) if av[2] else 0)
        else:
            total += 1
        if total > MAX_WEIGHT:
            return total
    return total
