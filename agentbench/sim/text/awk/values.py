"""awk's values: numbers, strings and the "strnum" of input text, and how each converts.

An input field, a `-v` value or a `split` element is a strnum: numeric when it looks like a
number, so `$5 > 90` compares numbers while `"10" < "9"` compares strings."""

from __future__ import annotations

import math
import re
from typing import Any

from agentbench.sim.core.base import NotSimulated

_NUMERIC = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")


class AwkError(ValueError):
    """A syntax or run-time error; the message is what awk names."""


class StrNum(str):
    """Input text (a field, a -v value, a split element): numeric when it looks like a
    number, so `$5 > 90` compares numbers while `"10" < "9"` compares strings."""

    def numeric(self) -> bool:
        return self == "" or bool(_NUMERIC.fullmatch(self))


UNINIT = StrNum("")


def num(value: Any) -> float:
    """A value as awk reads it as a number: its leading numeric prefix, else 0."""
    if isinstance(value, float):
        return value
    match = re.match(r"\s*[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", str(value))
    return float(match.group(0)) if match else 0.0


def text(value: Any) -> str:
    """A value as awk prints it: a whole number without a point, else `%.6g` (CONVFMT)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotSimulated("awk output of inf or nan")
        return str(int(value)) if value == int(value) else f"{value:.6g}"
    return str(value)


def looks_numeric(value: Any) -> bool:
    """A number, or input text that looks like one (compared as a number)."""
    return isinstance(value, float) or (isinstance(value, StrNum) and value.numeric())
