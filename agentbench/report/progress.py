"""The live progress bar of `agentbench run`: tasks done, success so far, decode tokens/s."""

from __future__ import annotations

import statistics

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from agentbench.records import EpisodeResult


class RunProgress:
    def __init__(self, total: int, run_id: str, *, disabled: bool = False) -> None:
        self.total = total
        self.ok = 0
        self.done = 0
        self.decode: list[float] = []
        # Count and time first: a narrow terminal cuts the status text at the end, never them.
        self._progress = Progress(
            TextColumn(f"[bold]run {run_id[-6:]}"),
            BarColumn(bar_width=16),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[status]}"),
            console=Console(stderr=True),
            disable=disabled,
            transient=False,
        )
        self._task = self._progress.add_task("episodes", total=total, status="")

    def __enter__(self) -> RunProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def advance(self, episode: EpisodeResult) -> None:
        self.done += 1
        self.ok += episode.success
        self.decode += [s.decode_tok_s for s in episode.steps if s.decode_tok_s is not None]
        rate = f", decode {statistics.median(self.decode):.0f} tok/s" if self.decode else ""
        status = f"ok {self.ok}/{self.done}{rate}"
        self._progress.update(self._task, advance=1, status=status)
