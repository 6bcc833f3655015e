"""The resource types kubectl knows: names, short names, kinds and API groups."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResourceType:
    """One API resource as `kubectl api-resources` lists it."""

    plural: str
    singular: str
    kind: str
    api_version: str
    namespaced: bool = True
    short: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        return self.api_version.rpartition("/")[0]

    @property
    def group_resource(self) -> str:
        """How API errors name it: deployments.apps, cronjobs.batch; core types plain (pods)."""
        return f"{self.plural}.{self.group}" if self.group else self.plural

    @property
    def qualified(self) -> str:
        """How kubectl names it in `TYPE/NAME` output: pod, deployment.apps, job.batch."""
        return f"{self.singular}.{self.group}" if self.group else self.singular


TYPES: tuple[ResourceType, ...] = (
    ResourceType("pods", "pod", "Pod", "v1", short=("po",)),
    ResourceType("deployments", "deployment", "Deployment", "apps/v1", short=("deploy",)),
    ResourceType("replicasets", "replicaset", "ReplicaSet", "apps/v1", short=("rs",)),
    ResourceType("statefulsets", "statefulset", "StatefulSet", "apps/v1", short=("sts",)),
    ResourceType("daemonsets", "daemonset", "DaemonSet", "apps/v1", short=("ds",)),
    ResourceType("jobs", "job", "Job", "batch/v1"),
    ResourceType("cronjobs", "cronjob", "CronJob", "batch/v1", short=("cj",)),
    ResourceType("services", "service", "Service", "v1", short=("svc",)),
    ResourceType("endpoints", "endpoints", "Endpoints", "v1", short=("ep",)),
    ResourceType("configmaps", "configmap", "ConfigMap", "v1", short=("cm",)),
    ResourceType("secrets", "secret", "Secret", "v1"),
    ResourceType("nodes", "node", "Node", "v1", namespaced=False, short=("no",)),
    ResourceType("namespaces", "namespace", "Namespace", "v1", namespaced=False, short=("ns",)),
    ResourceType("events", "event", "Event", "v1", short=("ev",)),
    ResourceType("resourcequotas", "resourcequota", "ResourceQuota", "v1", short=("quota",)),
    ResourceType(
        "poddisruptionbudgets",
        "poddisruptionbudget",
        "PodDisruptionBudget",
        "policy/v1",
        short=("pdb",),
    ),
    ResourceType(
        "persistentvolumeclaims",
        "persistentvolumeclaim",
        "PersistentVolumeClaim",
        "v1",
        short=("pvc",),
    ),
    ResourceType(
        "persistentvolumes",
        "persistentvolume",
        "PersistentVolume",
        "v1",
        namespaced=False,
        short=("pv",),
    ),
    ResourceType("serviceaccounts", "serviceaccount", "ServiceAccount", "v1", short=("sa",)),
    ResourceType("ingresses", "ingress", "Ingress", "networking.k8s.io/v1", short=("ing",)),
    ResourceType(
        "horizontalpodautoscalers",
        "horizontalpodautoscaler",
        "HorizontalPodAutoscaler",
        "autoscaling/v2",
        short=("hpa",),
    ),
    ResourceType(
        "networkpolicies",
        "networkpolicy",
        "NetworkPolicy",
        "networking.k8s.io/v1",
        short=("netpol",),
    ),
    ResourceType(
        "storageclasses",
        "storageclass",
        "StorageClass",
        "storage.k8s.io/v1",
        namespaced=False,
        short=("sc",),
    ),
)

_BY_NAME: dict[str, ResourceType] = {}
for _t in TYPES:
    for _n in (_t.plural, _t.singular, _t.kind.lower(), *_t.short):
        _BY_NAME[_n] = _t
        if _t.group:
            _BY_NAME[f"{_n}.{_t.group}"] = _t

# `kubectl get all`: the workload types, in kubectl's order.
ALL = (
    "pods",
    "services",
    "daemonsets",
    "deployments",
    "replicasets",
    "statefulsets",
    "jobs",
    "cronjobs",
)


def resolve(name: str) -> ResourceType | None:
    """The type a user's spelling means (po, pods, Pod, deploy, deployments.apps, ...)."""
    return _BY_NAME.get(name.lower())


def by_kind(kind: str) -> ResourceType:
    """The type of an object's `kind` (Pod -> pods)."""
    found = resolve(kind)
    if found is None:
        raise KeyError(kind)
    return found
