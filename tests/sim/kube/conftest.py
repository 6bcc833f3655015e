"""A small declared cluster (the seeds' CrashLoop scenario and a maintenance node) and a helper
that runs one kubectl command line against it."""

from __future__ import annotations

import shlex
from collections.abc import Callable

import pytest
import yaml

from agentbench.sim.core.base import CommandResult, ShellContext
from agentbench.sim.kube.program import Kubectl, build_kubectl
from agentbench.sim.kube.schema.model import Cluster

CLUSTER = """
now: "2026-11-29T10:16:30Z"
nodes:
  - {name: worker-2, ip: 10.0.1.12, age: 26d}
  - {name: worker-3, ip: 10.0.1.13, age: 26d}
  - {name: worker-4, ip: 10.0.1.14, age: 26d}
deployments:
  - name: nginx
    namespace: web
    template:
      containers:
        - name: nginx
          image: nginx:1.27.3
          ports: [80]
          limits: {memory: 64Mi}
          requests: {memory: 32Mi}
          liveness: {path: /healthz, port: 80}
          env:
            - {name: MODE, value: production}
            - {name: DB_HOST, configmap: app-config, key: db_host}
    revisions:
      - {image: "nginx:1.25.5", change_cause: "initial", age: 20d}
      - {image: "nginx:1.27.3", age: 14m}
  - name: api
    namespace: shop
    replicas: 2
    image: shop/api:3.4.1
daemonsets:
  - {name: kube-proxy, image: "registry.k8s.io/kube-proxy:v1.31.4", age: 26d}
statefulsets:
  - {name: redis, namespace: web, image: "redis:7.2", age: 3d}
services:
  - name: nginx
    namespace: web
    cluster_ip: 10.96.12.7
    selector: {app: nginx}
    ports: [{port: 80}]
  - name: redis
    namespace: web
    cluster_ip: 10.96.40.2
    selector: {app: redis}
    ports: [{port: 6379, name: redis}]
configmaps:
  - {name: app-config, namespace: web, data: {db_host: postgres.web.svc}}
secrets:
  - {name: db-creds, namespace: web, keys: [password, username]}
events:
  - {object: pod/nginx-7c5ddbdf54-x8k2p, namespace: web, type: Warning, reason: BackOff,
     message: "Back-off restarting failed container nginx in pod nginx-7c5ddbdf54-x8k2p_web(5f1c)",
     count: 31, first_seen: 14m, last_seen: 2m}
  - {object: pod/nginx-7c5ddbdf54-x8k2p, namespace: web, reason: Pulled,
     message: "Container image \\"nginx:1.27.3\\" already present on machine", count: 8,
     first_seen: 14m, last_seen: 2m12s}
  - {object: pod/nginx-7c5ddbdf54-x8k2p, namespace: web, reason: Scheduled, age: 14m,
     message: "Successfully assigned web/nginx-7c5ddbdf54-x8k2p to worker-2"}
pods:
  - name: nginx-7c5ddbdf54-x8k2p
    namespace: web
    owner: deployment/nginx
    node: worker-2
    ip: 10.244.1.5
    age: 14m
    containers:
      - name: nginx
        state: {kind: waiting, reason: CrashLoopBackOff}
        last_state:
          {kind: terminated, reason: OOMKilled, exit_code: 137, started: 2m19s, finished: 2m11s}
        restarts: 7
        logs: "2026/11/29 10:16:21 [notice] 1#1: start worker processes\\n"
        previous_logs: |
          /docker-entrypoint.sh: Configuration complete; ready for start up
          2026/11/29 10:14:12 [notice] 1#1: start worker processes
  - name: debug-shell
    namespace: web
    node: worker-4
    ip: 10.244.3.9
    age: 2h
    labels: {run: debug-shell}
    containers: [{name: debug-shell, image: "busybox:1.36"}]
"""


@pytest.fixture
def spec() -> Cluster:
    return Cluster.model_validate(yaml.safe_load(CLUSTER))


@pytest.fixture
def kubectl(spec: Cluster) -> Kubectl:
    return build_kubectl(spec)


@pytest.fixture
def run(kubectl: Kubectl) -> Callable[[str], CommandResult]:
    def go(line: str) -> CommandResult:
        return kubectl.run(shlex.split(line), None, ShellContext())

    return go
