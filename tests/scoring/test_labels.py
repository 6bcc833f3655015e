"""Two figures swapped between their labels (limit and usage, threshold and available)."""

import pytest

from agentbench.scoring.entities import declared_entities
from agentbench.scoring.labels import swapped_label_problems
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment

ENV = Environment.model_validate({"files": {"/var/log/app.log": "x"}})
SEEN = [
    "Data too large, data for [<http_request>] would be [1031798784/984mb], which is larger "
    "than the limit of [1020054732/972.7mb]",
    "The node was low on resource: ephemeral-storage. Threshold quantity: 5898Mi, "
    "available: 3658Mi. Container indexer was using 18Gi, request is 0",
]


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("Each request would need 984mb against a limit of 972.7mb.", True),
        ("Each request would need 972.7mb against a limit of 984mb.", False),
        ("Only 3658Mi is available; the eviction threshold is 5898Mi.", True),
        ("5898Mi was available against an eviction threshold of 3658Mi.", False),
        ("The eviction threshold of 3658Mi was crossed.", True),  # the other figure is not given
        ("The limit is 972.7 MB and the request 984 MB.", True),  # unit spelt another way
    ],
)
def test_figures_that_changed_places_fail(answer: str, passes: bool) -> None:
    reading = Reading(answer, declared_entities(ENV, ""), [], [])
    assert (swapped_label_problems(reading, SEEN) == []) is passes


def test_a_label_printed_with_several_figures_is_not_held() -> None:
    seen = ["web: memory limit: 64Mi", "worker: memory limit: 128Mi"]
    reading = Reading("web's limit is 64Mi, worker's 128Mi.", declared_entities(ENV, ""), [], [])
    assert swapped_label_problems(reading, seen) == []
