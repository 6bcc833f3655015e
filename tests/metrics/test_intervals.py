"""metrics.intervals: Wilson at 0 and n, clustering by task, the paired (Bonett-Price) interval, and
coverage near 95% on simulated runs whose truth is known."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from agentbench.metrics.intervals import (
    effective_n,
    paired_rate_difference,
    rate_interval,
    small_sample_note,
    wilson,
)
from agentbench.metrics.stats import RESOLVED, UNRESOLVED, verdict

ROOT = Path(__file__).resolve().parents[2]


def _coverage_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("cov", ROOT / "benchmarks/interval_coverage.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wilson_at_zero_and_n_is_not_certain() -> None:
    low, high = wilson(0, 8)
    assert low == 0.0 and high == pytest.approx(0.3244, abs=1e-3)  # the textbook 0/8 bound
    low, high = wilson(8, 8)
    assert high == 1.0 and low == pytest.approx(0.6756, abs=1e-3)
    low, high = wilson(30, 69)
    assert low == pytest.approx(0.3244, abs=2e-3) and high == pytest.approx(0.5538, abs=2e-3)


def test_rate_interval_without_repeats_is_plain_wilson() -> None:
    groups = [[1.0]] * 10 + [[0.0]] * 59
    interval = rate_interval(groups)
    assert interval is not None
    assert (interval.low, interval.high) == pytest.approx(wilson(10, 69))
    assert interval.n == 69


def test_repeats_of_one_task_do_not_count_as_independent() -> None:
    # 10 tasks x 3 repeats, every task either always or never solved: 10 clusters, not 30 draws
    correlated = [[1.0, 1.0, 1.0]] * 4 + [[0.0, 0.0, 0.0]] * 6
    independent = [[1.0]] * 12 + [[0.0]] * 18
    assert effective_n(correlated) == pytest.approx(10.0, rel=0.15)
    a, b = rate_interval(correlated), rate_interval(independent)
    assert a is not None and b is not None
    assert a.value == b.value == pytest.approx(0.4)
    assert (a.high - a.low) > 1.5 * (b.high - b.low)
    # repeats that disagree within a task carry information: closer to the episode count
    mixed = [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]] * 5
    assert effective_n(mixed) > 20


def test_no_task_differed_is_not_a_certain_zero() -> None:
    same = [[1.0]] * 3 + [[0.0]] * 5
    d = paired_rate_difference(same, same)
    assert d is not None and d.value == 0.0
    assert d.low < -0.1 and d.high > 0.1
    assert verdict(d) == UNRESOLVED


def test_a_clear_difference_is_resolved() -> None:
    a = [[0.0]] * 40
    b = [[1.0]] * 30 + [[0.0]] * 10
    d = paired_rate_difference(a, b)
    assert d is not None and d.value == pytest.approx(0.75)
    assert verdict(d) == RESOLVED and d.low > 0.5


def test_small_samples_say_so() -> None:
    assert small_sample_note(9) is not None
    assert small_sample_note(10) is None


@pytest.mark.parametrize("rates", [(0.03, 0.06), (0.50, 0.55), (0.94, 0.97)])
@pytest.mark.parametrize("repeats", [1, 3])
def test_coverage_is_near_nominal(rates: tuple[float, float], repeats: int) -> None:
    """300 simulated run pairs of 69 tasks: each interval holds the truth 90-99% of the time
    (nominal 95%; the sampling error of the coverage itself is about 1.3 points)."""
    cov = _coverage_module().simulate(*rates, tasks=69, repeats=repeats, sims=300, seed=11)
    for name, share in cov.items():
        assert 0.90 <= share <= 0.99, (name, share)
