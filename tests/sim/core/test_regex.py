"""A match's slice is CPU time, not wall time: a match that timed out while it waited for the
processor runs again, so a verdict (a grep's result, a scorer's pattern) never depends on the
load; a pattern that does its slice of work still fails."""

from __future__ import annotations

import re
import threading
import time

import pytest

from agentbench.sim.core.budget import Budget, Limits, WorkExceeded, bounded
from agentbench.sim.core.regex import Pattern, _patient, compile_regex


def test_a_match_that_waited_runs_again_with_a_longer_timeout():
    timeouts: list[float] = []

    def run(timeout: float) -> str:
        timeouts.append(timeout)
        if len(timeouts) == 1:
            time.sleep(timeout)  # the wall slice passed with no work done: the processor was busy
            raise TimeoutError
        return "matched"

    assert _patient(Budget(Limits(regex_seconds=0.05)), run) == "matched"
    assert len(timeouts) == 2 and timeouts[1] > timeouts[0]


def test_a_match_that_did_its_slice_of_work_fails_at_once():
    runs = 0

    def run(timeout: float) -> str:
        nonlocal runs
        runs += 1
        end = time.thread_time() + timeout
        while time.thread_time() < end:
            pass
        raise TimeoutError

    with pytest.raises(WorkExceeded, match="regular expression too expensive"):
        _patient(Budget(Limits(regex_seconds=0.05)), run)
    assert runs == 1


def test_waiting_runs_stop_at_the_calls_deadline():
    def run(timeout: float) -> str:
        time.sleep(timeout)
        raise TimeoutError

    started = time.monotonic()
    with pytest.raises(WorkExceeded):
        _patient(Budget(Limits(seconds=0.5, regex_seconds=0.05)), run)
    assert time.monotonic() - started < 2.0


def test_backtracking_without_end_still_fails_beside_busy_threads():
    stop = threading.Event()

    def busy() -> None:
        while not stop.is_set():
            sum(range(1000))

    threads = [threading.Thread(target=busy, daemon=True) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        with (
            bounded(Budget(Limits(regex_seconds=0.1))),
            pytest.raises(WorkExceeded, match="too expensive"),
        ):
            compile_regex(r"^(a|a)+$").search("a" * 40 + "!")
    finally:
        stop.set()
        for thread in threads:
            thread.join()


class _Stalling:
    """A compiled pattern whose scan times out once, at its `at`-th match, having done no
    work (as a scan does when the processor is busy elsewhere)."""

    def __init__(self, pattern: str, at: int) -> None:
        self._real = compile_regex(pattern)._compiled
        self.groups = self._real.groups
        self.at = at
        self.given = 0

    def finditer(self, text: str, pos: int = 0, **kwargs):
        for match in self._real.finditer(text, pos, **kwargs):
            self.given += 1
            if self.given == self.at:
                raise TimeoutError
            yield match


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"x*", "axxbx"),  # empty matches between the others
        (r"\b|a", "a ab a"),  # an empty match, then a non-empty one at the same place
        (r"(?<=a)b|b", "abab b"),  # a lookbehind across the restart point
        (r"\d+", "1 22 333 4444"),
    ],
)
@pytest.mark.parametrize("at", [1, 2, 3, 4])
def test_a_scan_run_again_gives_the_same_matches(pattern, text, at):
    stalling = Pattern(_Stalling(pattern, at), pattern)
    with bounded(Budget(Limits(regex_seconds=0.05))):
        got = [m.span() for m in stalling.finditer(text)]
    assert got == [m.span() for m in re.finditer(pattern, text)]
