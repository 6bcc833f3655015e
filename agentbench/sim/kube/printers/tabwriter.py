"""Go's text/tabwriter, which kubectl's tables and `describe` write through: cells end at a
tab, a column is aligned over each block of consecutive lines that have a cell in it, and the
text after a line's last tab is never padded."""

from __future__ import annotations


def align(text: str, min_width: int = 0, padding: int = 2) -> str:
    lines = [line.split("\t") for line in text.split("\n")]
    out: list[str] = [""] * len(lines)
    _format(lines, 0, len(lines), [], out, min_width, padding)
    return "\n".join(out)


def _write(
    lines: list[list[str]], start: int, stop: int, widths: list[int], out: list[str]
) -> None:
    for index in range(start, stop):
        cells = lines[index]
        text = ""
        for column, cell in enumerate(cells[:-1]):
            text += cell.ljust(widths[column]) if column < len(widths) else cell
        out[index] = text + cells[-1]


def _format(
    lines: list[list[str]],
    line0: int,
    line1: int,
    widths: list[int],
    out: list[str],
    min_width: int,
    padding: int,
) -> None:
    column = len(widths)
    this = line0
    while this < line1:
        if column >= len(lines[this]) - 1:
            this += 1
            continue
        _write(lines, line0, this, widths, out)
        line0 = this
        width = min_width
        while this < line1 and column < len(lines[this]) - 1:
            width = max(width, len(lines[this][column]) + padding)
            this += 1
        _format(lines, line0, this, [*widths, width], out, min_width, padding)
        line0 = this
    _write(lines, line0, line1, widths, out)
