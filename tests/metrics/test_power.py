"""metrics.power: the minimum detectable effect and the tasks/repeats a target effect needs."""

from __future__ import annotations

import pytest

from agentbench.metrics.power import mde, paired_variance, parse_effect, plan


def test_mde_follows_the_discordance_and_the_task_count() -> None:
    # 69 tasks, 12 discordant (6 each way): var(d) = 12/68, MDE = 2.80 * sqrt(var / 69)
    a = [[1.0]] * 6 + [[0.0]] * 6 + [[1.0]] * 20 + [[0.0]] * 37
    b = [[0.0]] * 6 + [[1.0]] * 6 + [[1.0]] * 20 + [[0.0]] * 37
    pv = paired_variance(a, b)
    assert pv.tasks == 69 and pv.discordance == pytest.approx(12 / 69)
    assert mde(pv) == pytest.approx(2.8016 * (12 / 68 / 69) ** 0.5, rel=1e-3)
    bigger = paired_variance(a * 4, b * 4)
    assert mde(bigger) == pytest.approx(mde(pv) / 2, rel=0.02)  # 4x the tasks: half the MDE


def test_no_discordance_gives_a_floor_not_zero() -> None:
    same = [[1.0]] * 10 + [[0.0]] * 20
    pv = paired_variance(same, same)
    assert pv.floor_used and (mde(pv) or 0) > 0


def test_plan_needs_more_tasks_for_smaller_effects_and_fewer_with_repeats() -> None:
    a = [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]] * 10
    b = [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]] * 10
    pv = paired_variance(a, b)
    assert pv.repeats == 3 and pv.within is not None
    five = {p.repeats: p.tasks_needed for p in plan(pv, 0.05)}
    ten = {p.repeats: p.tasks_needed for p in plan(pv, 0.10)}
    assert five[1] > five[3] > five[5]
    assert ten[3] == pytest.approx(five[3] / 4, rel=0.05)


def test_single_repeat_runs_plan_only_their_own_repeat_count() -> None:
    a = [[1.0]] * 5 + [[0.0]] * 25
    b = [[0.0]] * 2 + [[1.0]] * 8 + [[0.0]] * 20
    plans = plan(paired_variance(a, b), 0.05)
    assert [p.repeats for p in plans] == [1]


@pytest.mark.parametrize(("text", "value"), [("5pp", 0.05), ("5%", 0.05), ("0.05", 0.05)])
def test_parse_effect(text: str, value: float) -> None:
    assert parse_effect(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["five", "0", "150pp", "-3pp"])
def test_parse_effect_refuses_nonsense(text: str) -> None:
    with pytest.raises(ValueError):
        parse_effect(text)
