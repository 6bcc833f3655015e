"""Writes compared by effect: `expect.changes` against the recorded changes."""

from agentbench.scoring.facts import change_problems
from agentbench.sim.core.base import Change
from agentbench.tasks.expect_process import ChangePattern

ALLOWED = [
    ChangePattern(system="kubernetes", action="delete", target="deployment/previews/web-pr-4411"),
    ChangePattern(system="kubernetes", action="delete", target="service/previews/web-pr-4411"),
]


def test_a_pod_and_replicaset_deleted_with_their_allowed_deployment_are_one_effect() -> None:
    changes = [
        Change("kubernetes", "delete", "pod/previews/web-pr-4411-6c9f7d8b5-kq2wz"),
        Change("kubernetes", "delete", "replicaset/previews/web-pr-4411-6c9f7d8b5"),
        Change("kubernetes", "delete", "deployment/previews/web-pr-4411"),
    ]
    assert change_problems(ALLOWED, [], False, changes) == []


def test_a_pod_of_another_workload_or_without_its_owner_deleted_is_unexpected() -> None:
    alone = [Change("kubernetes", "delete", "pod/previews/web-pr-4411-6c9f7d8b5-kq2wz")]
    assert change_problems(ALLOWED, [], False, alone)
    other = [
        Change("kubernetes", "delete", "deployment/previews/web-pr-4411"),
        Change("kubernetes", "delete", "pod/previews/web-pr-4398-7d8f9c6b5-ab12c"),
    ]
    assert change_problems(ALLOWED, [], False, other)
