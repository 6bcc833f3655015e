"""Inline reasoning: `<think>…</think>` at the start of streamed answer text (models served
without a reasoning parser), split out as it streams, whatever the chunk boundaries."""

from __future__ import annotations

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"


class ThinkSplitter:
    """Splits inline `<think>…</think>` reasoning out of streamed answer text, incrementally."""

    def __init__(self) -> None:
        self.mode = "start"  # start | think | answer
        self.pending = ""
        self.saw_think = False

    def feed(self, piece: str) -> tuple[str, str]:
        """Returns (reasoning, answer) text released by this piece."""
        self.pending += piece
        reasoning, answer = "", ""
        while self.pending:
            if self.mode == "start":
                stripped = self.pending.lstrip()
                if stripped.startswith(THINK_OPEN):
                    self.mode, self.pending = "think", stripped[len(THINK_OPEN) :]
                    self.saw_think = True
                elif THINK_OPEN.startswith(stripped):
                    break  # could still become "<think>"
                else:
                    self.mode = "answer"
            elif self.mode == "think":
                end = self.pending.find(THINK_CLOSE)
                if end >= 0:
                    reasoning += self.pending[:end]
                    self.pending = self.pending[end + len(THINK_CLOSE) :].lstrip("\n")
                    self.mode = "answer"
                    continue
                keep = len(THINK_CLOSE) - 1
                if len(self.pending) > keep:
                    reasoning += self.pending[:-keep]
                    self.pending = self.pending[-keep:]
                break
            else:
                answer, self.pending = answer + self.pending, ""
        return reasoning, answer

    def flush(self) -> tuple[str, str]:
        rest, self.pending = self.pending, ""
        return (rest, "") if self.mode == "think" else ("", rest)
