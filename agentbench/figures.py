"""How a figure is written as text, everywhere a figure is shown (terminal, HTML, sentences).

A missing figure is `n/a`, never 0; a signed change carries a real minus sign.
"""

from __future__ import annotations


def fmt(value: float | None, spec: str = ".2f", unit: str = "") -> str:
    """`value` with a format spec and a unit suffix; `n/a` when it was not measured."""
    if value is None:
        return "n/a"
    return f"{value:{spec}}{unit}"


def pct(value: float | None, spec: str = ".0%") -> str:
    """A share in [0, 1] as a percentage (`n/a` when missing)."""
    return fmt(value, spec)


def signed(value: float, spec: str) -> str:
    """`+3.0` / `−6.0` (a real minus sign)."""
    return f"{value:+{spec}}".replace("-", "\u2212")


def pct_change(ratio: float) -> str:
    """A ratio as a signed percent change; a tenth of a percent near -100% (a −99.7% cut is not
    free)."""
    change = (ratio - 1) * 100
    return signed(change, ".1f" if change < -99 and ratio > 0 else ".0f") + "%"
