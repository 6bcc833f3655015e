"""Every object the task clusters build, as `kubectl get -o json` prints it, against the published
Kubernetes schemas (kubernetes-validate, strict: no undeclared fields, required fields present).

The simulator's own state (a stalled rollout, a pod's planted last state) must live in the API's
own fields: status conditions, container states — never in a field the real API does not have.
"""

from __future__ import annotations

import json

import kubernetes_validate
import pytest

from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import load_suite

from ...conftest import TASKS_DIR

KUBERNETES = "1.32"  # the kubectl the image ships
KINDS = [
    "pods",
    "deployments",
    "replicasets",
    "statefulsets",
    "daemonsets",
    "jobs",
    "cronjobs",
    "services",
    "endpoints",
    "nodes",
    "events",
    "configmaps",
    "secrets",
    "persistentvolumeclaims",
    "persistentvolumes",
    "namespaces",
    "ingresses",
    "horizontalpodautoscalers",
    "poddisruptionbudgets",
    "resourcequotas",
    "serviceaccounts",
    "storageclasses",
]


def _cluster_tasks() -> list:  # type: ignore[type-arg]
    suite = load_suite(TASKS_DIR)
    return [(suite, t) for t in suite.tasks if t.environment.cluster is not None]


@pytest.mark.parametrize(("suite", "task"), _cluster_tasks(), ids=lambda x: getattr(x, "id", ""))
def test_every_object_matches_the_published_schema(suite, task) -> None:  # type: ignore[no-untyped-def]
    violations = []
    checked = 0
    for kind in KINDS:
        env = SimulatedEnvironment(task, suite.tools, suite.grammar)
        result = env.execute("run_command", {"cmd": f"kubectl get {kind} -A -o json"})
        assert result.exit_code in (0, None), (kind, result.output[:200])
        for obj in json.loads(result.output)["items"]:
            checked += 1
            try:
                kubernetes_validate.validate(obj, KUBERNETES, strict=True)
            except kubernetes_validate.ValidationError as exc:
                where = "/".join(str(p) for p in exc.path)
                name = obj["metadata"].get("name")
                violations.append(f"{obj['kind']} {name}: {exc.message} at {where}")
    assert checked > 0
    assert not violations, "\n".join(violations[:20])
