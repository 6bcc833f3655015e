"""kubectl apply -f FILE (content from the task's filesystem), create -f, delete -f."""

from __future__ import annotations

import shlex

from agentbench.sim.core.base import ShellContext
from agentbench.sim.kube.program import build_kubectl
from agentbench.sim.kube.schema.model import Cluster

MANIFEST = """
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.27.3"}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config, namespace: shop}
data: {mode: production}
"""


def test_apply_creates_then_configures_then_is_unchanged() -> None:
    files = {"/srv/web.yaml": MANIFEST}
    k = build_kubectl(Cluster(namespaces=["shop"]), read_file=files.get)

    def run(line: str, stdin: str | None = None) -> str:
        result = k.run(shlex.split(line), stdin, ShellContext())
        return result.stdout + result.stderr

    assert run("kubectl apply -f /srv/web.yaml") == (
        "deployment.apps/web created\nconfigmap/web-config created\n"
    )
    assert "web    2/2     2            2" in run("kubectl get deploy -n shop")
    assert run("kubectl apply -f /srv/web.yaml") == (
        "deployment.apps/web unchanged\nconfigmap/web-config unchanged\n"
    )
    files["/srv/web.yaml"] = MANIFEST.replace("replicas: 2", "replicas: 3")
    assert run("kubectl apply -f /srv/web.yaml").startswith("deployment.apps/web configured\n")
    assert len(run("kubectl get pods -n shop -o name").split()) == 3
    assert run("kubectl create -f /srv/web.yaml").startswith("Error from server (AlreadyExists)")
    assert run("kubectl apply -f /srv/missing.yaml") == (
        'error: the path "/srv/missing.yaml" does not exist\n'
    )
    assert run("kubectl delete -f /srv/web.yaml") == (
        'deployment.apps "web" deleted\nconfigmap "web-config" deleted\n'
    )
    stdin = "apiVersion: v1\nkind: Namespace\nmetadata: {name: tmp}\n"
    assert run("kubectl apply -f -", stdin) == "namespace/tmp created\n"
