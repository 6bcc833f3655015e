"""`kubectl describe` for everything but pods: nodes, deployments, services, config, and a
common layout for the other types."""

from __future__ import annotations

from agentbench.sim.kube.controllers.replicasets import REVISION, current_replicaset
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.objects.units import rfc1123
from agentbench.sim.kube.printers.cells import endpoints_text
from agentbench.sim.kube.printers.describe import (
    Writer,
    describe_pod,
    write_container,
    write_events,
    write_volumes,
)
from agentbench.sim.kube.printers.describe_node import describe_node


def describe(store: Store, plural: str, obj: Obj) -> str:
    handler = {
        "pods": describe_pod,
        "nodes": describe_node,
        "deployments": _deployment,
        "services": _service,
        "configmaps": _configmap,
        "secrets": _secret,
    }.get(plural)
    return handler(store, obj) if handler else _generic(store, obj)


def _head(w: Writer, obj: Obj, namespace: bool = True) -> None:
    meta = obj["metadata"]
    w.line(0, f"Name:\t{meta['name']}")
    if namespace and meta.get("namespace"):
        w.line(0, f"Namespace:\t{meta['namespace']}")
    w.map(0, "Labels", meta.get("labels") or {})
    w.map(0, "Annotations", meta.get("annotations") or {}, sep=": ")


def _deployment(store: Store, dep: Obj) -> str:
    w = Writer()
    meta, spec, status = dep["metadata"], dep["spec"], dep.get("status", {})
    w.line(0, f"Name:\t{meta['name']}")
    w.line(0, f"Namespace:\t{meta['namespace']}")
    w.line(0, f"CreationTimestamp:\t{rfc1123(meta['creationTimestamp'])}")
    w.map(0, "Labels", meta.get("labels") or {})
    w.map(0, "Annotations", meta.get("annotations") or {}, sep=": ")
    selector = ",".join(f"{k}={v}" for k, v in spec["selector"]["matchLabels"].items())
    w.line(0, f"Selector:\t{selector}")
    w.line(
        0,
        f"Replicas:\t{spec['replicas']} desired | {status.get('updatedReplicas', 0)} "
        f"updated | {status.get('replicas', 0)} total | "
        f"{status.get('availableReplicas', 0)} available | "
        f"{status.get('unavailableReplicas', 0)} unavailable",
    )
    w.line(0, f"StrategyType:\t{spec['strategy']['type']}")
    w.line(0, "MinReadySeconds:\t0")
    if spec["strategy"]["type"] == "RollingUpdate":
        w.line(0, "RollingUpdateStrategy:\t25% max unavailable, 25% max surge")
    write_template(w, spec["template"])
    w.line(0, "Conditions:")
    w.line(1, "Type\tStatus\tReason")
    w.line(1, "----\t------\t------")
    for c in status.get("conditions", []):
        w.line(1, f"{c['type']} \t{c['status']}\t{c['reason']}")
    current = current_replicaset(store, dep)
    old = [
        rs
        for rs in store.owned_by("replicasets", dep)
        if rs is not current and rs["spec"].get("replicas")
    ]

    def shown(rs: Obj) -> str:
        s = rs.get("status", {})
        return (
            f"{rs['metadata']['name']} ({s.get('replicas', 0)}/{rs['spec']['replicas']} "
            "replicas created)"
        )

    w.line(0, "OldReplicaSets:\t" + (", ".join(shown(rs) for rs in old) or "<none>"))
    w.line(0, f"NewReplicaSet:\t{shown(current)}")
    write_events(w, store, dep)
    return w.text()


def write_template(w: Writer, template: Obj) -> None:
    w.line(0, "Pod Template:")
    w.map(1, "Labels", template["metadata"].get("labels") or {})
    w.line(1, "Containers:")
    for c in template["spec"]["containers"]:
        write_container(w, c, None)
    write_volumes(w, template["spec"].get("volumes", []), level=1)
    w.line(1, "Node-Selectors:\t<none>")
    w.line(1, "Tolerations:\t<none>")


def _service(store: Store, svc: Obj) -> str:
    w = Writer()
    _head(w, svc)
    spec = svc["spec"]
    w.line(
        0,
        "Selector:\t"
        + (",".join(f"{k}={v}" for k, v in spec.get("selector", {}).items()) or "<none>"),
    )
    w.line(0, f"Type:\t{spec['type']}")
    w.line(0, "IP Family Policy:\tSingleStack")
    w.line(0, "IP Families:\tIPv4")
    w.line(0, f"IP:\t{spec.get('clusterIP')}")
    w.line(0, f"IPs:\t{spec.get('clusterIP')}")
    ep = store.get("endpoints", svc["metadata"]["namespace"], svc["metadata"]["name"])
    for p in spec.get("ports", []):
        w.line(0, f"Port:\t{p.get('name', '<unset>')}\t{p['port']}/{p['protocol']}")
        w.line(0, f"TargetPort:\t{p['targetPort']}/{p['protocol']}")
        if p.get("nodePort"):
            w.line(0, f"NodePort:\t{p.get('name', '<unset>')}\t{p['nodePort']}/{p['protocol']}")
        w.line(0, "Endpoints:\t" + (endpoints_text(ep) if ep else "<none>").replace("<none>", ""))
    w.line(0, "Session Affinity:\tNone")
    w.line(0, "Internal Traffic Policy:\tCluster")
    write_events(w, store, svc)
    return w.text()


def _configmap(store: Store, cm: Obj) -> str:
    w = Writer()
    _head(w, cm)
    w.line(0, "")
    w.line(0, "Data")
    w.line(0, "====")
    for key, value in sorted(cm.get("data", {}).items()):
        w.line(0, f"{key}:")
        w.line(0, "----")
        w.lines.extend(value.rstrip("\n").split("\n"))
        w.line(0, "")
    w.line(0, "")
    w.line(0, "BinaryData")
    w.line(0, "====")
    w.line(0, "")
    write_events(w, store, cm)
    return w.text()


def _secret(store: Store, secret: Obj) -> str:
    w = Writer()
    _head(w, secret)
    w.line(0, "")
    w.line(0, f"Type:\t{secret.get('type', 'Opaque')}")
    w.line(0, "")
    w.line(0, "Data")
    w.line(0, "====")
    for key in sorted(secret.get("data", {})):
        w.line(0, f"{key}:\t{len(key) + 2} bytes")  # the stand-in "<key>"
    return w.text()


def _generic(store: Store, obj: Obj) -> str:
    """Name, labels, the spec/status figures that matter per type, events."""
    w = Writer()
    _head(w, obj)
    spec, status = obj.get("spec", {}), obj.get("status", {})
    kind = obj["kind"]
    if kind in ("ReplicaSet", "StatefulSet", "DaemonSet"):
        if kind == "ReplicaSet" and REVISION in obj["metadata"].get("annotations", {}):
            owner = store.controller_of(obj)
            if owner:
                w.line(0, f"Controlled By:\t{owner[0]}/{owner[1]}")
        w.line(
            0,
            "Selector:\t"
            + ",".join(f"{k}={v}" for k, v in spec["selector"]["matchLabels"].items()),
        )
        desired = spec.get("replicas", status.get("desiredNumberScheduled", 0))
        w.line(
            0,
            f"Replicas:\t{status.get('replicas', status.get('currentNumberScheduled', 0))}"
            f" current / {desired} desired",
        )
        ready = status.get("readyReplicas", status.get("numberReady", 0))
        w.line(0, f"Pods Status:\t{ready} Running / 0 Waiting / 0 Succeeded / 0 Failed")
        write_template(w, spec["template"])
        if status.get("conditions"):
            w.line(0, "Conditions:")
            w.line(1, "Type\tStatus\tReason")
            w.line(1, "----\t------\t------")
            for c in status["conditions"]:
                w.line(1, f"{c['type']}\t{c['status']}\t{c['reason']}")
    elif kind == "Namespace":
        w.line(0, f"Status:\t{status.get('phase', 'Active')}")
        w.line(0, "")
        w.line(0, "No resource quota.")
        w.line(0, "")
        w.line(0, "No LimitRange resource.")
        return w.text()
    elif kind == "ResourceQuota":
        w.line(0, "Resource\tUsed\tHard")
        w.line(0, "--------\t----\t----")
        for key, hard in sorted(status.get("hard", {}).items()):
            w.line(0, f"{key}\t{status.get('used', {}).get(key, '0')}\t{hard}")
        return w.text()
    elif kind == "Job":
        w.line(0, f"Completions:\t{spec.get('completions', 1)}")
        w.line(
            0,
            f"Pods Statuses:\t{status.get('active', 0)} Active / "
            f"{status.get('succeeded', 0)} Succeeded / {status.get('failed', 0)} Failed",
        )
    elif kind == "Endpoints":
        w.line(0, "Subsets:")
        for s in obj.get("subsets", []):
            w.line(1, "Addresses:\t" + ",".join(a["ip"] for a in s.get("addresses", [])))
            w.line(
                1,
                "NotReadyAddresses:\t"
                + (",".join(a["ip"] for a in s.get("notReadyAddresses", [])) or "<none>"),
            )
    write_events(w, store, obj)
    return w.text()
