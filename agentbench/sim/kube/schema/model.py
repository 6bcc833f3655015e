"""The declared cluster: the `environment.cluster:` section of a task file.

Authoring is light: everything has a sensible default, times are written relative to the
cluster's `now` (`age: 14m`, `finished: 2m11s` mean "that long before now"; an ISO-8601
timestamp works too), and objects a controller would create are generated when not declared
(a deployment's ReplicaSets and pods, a DaemonSet's pods, a Service's Endpoints).
kubectl reads and writes Kubernetes-shaped objects built from this (see objects/pods.py).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from agentbench.sim.kube.schema.workloads import (
    CronJob,
    DaemonSet,
    Deployment,
    Job,
    Pod,
    StatefulSet,
)


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Taint(_Spec):
    """A node taint, as `kubectl taint` writes it."""

    key: str
    value: str = ""
    effect: Literal["NoSchedule", "PreferNoSchedule", "NoExecute"] = "NoSchedule"


class Node(_Spec):
    """A node. `conditions` maps a condition type to "True"/"False"/"Unknown"; the ones not
    given default to healthy (Ready True, pressures False). `usage` feeds `kubectl top node`."""

    name: str
    ip: str = "10.0.1.10"
    age: str = "30d"
    roles: list[str] = Field(default_factory=list)
    labels: dict[str, str] = Field(default_factory=dict)
    unschedulable: bool = False
    taints: list[Taint] = Field(default_factory=list)
    conditions: dict[str, str] = Field(default_factory=dict)
    condition_messages: dict[str, str] = Field(default_factory=dict)
    capacity: dict[str, str] = Field(
        default_factory=lambda: {"cpu": "8", "memory": "32Gi", "pods": "110"}
    )
    allocatable: dict[str, str] | None = None
    usage: dict[str, str] = Field(default_factory=lambda: {"cpu": "250m", "memory": "2Gi"})
    kubelet_version: str | None = None
    os_image: str = "Ubuntu 22.04.4 LTS"
    container_runtime: str = "containerd://1.7.22"


class ServicePort(_Spec):
    """One service port; `target_port` defaults to `port`."""

    port: int
    target_port: int | str | None = None
    protocol: str = "TCP"
    name: str | None = None
    node_port: int | None = None


class Service(_Spec):
    """A Service. Endpoints are derived from the ready pods its selector matches, unless
    `endpoints` lists the addresses explicitly (`[]` for none)."""

    name: str
    namespace: str = "default"
    type: Literal["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"] = "ClusterIP"
    cluster_ip: str = "10.96.0.10"
    external_ip: str | None = None
    ports: list[ServicePort] = Field(default_factory=list)
    selector: dict[str, str] = Field(default_factory=dict)
    labels: dict[str, str] = Field(default_factory=dict)
    age: str = "30d"
    endpoints: list[str] | None = None


class ConfigMap(_Spec):
    """A ConfigMap with its data."""

    name: str
    namespace: str = "default"
    data: dict[str, str] = Field(default_factory=dict)
    labels: dict[str, str] = Field(default_factory=dict)
    age: str = "30d"


class Secret(_Spec):
    """A Secret: only its keys are declared; values are never part of a task."""

    name: str
    namespace: str = "default"
    type: str = "Opaque"
    keys: list[str] = Field(default_factory=list)
    labels: dict[str, str] = Field(default_factory=dict)
    age: str = "30d"


class Event(_Spec):
    """An event. `object` is `kind/name` (`pod/nginx-7c5d-x8k2p`, `node/worker-4`);
    `first_seen`/`last_seen` are ages (default: `last_seen`, then both equal `age`)."""

    object: str
    reason: str
    message: str
    namespace: str = "default"
    type: Literal["Normal", "Warning"] = "Normal"
    count: int = 1
    age: str = "1m"
    first_seen: str | None = None
    last_seen: str | None = None
    source: str | None = None  # default from the reason: kubelet, default-scheduler, ...


class ResourceQuota(_Spec):
    """A ResourceQuota: `hard` limits (`limits.memory`, `requests.cpu`, `pods`, ...) and what
    is `used` at the start, counting the pods declared under `pods:`. Pods a controller adds
    later (a deployment's undeclared replicas, a scale-up) count on top and are refused past
    `hard` with kubectl's "exceeded quota" FailedCreate event."""

    name: str
    namespace: str = "default"
    hard: dict[str, str] = Field(default_factory=dict)
    used: dict[str, str] = Field(default_factory=dict)
    age: str = "30d"


class PodDisruptionBudget(_Spec):
    """A PDB; `drain` waits (prints kubectl's retry line) when an eviction would break it."""

    name: str
    namespace: str = "default"
    selector: dict[str, str] = Field(default_factory=dict)
    min_available: int | str | None = None
    max_unavailable: int | str | None = None
    age: str = "30d"


class PersistentVolumeClaim(_Spec):
    """A PVC bound to a generated (or named) PV."""

    name: str
    namespace: str = "default"
    status: Literal["Bound", "Pending", "Lost"] = "Bound"
    volume: str | None = None
    capacity: str = "10Gi"
    access_modes: list[str] = Field(default_factory=lambda: ["ReadWriteOnce"])
    storage_class: str = "standard"
    age: str = "30d"


class Ingress(_Spec):
    """An Ingress routing `host` (path /) to a Service port; `address` is the load balancer's."""

    name: str
    namespace: str = "default"
    host: str
    service: str
    port: int = 80
    ingress_class: str = "nginx"
    address: str | None = None
    labels: dict[str, str] = Field(default_factory=dict)
    age: str = "30d"


class Cluster(_Spec):
    """The state kubectl answers from. Every list may be empty; `default` and `kube-system`
    namespaces always exist, and a namespace any object names is created with it.

    `denied` lists what `kubectl auth can-i` (and the verb itself) refuses, as
    "VERB RESOURCE" or "VERB RESOURCE -n NAMESPACE" (e.g. "delete nodes").
    `image_faults` maps an image to the waiting reason a newly created pod with it shows
    (`ErrImagePull`, `ImagePullBackOff`, `CrashLoopBackOff`); other new pods run ready.
    """

    now: str = "2026-11-29T10:16:30Z"
    context: str = "prod"
    cluster_name: str = "prod"
    user: str = "ops"
    server: str = "https://10.0.0.1:6443"
    version: str = "v1.31.4"
    namespaces: list[str] = Field(default_factory=list)
    nodes: list[Node] = Field(default_factory=list)
    pods: list[Pod] = Field(default_factory=list)
    deployments: list[Deployment] = Field(default_factory=list)
    statefulsets: list[StatefulSet] = Field(default_factory=list)
    daemonsets: list[DaemonSet] = Field(default_factory=list)
    jobs: list[Job] = Field(default_factory=list)
    cronjobs: list[CronJob] = Field(default_factory=list)
    services: list[Service] = Field(default_factory=list)
    ingresses: list[Ingress] = Field(default_factory=list)
    configmaps: list[ConfigMap] = Field(default_factory=list)
    secrets: list[Secret] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    quotas: list[ResourceQuota] = Field(default_factory=list)
    pdbs: list[PodDisruptionBudget] = Field(default_factory=list)
    pvcs: list[PersistentVolumeClaim] = Field(default_factory=list)
    denied: list[str] = Field(default_factory=list)
    image_faults: dict[str, str] = Field(default_factory=dict)
    _built: bytes | None = PrivateAttr(default=None)

    def built_cache(self, blob: bytes | None = None) -> bytes | None:
        """The built start state of this declaration (controllers/build.py), kept with it so every
        episode of a task copies it instead of building again; with an argument, store it. The
        task loader builds each declared cluster once, which is also its check (a bad age, an
        undeclared owner): this model checks only the format."""
        if blob is not None:
            self._built = blob
        return self._built
