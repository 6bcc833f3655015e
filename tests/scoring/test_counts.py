"""Counts of things against the fields the tool outputs keyed by that noun."""

import pytest

from agentbench.scoring.counts import count_problems
from agentbench.scoring.entities import declared_entities
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment

ENV = Environment.model_validate(
    {"cluster": {"nodes": [{"name": "general-14"}], "pods": [{"name": "web-0", "namespace": "a"}]}}
)
DESCRIBE = "Capacity:\n  pods: 110\nPodCIDR: 10.244.3.0/24\nnumber_of_nodes: 6\nready_replicas: 2\n"


def problems(answer: str) -> list[str]:
    return count_problems(Reading(answer, declared_entities(ENV, ""), [], []), [], [DESCRIBE])


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("The cluster has 6 nodes.", True),
        ("The cluster has 5 nodes.", False),
        ("2 ready replicas serve traffic.", True),
        ("3 ready replicas serve traffic.", False),
        # a subset no field counts: the capacity's `pods: 110` says nothing of it
        ("The three workload pods were evicted.", True),
        # `podcidr` is no field of pods
        ("24 pods were scheduled.", False),
    ],
)
def test_a_count_agrees_with_the_field_of_its_noun(answer: str, passes: bool) -> None:
    assert (problems(answer) == []) is passes
