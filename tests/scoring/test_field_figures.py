"""A figure the answer says is one field's, held against that field's values."""

import pytest

from agentbench.scoring.entities import declared_entities
from agentbench.scoring.field_figures import field_figure_problems
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment

ENV = Environment.model_validate(
    {
        "cluster": {
            "deployments": [
                {
                    "name": "checkout",
                    "namespace": "shop",
                    "template": {
                        "containers": [
                            {
                                "name": "checkout",
                                "image": "registry.internal/shop/checkout:1.4.2",
                                "limits": {"memory": "128Mi"},
                                "requests": {"memory": "64Mi"},
                            }
                        ]
                    },
                }
            ]
        }
    }
)


def problems(answer: str) -> list[str]:
    return field_figure_problems(Reading(answer, declared_entities(ENV, ""), [], []))


@pytest.mark.parametrize(
    "answer",
    [
        "It is OOMKilled: it exceeds its 128Mi memory limit and Kubernetes restarts it.",
        "Its memory limit is 128Mi (request 64Mi).",
        "128Mi limit, 64Mi request.",
        "The limit is 128 MiB; raise it to 256Mi.",  # 256Mi is no field's value: other checks
        "OOMKilled at the limit; the 64Mi request is what the scheduler reserves.",
        "Its memory limit is set to just 128Mi, which it exceeds at start.",
    ],
)
def test_a_field_s_own_value_passes(answer: str) -> None:
    assert problems(answer) == []


@pytest.mark.parametrize(
    "answer",
    [
        "It is OOMKilled: it goes past its 64Mi memory limit while warming the cache.",
        "The limit of 64 MiB is too small.",
        "It requests 128Mi.",
        "Its memory limit is set to just 64Mi, which it exceeds at start.",  # filler between
    ],
)
def test_another_field_s_value_fails(answer: str) -> None:
    found = problems(answer)
    assert len(found) == 1 and "a value the environment gives another field" in found[0]


LOG_ENV = Environment.model_validate(
    {
        "files": {
            "/var/log/app/app.log": "2026-11-29 14:05:03 WARN pool checkout timed out "
            "(total=10, active=10, idle=0, waiting=42)\n"
        }
    }
)


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("All 10 connections are active and 42 requests are waiting.", False),
        ("All 42 connections are active and 10 requests are waiting.", True),
        ("The pool (total 10, idle 0) has 42 waiting.", False),
    ],
)
def test_a_log_line_s_own_fields_hold_their_figures(answer: str, fails: bool) -> None:
    found = field_figure_problems(Reading(answer, declared_entities(LOG_ENV, ""), [], []))
    assert bool(found) is fails, found


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("It has failed every run in the last ~31h.", False),  # a window, not the field
        ("Nothing succeeded over the past 31h.", False),
        ("The last is 31h.", True),  # the field `last` given another field's figure
    ],
)
def test_a_window_of_time_is_no_field_s_label(answer: str, fails: bool) -> None:
    from pathlib import Path

    from agentbench.tasks.loader import load_suite

    root = Path(__file__).resolve().parents[2]
    tasks = load_suite(root / "tasks").tasks
    task = next(t for t in tasks if t.id == "err-cronjob-other-namespace")
    reading = Reading(answer, declared_entities(task.environment, task.prompt), [], [])
    assert bool(field_figure_problems(reading)) is fails
