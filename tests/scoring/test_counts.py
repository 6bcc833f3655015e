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
        # the capacity's `pods: 110` is what the node can hold, and `podcidr` is no field of
        # pods: nothing counts them
        ("24 pods were scheduled.", True),
        ("The two evicted pods went for ephemeral storage.", True),
    ],
)
def test_a_count_agrees_with_the_field_of_its_noun(answer: str, passes: bool) -> None:
    assert (problems(answer) == []) is passes


def test_a_count_agrees_with_a_table_column_named_for_it() -> None:
    pdb = (
        "NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\n"
        "api    2               N/A               1                     30d\n"
    )

    def said(answer: str) -> list[str]:
        reading = Reading(answer, declared_entities(ENV, ""), [], [])
        return count_problems(reading, [], [pdb])

    assert said("Its PodDisruptionBudget currently allows 2 disruptions.")
    assert said("Its PodDisruptionBudget currently allows 1 disruption, so drains are safe.") == []


@pytest.mark.parametrize(
    ("said", "passes"),
    [
        ("SocketTimeoutException shows up 3 times in the last 50 lines of both pods.", True),
        ("SocketTimeoutException shows up 2 times in login-api-b's tail.", True),  # one output
        ("Across both pods the same error shows up 5 times: SocketTimeoutException.", False),
        ("The pod restarted 5 times.", True),  # nothing named to count
        # the count is the quoted message's, nearer than the class named earlier
        ("Stuck in SocketTimeoutException loops (`Read timed out`, repeated 3 times).", True),
        ("Stuck in SocketTimeoutException loops (`Read timed out`, repeated 9 times).", False),
        ("Stuck in loops (SocketTimeoutException, repeated 9 times).", False),
    ],
)
def test_how_often_a_named_error_shows_up_is_counted_in_what_was_read(
    said: str, passes: bool
) -> None:
    from agentbench.scoring.counts import occurrence_problems
    from agentbench.scoring.entities import declared_entities
    from agentbench.scoring.reading import Reading
    from agentbench.tasks.model import Environment

    outputs = [
        "10:01 ERROR java.net.SocketTimeoutException: Read timed out\n10:02 INFO ok",
        "10:03 ERROR java.net.SocketTimeoutException: Read timed out\n"
        "10:04 ERROR java.net.SocketTimeoutException: Read timed out",
    ]
    reading = Reading(said, declared_entities(Environment(), ""), [], [])
    assert (occurrence_problems(reading, outputs) == []) is passes


EVENTS = (
    "Events:\n"
    '  Warning  Failed  21m (x4 over 23m)    kubelet  Failed to pull image "api:v2.41": '
    "code = NotFound desc = not found\n"
    "  Warning  Failed  3m2s (x86 over 23m)  kubelet  Error: ImagePullBackOff\n"
)


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("The registry answered NotFound 86 times.", False),
        ("The registry answered NotFound 4 times; the kubelet then backed off.", True),
        ("The pod sat in ImagePullBackOff, reported 86 times.", True),
    ],
)
def test_a_repeat_count_belongs_to_its_own_event(answer: str, passes: bool) -> None:
    from agentbench.scoring.counts import event_repeat_problems

    reading = Reading(answer, declared_entities(Environment(), ""), [], [])
    assert (event_repeat_problems(reading, [EVENTS]) == []) is passes


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("6 nodes, 3 of them data nodes.", True),
        ("6 nodes in the cluster, all 6 of them data nodes.", False),  # a field counted twice
        ("6 data nodes.", False),
    ],
)
def test_a_count_is_one_field_or_two_fields_combined_never_one_field_twice(
    answer: str, passes: bool
) -> None:
    health = '{"number_of_nodes": 6, "number_of_data_nodes": 3}'
    found = count_problems(Reading(answer, declared_entities(ENV, ""), [], []), [], [health])
    assert (found == []) is passes, found
