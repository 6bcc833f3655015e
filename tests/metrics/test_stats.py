from agentbench.metrics.stats import (
    RESOLVED,
    UNRESOLVED,
    bootstrap_ci,
    pass_hat_k,
    percentile,
    verdict,
)


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    values = [1.0] * 30 + [0.0] * 10
    a, b = bootstrap_ci(values), bootstrap_ci(values)
    assert a == b
    assert a.low < 0.75 < a.high and a.value == 0.75


def test_pass_hat_k_is_k_of_k() -> None:
    # task 1: 2 of 4 successes; task 2: 4 of 4
    counts = [(2, 4), (4, 4)]
    assert pass_hat_k(counts, 1) == (0.5 + 1.0) / 2
    assert pass_hat_k(counts, 2) == ((1 / 6) + 1.0) / 2
    assert pass_hat_k(counts, 5) is None


def test_verdict_needs_the_interval_to_exclude_null() -> None:
    assert verdict(bootstrap_ci([0.1, 0.2, 0.15, 0.12])) == RESOLVED
    assert verdict(bootstrap_ci([-0.1, 0.2, 0.05, -0.02])) == UNRESOLVED


def test_percentile_interpolates() -> None:
    assert percentile([1, 2, 3, 4, 5], 90) == 4.6
    assert percentile([], 50) is None
