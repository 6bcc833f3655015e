"""The new text-language constructs stay inside the call's budget (sim/core/budget.py): awk's loops,
printf widths, sed's substitutions and hold space end at the call's limit, answered (not
off-script) with the limit's error."""

from __future__ import annotations

import pytest

from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.model import Task

from ..core.test_bounds import killed, measured


@pytest.fixture
def host(suite) -> SimulatedEnvironment:  # type: ignore[no-untyped-def]
    task = Task.model_validate(
        {
            "id": "t-text-bounds",
            "category": "ops-diagnosis",
            "difficulty": "easy",
            "description": "d",
            "prompt": "p",
            "tools": ["run_command"],
            "environment": {"files": {"/tmp/lines": "".join(f"{i}\n" for i in range(64))}},
            "expect": {"end_state": {"fixed": True}},
            "reference": [{"answer": "x"}],
            "wrong": [{"name": "w", "steps": [{"answer": "y"}]}],
        }
    )
    return SimulatedEnvironment(task, suite.tools, suite.grammar)


@pytest.mark.parametrize(
    "cmd",
    [
        "awk 'BEGIN { for (;;); }'",
        "awk 'BEGIN { while (1) x++ }'",
        "awk 'BEGIN { do ; while (1) }'",
    ],
)
def test_an_endless_awk_loop_ends_at_the_step_limit(host: SimulatedEnvironment, cmd: str) -> None:
    result, seconds, _ = measured(host, cmd)
    killed(result, "steps", "work limit")
    assert seconds < 30


def test_a_huge_printf_width_is_refused_before_it_is_built(host: SimulatedEnvironment) -> None:
    result, _, peak = measured(host, "awk 'BEGIN { printf \"%999999999d\", 1 }'")
    killed(result, "value_bytes", "a printf result")
    assert peak < 64


def test_sed_substitutions_and_the_hold_space_cannot_grow_past_a_value(
    host: SimulatedEnvironment,
) -> None:
    doubling = "echo a | sed '" + ";".join(["s/a/" + "&" * 64 + "/g"] * 4) + "'"
    result, _, peak = measured(host, doubling)
    killed(result, "value_bytes", "the result of a substitution")
    assert peak < 128
    hold, _, _ = measured(host, "sed -n 'G;G;h' /tmp/lines")  # doubles every line
    killed(hold, "value_bytes", "space")
