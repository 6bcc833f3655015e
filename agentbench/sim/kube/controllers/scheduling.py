"""Where a controller's new pod goes, and what it looks like: scheduled on the least busy
schedulable node, running ready unless its image is one of the cluster's `image_faults`."""

from __future__ import annotations

import copy

from agentbench.sim.kube.objects.pods import conditions
from agentbench.sim.kube.objects.store import Obj, Store, node_ip, owner_ref


def is_ready(pod: Obj) -> bool:
    return any(
        c["type"] == "Ready" and c["status"] == "True" for c in pod["status"].get("conditions", [])
    )


def schedulable_nodes(store: Store) -> list[Obj]:
    return [
        n
        for n in store.list_of("nodes")
        if not n["spec"].get("unschedulable")
        and not any(
            t.get("effect") in ("NoSchedule", "NoExecute") for t in n["spec"].get("taints", [])
        )
    ]


def new_pod(store: Store, owner: Obj, name: str, node: str | None = None) -> Obj:
    """A pod a controller creates from its owner's template, scheduled on the least busy
    schedulable node (or `node`, for DaemonSets)."""
    template = owner["spec"]["template"]
    namespace = owner["metadata"]["namespace"]
    if node is None:
        nodes = schedulable_nodes(store)
        load = {n["metadata"]["name"]: 0 for n in nodes}
        for other in store.list_of("pods"):
            if other["spec"].get("nodeName") in load:
                load[other["spec"]["nodeName"]] += 1
        node = min(load, key=lambda n: (load[n], n)) if load else None
    # While the declared cluster is built, controller-made pods are as old as their owner.
    now = owner["metadata"]["creationTimestamp"] if store.building else store.clock.now_stamp()
    faults = store.spec.image_faults
    statuses = []
    for c in template["spec"]["containers"]:
        fault = faults.get(c["image"]) or config_fault(store, namespace, template["spec"], c)
        status: Obj = {
            "image": c["image"],
            "imageID": "",
            "lastState": {},
            "name": c["name"],
            "ready": fault is None,
            "restartCount": 0,
            "started": fault is None,
            "state": {"waiting": _waiting(fault, c["image"])}
            if fault
            else {"running": {"startedAt": now}},
        }
        statuses.append(status)
        store.logs[(namespace, name, c["name"])] = ("", None)
    ready = node is not None and all(s["ready"] for s in statuses)
    serial = int(store.next_version())
    pod: Obj = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "creationTimestamp": now,
            "generateName": owner["metadata"]["name"] + "-",
            "labels": dict(template["metadata"]["labels"]),
            "name": name,
            "namespace": namespace,
            "ownerReferences": [owner_ref(owner)],
        },
        "spec": copy.deepcopy(template["spec"]) | ({"nodeName": node} if node else {}),
        "status": {
            "conditions": conditions(now, node is not None, ready, "Running"),
            "phase": "Running" if node and not _never_started(statuses) else "Pending",
            "qosClass": "BestEffort",
        },
    }
    if node:
        pod["status"] |= {
            "hostIP": node_ip(store, node),
            "podIP": _pod_ip(store, node, serial),
            "startTime": now,
            "containerStatuses": statuses,
        }
        pod["status"]["podIPs"] = [{"ip": pod["status"]["podIP"]}]
    store.usage[(namespace, name)] = {
        c["name"]: {"cpu": "1m", "memory": "16Mi"} for c in template["spec"]["containers"]
    }
    return store.add("pods", pod)


def _pod_ip(store: Store, node: str, serial: int) -> str:
    """An address in the node's pod CIDR (10.244.N.0/24)."""
    found = store.get("nodes", "", node)
    cidr = found["spec"].get("podCIDR", "10.244.0.0/24") if found else "10.244.0.0/24"
    return f"{cidr.rsplit('.', 1)[0]}.{serial % 240 + 10}"


_PULL = ("ErrImagePull", "ImagePullBackOff", "InvalidImageName")


def _waiting(reason: str, image: str) -> Obj:
    if reason == "ImagePullBackOff":
        return {"message": f'Back-off pulling image "{image}"', "reason": reason}
    return {"reason": reason}


def _never_started(statuses: list[Obj]) -> bool:
    """Pods whose containers never ran (image pulls, config errors) stay Pending."""
    return any(
        s["state"].get("waiting", {}).get("reason")
        in (*_PULL, "ContainerCreating", "CreateContainerConfigError")
        for s in statuses
    )


def _exists(store: Store, namespace: str, kind: str, name: str, key: str | None = None) -> bool:
    obj = store.get(kind, namespace, name)
    return obj is not None and (key is None or key in obj.get("data", {}))


def config_fault(store: Store, namespace: str, spec: Obj, container: Obj) -> str | None:
    """Why the kubelet cannot start this container: a volume's ConfigMap/Secret is missing
    (ContainerCreating, FailedMount) or an env reference is (CreateContainerConfigError)."""
    for v in spec.get("volumes", []):
        for kind, key, name_key in (
            ("configmaps", "configMap", "name"),
            ("secrets", "secret", "secretName"),
        ):
            source = v.get(key)
            if (
                source
                and not source.get("optional")
                and not _exists(store, namespace, kind, source[name_key])
            ):
                return "ContainerCreating"
    for e in container.get("env", []):
        for kind, ref_key in (("configmaps", "configMapKeyRef"), ("secrets", "secretKeyRef")):
            ref = e.get("valueFrom", {}).get(ref_key)
            if (
                ref
                and not ref.get("optional")
                and not _exists(store, namespace, kind, ref["name"], ref["key"])
            ):
                return "CreateContainerConfigError"
    for e in container.get("envFrom", []):
        for kind, ref_key in (("configmaps", "configMapRef"), ("secrets", "secretRef")):
            ref = e.get(ref_key)
            if ref and not ref.get("optional") and not _exists(store, namespace, kind, ref["name"]):
                return "CreateContainerConfigError"
    return None


def heal(store: Store) -> None:
    """The kubelet retries: a container waiting on a ConfigMap or Secret that now exists
    starts and runs ready. Not while the declared cluster is built: a declared waiting state
    is the task's fact, whatever the simulator can tell of its cause."""
    if store.building:
        return
    now = store.clock.now_stamp()
    for pod in store.list_of("pods"):
        statuses = pod["status"].get("containerStatuses", [])
        waiting = [
            s
            for s in statuses
            if s["state"].get("waiting", {}).get("reason")
            in ("ContainerCreating", "CreateContainerConfigError")
        ]
        if not waiting or not pod["spec"].get("nodeName"):
            continue
        by_name = {c["name"]: c for c in pod["spec"]["containers"]}
        namespace = pod["metadata"]["namespace"]
        if any(config_fault(store, namespace, pod["spec"], by_name[s["name"]]) for s in waiting):
            continue
        for s in waiting:
            s["state"] = {"running": {"startedAt": now}}
            s["ready"] = s["started"] = True
        ready = all(s.get("ready") for s in statuses)
        pod["status"]["phase"] = "Running"
        pod["status"]["conditions"] = conditions(now, True, ready, "Running")
