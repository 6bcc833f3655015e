"""What Kubernetes' controllers do, done instantly: ReplicaSets for deployment templates, pods
for ReplicaSets / StatefulSets / DaemonSets, statuses, and Endpoints for Services.

`reconcile` runs after the cluster is built and after every write, so a deleted pod of a
deployment comes back under a new name and a scaled deployment has its new pods at once.
A new pod runs ready, unless its image is listed in the cluster's `image_faults`.
"""

from __future__ import annotations

from agentbench.sim.kube.controllers.budgets import update_budget
from agentbench.sim.kube.controllers.endpoints import update_endpoints
from agentbench.sim.kube.controllers.quota import FAILED, admit, update_quota
from agentbench.sim.kube.controllers.replicasets import (
    REVISION,
    STALLED,
    current_replicaset,
    progress_stalled,
)
from agentbench.sim.kube.controllers.scheduling import heal, is_ready, new_pod
from agentbench.sim.kube.objects.store import (
    Obj,
    Store,
    safe_hash,
)


def _faulty(store: Store, template: Obj) -> bool:
    return any(c["image"] in store.spec.image_faults for c in template["spec"]["containers"])


def reconcile(store: Store) -> None:
    heal(store)
    for dep in store.list_of("deployments"):
        _rollout(store, dep)
    for rs in store.list_of("replicasets"):
        _scale_pods(store, rs, rs["spec"].get("replicas", 0))
        _status(store, rs)
    for sts in store.list_of("statefulsets"):
        _statefulset(store, sts)
    for ds in store.list_of("daemonsets"):
        _daemonset(store, ds)
    for dep in store.list_of("deployments"):
        _deployment_status(store, dep)
    update_endpoints(store)
    for quota in store.list_of("resourcequotas"):
        update_quota(store, quota)
    for pdb in store.list_of("poddisruptionbudgets"):
        update_budget(store, pdb)


def _rollout(store: Store, dep: Obj) -> None:
    current = current_replicaset(store, dep)
    dep["metadata"].setdefault("annotations", {})[REVISION] = current["metadata"]["annotations"][
        REVISION
    ]
    replicas = dep["spec"]["replicas"]
    old = [rs for rs in store.owned_by("replicasets", dep) if rs is not current]
    healthy = [rs for rs in old if not _faulty(store, rs["spec"]["template"])]
    if _faulty(store, current["spec"]["template"]) and healthy:
        # A rolling update stalls: one surge pod of the new template, while the newest healthy
        # ReplicaSet keeps all but the allowed unavailable (25%, rounded down) pods.
        current["spec"]["replicas"] = min(replicas, max(1, -(-replicas // 4)))
        newest = max(healthy, key=lambda rs: int(rs["metadata"]["annotations"].get(REVISION, 0)))
        for rs in old:
            rs["spec"]["replicas"] = replicas - replicas // 4 if rs is newest else 0
        return
    current["spec"]["replicas"] = replicas
    for rs in old:
        rs["spec"]["replicas"] = 0


def _pods_of(store: Store, owner: Obj) -> list[Obj]:
    return store.owned_by("pods", owner)


def _scale_pods(store: Store, owner: Obj, wanted: int, names: list[str] | None = None) -> None:
    pods = _pods_of(store, owner)
    if names is not None:
        for name in names:
            if not any(p["metadata"]["name"] == name for p in pods) and admit(store, owner, name):
                new_pod(store, owner, name)
        return
    surplus = len(pods) - wanted
    if surplus > 0:
        order = sorted(pods, key=lambda p: (is_ready(p), p["metadata"]["creationTimestamp"]))
        for pod in order[:surplus]:
            store.remove("pods", pod["metadata"]["namespace"], pod["metadata"]["name"])
    for _ in range(-surplus):
        base = owner["metadata"]["name"]
        name = f"{base}-{safe_hash(f'{base}/{store.next_version()}', 5)}"
        if not admit(store, owner, name):
            break
        new_pod(store, owner, name)


def _status(store: Store, owner: Obj) -> list[Obj]:
    pods = _pods_of(store, owner)
    ready = sum(is_ready(p) for p in pods)
    failed = [c for c in owner.get("status", {}).get("conditions", []) if c["type"] == FAILED]
    owner["status"] = {
        "availableReplicas": ready,
        "fullyLabeledReplicas": len(pods),
        "observedGeneration": owner["metadata"].get("generation", 1),
        "readyReplicas": ready,
        "replicas": len(pods),
    }
    if owner.get("kind") == "StatefulSet":  # a ReplicaSet field only
        del owner["status"]["fullyLabeledReplicas"]
    owner["status"] = {k: v for k, v in owner["status"].items() if v or k == "replicas"}
    if failed and len(pods) < owner["spec"].get("replicas", 1):
        owner["status"]["conditions"] = failed
    return pods


def _statefulset(store: Store, sts: Obj) -> None:
    name = sts["metadata"]["name"]
    wanted = [f"{name}-{i}" for i in range(sts["spec"].get("replicas", 1))]
    for pod in _pods_of(store, sts):
        if pod["metadata"]["name"] not in wanted:
            store.remove("pods", pod["metadata"]["namespace"], pod["metadata"]["name"])
    _scale_pods(store, sts, len(wanted), wanted)
    pods = _status(store, sts)
    sts["status"] |= {"currentReplicas": len(pods), "updatedReplicas": len(pods)}


def _daemonset(store: Store, ds: Obj) -> None:
    on_node = {p["spec"].get("nodeName") for p in _pods_of(store, ds)}
    nodes = [
        n["metadata"]["name"]
        for n in store.list_of("nodes")
        if not any(
            t.get("effect") == "NoSchedule" and t["key"] != "node.kubernetes.io/unschedulable"
            for t in n["spec"].get("taints", [])
        )
    ]
    for node in nodes:
        if node not in on_node:
            base = ds["metadata"]["name"]
            new_pod(store, ds, f"{base}-{safe_hash(f'{base}/{node}', 5)}", node=node)
    pods = _pods_of(store, ds)
    ready = sum(is_ready(p) for p in pods)
    ds["status"] = {
        "currentNumberScheduled": len(pods),
        "desiredNumberScheduled": len(nodes),
        "numberAvailable": ready,
        "numberMisscheduled": 0,
        "numberReady": ready,
        "observedGeneration": 1,
        "updatedNumberScheduled": len(pods),
    }


def _deployment_status(store: Store, dep: Obj) -> None:
    current = current_replicaset(store, dep)
    pods = [p for rs in store.owned_by("replicasets", dep) for p in _pods_of(store, rs)]
    updated = _pods_of(store, current)
    ready = sum(is_ready(p) for p in pods)
    replicas = dep["spec"]["replicas"]
    available = ready >= replicas - replicas // 4
    stalled = progress_stalled(dep)
    complete = (
        len(updated) == replicas and all(is_ready(p) for p in updated) and len(pods) == replicas
    )
    rs_name = current["metadata"]["name"]
    progressing: Obj = {
        "type": "Progressing",
        "status": "False" if stalled else "True",
        "reason": STALLED
        if stalled
        else "NewReplicaSetAvailable"
        if complete
        else "ReplicaSetUpdated",
        "message": f'ReplicaSet "{rs_name}" has '
        + (
            "timed out progressing."
            if stalled
            else "successfully progressed."
            if complete
            else "is progressing."
        ),
    }
    stamp = store.clock.stamp("1m")
    status: Obj = {
        "availableReplicas": ready,
        "conditions": [
            {
                "lastTransitionTime": stamp,
                "lastUpdateTime": stamp,
                "message": "Deployment has minimum availability."
                if available
                else "Deployment does not have minimum availability.",
                "reason": "MinimumReplicasAvailable" if available else "MinimumReplicasUnavailable",
                "status": "True" if available else "False",
                "type": "Available",
            },
            {"lastTransitionTime": stamp, "lastUpdateTime": stamp} | progressing,
        ],
        "observedGeneration": dep["metadata"].get("generation", 1),
        "readyReplicas": ready,
        "replicas": len(pods),
        "unavailableReplicas": max(0, len(pods) - ready),
        "updatedReplicas": len(updated),
    }
    failure = [c for c in current["status"].get("conditions", []) if c["type"] == FAILED]
    status["conditions"] += failure
    dep["status"] = {k: v for k, v in status.items() if v or k == "replicas"}
