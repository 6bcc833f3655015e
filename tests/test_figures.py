"""How a figure is written as text: n/a when missing, real minus signs on changes."""

from __future__ import annotations

from agentbench.figures import fmt, pct, pct_change, signed


def test_missing_figures_are_na_never_zero() -> None:
    assert fmt(None) == "n/a" and pct(None) == "n/a"
    assert fmt(0.0, ".1f", " s") == "0.0 s" and fmt(12.345) == "12.35"
    assert pct(0.256) == "26%" and pct(0.256, ".1%") == "25.6%"


def test_signed_changes() -> None:
    assert signed(-6.04, ".1f") == "\u22126.0" and signed(3, ".0f") == "+3"
    assert pct_change(0.26) == "\u221274%" and pct_change(1.5) == "+50%"
    assert pct_change(0.003) == "\u221299.7%"  # a near-total cut keeps a decimal
