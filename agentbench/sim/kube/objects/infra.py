"""Declared non-pod objects as the API server shapes them: namespaces, nodes, services,
config, events, quotas, budgets, volumes, jobs."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable

from agentbench.sim.kube.objects.resources import resolve
from agentbench.sim.kube.objects.store import Obj
from agentbench.sim.kube.objects.units import Clock
from agentbench.sim.kube.schema import model as m

_HEALTHY = {
    "MemoryPressure": (
        "False",
        "KubeletHasSufficientMemory",
        "kubelet has sufficient memory available",
    ),
    "DiskPressure": ("False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
    "PIDPressure": ("False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
    "Ready": ("True", "KubeletReady", "kubelet is posting ready status"),
}
_UNHEALTHY = {
    "MemoryPressure": ("KubeletHasInsufficientMemory", "kubelet has insufficient memory available"),
    "DiskPressure": ("KubeletHasDiskPressure", "kubelet has disk pressure"),
    "PIDPressure": ("KubeletHasInsufficientPID", "kubelet has insufficient PID available"),
    "Ready": ("KubeletNotReady", "container runtime network not ready"),
}
_EVENT_SOURCES = {
    "Scheduled": "default-scheduler",
    "FailedScheduling": "default-scheduler",
    "ScalingReplicaSet": "deployment-controller",
    "SuccessfulCreate": "replicaset-controller",
    "SuccessfulDelete": "replicaset-controller",
    "NodeNotReady": "node-controller",
}


def meta(
    name: str, namespace: str | None, age: str, clock: Clock, labels: dict[str, str] | None = None
) -> Obj:
    out: Obj = {"creationTimestamp": clock.stamp(age), "name": name}
    if labels:
        out["labels"] = dict(labels)
    if namespace is not None:
        out["namespace"] = namespace
    return out


def namespace(name: str, clock: Clock) -> Obj:
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": meta(name, None, "30d", clock, {"kubernetes.io/metadata.name": name}),
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"},
    }


def implied_node(name: str) -> m.Node:
    return m.Node(name=name)


def root_ca(namespace: str) -> m.ConfigMap:
    bundle = (
        "-----BEGIN CERTIFICATE-----\nMIIDBTCCAe2gAwIBAgIIZ2l0aHViLXNpbXVsYXRlZC1jYQ\n"
        "-----END CERTIFICATE-----\n"
    )
    return m.ConfigMap(name="kube-root-ca.crt", namespace=namespace, data={"ca.crt": bundle})


def api_service() -> m.Service:
    """The `kubernetes` service in `default`, backed by the API server."""
    return m.Service(
        name="kubernetes",
        namespace="default",
        cluster_ip="10.96.0.1",
        ports=[m.ServicePort(port=443, target_port=6443, name="https")],
        labels={"component": "apiserver", "provider": "kubernetes"},
        endpoints=["10.0.0.1:6443"],
    )


def node(n: m.Node, clock: Clock, version: str, index: int) -> Obj:
    labels = {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": n.name,
        "kubernetes.io/os": "linux",
    }
    labels |= {f"node-role.kubernetes.io/{r}": "" for r in n.roles} | n.labels
    conditions = []
    for kind, (ok, reason, message) in _HEALTHY.items():
        status = n.conditions.get(kind, ok)
        if status != ok:
            reason, message = (
                _UNHEALTHY[kind]
                if status != "Unknown"
                else ("NodeStatusUnknown", "Kubelet stopped posting node status.")
            )
        conditions.append(
            {
                "lastHeartbeatTime": clock.stamp("30s"),
                "lastTransitionTime": clock.stamp(n.age),
                "message": n.condition_messages.get(kind, message),
                "reason": reason,
                "status": status,
                "type": kind,
            }
        )
    spec: Obj = {"podCIDR": f"10.244.{index}.0/24"}
    taints = [t.model_dump(exclude_defaults=False) for t in n.taints]
    if n.unschedulable:
        spec["unschedulable"] = True
        taints.insert(
            0,
            {
                "key": "node.kubernetes.io/unschedulable",
                "value": "",
                "effect": "NoSchedule",
                "timeAdded": clock.stamp("0s"),
            },
        )
    if taints:
        spec["taints"] = [{k: v for k, v in t.items() if v != ""} for t in taints]
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": meta(n.name, None, n.age, clock, labels),
        "spec": spec,
        "status": {
            "addresses": [
                {"address": n.ip, "type": "InternalIP"},
                {"address": n.name, "type": "Hostname"},
            ],
            "allocatable": dict(n.allocatable or n.capacity),
            "capacity": dict(n.capacity),
            "conditions": conditions,
            "nodeInfo": {
                "architecture": "amd64",
                "containerRuntimeVersion": n.container_runtime,
                "kernelVersion": "5.15.0-125-generic",
                "kubeletVersion": n.kubelet_version or version,
                "operatingSystem": "linux",
                "osImage": n.os_image,
                # identifiers a real kubelet reports, stable per node name
                "machineID": hashlib.sha256(f"machine/{n.name}".encode()).hexdigest()[:32],
                "systemUUID": str(uuid.uuid5(uuid.NAMESPACE_DNS, f"system.{n.name}")),
                "bootID": str(uuid.uuid5(uuid.NAMESPACE_DNS, f"boot.{n.name}")),
                "kubeProxyVersion": n.kubelet_version or version,
            },
        },
    }


def service(s: m.Service, clock: Clock) -> Obj:
    ports = []
    for p in s.ports:
        port: Obj = {
            "port": p.port,
            "protocol": p.protocol,
            "targetPort": p.target_port if p.target_port is not None else p.port,
        }
        if p.name:
            port["name"] = p.name
        if p.node_port:
            port["nodePort"] = p.node_port
        ports.append(port)
    spec: Obj = {
        "clusterIP": s.cluster_ip,
        "clusterIPs": [s.cluster_ip],
        "ports": ports,
        "sessionAffinity": "None",
        "type": s.type,
    }
    if s.selector:
        spec["selector"] = dict(s.selector)
    status: Obj = {"loadBalancer": {}}
    if s.external_ip:
        status["loadBalancer"] = {"ingress": [{"ip": s.external_ip}]}
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": meta(s.name, s.namespace, s.age, clock, s.labels),
        "spec": spec,
        "status": status,
    }


def fixed_endpoints(s: m.Service, clock: Clock) -> Obj:
    """Endpoints declared by hand (`ip` or `ip:port`); the derived ones live in controllers."""
    addresses = [{"ip": a.partition(":")[0]} for a in s.endpoints or []]
    ports = [
        {"port": int(a.partition(":")[2]), "protocol": "TCP"}
        for a in (s.endpoints or [])[:1]
        if ":" in a
    ]
    out: Obj = {
        "apiVersion": "v1",
        "kind": "Endpoints",
        "metadata": meta(s.name, s.namespace, s.age, clock, s.labels)
        | {"annotations": {"agentbench/declared": "true"}},
    }
    if addresses:
        out["subsets"] = [{"addresses": addresses, "ports": ports}]
    return out


def ingress(i: m.Ingress, clock: Clock) -> Obj:
    backend = {"service": {"name": i.service, "port": {"number": i.port}}}
    status: Obj = {"loadBalancer": {}}
    if i.address:
        status["loadBalancer"] = {"ingress": [{"ip": i.address}]}
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "Ingress",
        "metadata": meta(i.name, i.namespace, i.age, clock, i.labels),
        "spec": {
            "ingressClassName": i.ingress_class,
            "rules": [
                {
                    "host": i.host,
                    "http": {"paths": [{"backend": backend, "path": "/", "pathType": "Prefix"}]},
                }
            ],
        },
        "status": status,
    }


def configmap(c: m.ConfigMap, clock: Clock) -> Obj:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "data": dict(c.data),
        "metadata": meta(c.name, c.namespace, c.age, clock, c.labels),
    }


def secret(s: m.Secret, clock: Clock, value: Callable[[str], str]) -> Obj:
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "data": {k: value(k) for k in s.keys},
        "metadata": meta(s.name, s.namespace, s.age, clock, s.labels),
        "type": s.type,
    }


def event(e: m.Event, clock: Clock, serial: int) -> Obj:
    kind, _, name = e.object.partition("/")
    rtype = resolve(kind)
    last = e.last_seen or e.age
    first = e.first_seen or last
    source = e.source or _EVENT_SOURCES.get(e.reason, "kubelet")
    involved: Obj = {
        "apiVersion": rtype.api_version if rtype else "v1",
        "kind": rtype.kind if rtype else kind,
        "name": name,
    }
    if rtype is None or rtype.namespaced:
        involved["namespace"] = e.namespace
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "count": e.count,
        "firstTimestamp": clock.stamp(first),
        "lastTimestamp": clock.stamp(last),
        "involvedObject": involved,
        "message": e.message,
        "metadata": meta(f"{name}.{serial + 0x17A3F2C0B1D4E000:x}", e.namespace, first, clock),
        "reason": e.reason,
        "source": {"component": source},
        "type": e.type,
    }


def quota(q: m.ResourceQuota, clock: Clock) -> Obj:
    return {
        "apiVersion": "v1",
        "kind": "ResourceQuota",
        "metadata": meta(q.name, q.namespace, q.age, clock),
        "spec": {"hard": dict(q.hard)},
        "status": {"hard": dict(q.hard), "used": dict(q.used)},
    }


def pdb(p: m.PodDisruptionBudget, clock: Clock) -> Obj:
    spec: Obj = {"selector": {"matchLabels": dict(p.selector)}}
    if p.min_available is not None:
        spec["minAvailable"] = p.min_available
    if p.max_unavailable is not None:
        spec["maxUnavailable"] = p.max_unavailable
    return {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": meta(p.name, p.namespace, p.age, clock),
        "spec": spec,
        "status": {},
    }
