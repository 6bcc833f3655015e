"""Deployment revisions as ReplicaSets: a pod template's ReplicaSet is found by comparing
templates (without the pod-template-hash) and created, as the next revision, when missing."""

from __future__ import annotations

import copy
import json

from agentbench.sim.kube.objects.pods import container_spec, volume
from agentbench.sim.kube.objects.store import Obj, Store, owner_ref, safe_hash
from agentbench.sim.kube.objects.units import Clock
from agentbench.sim.kube.schema.workloads import Container, Template

REVISION = "deployment.kubernetes.io/revision"
CHANGE_CAUSE = "kubernetes.io/change-cause"


def workload_meta(
    kind: str,
    api_version: str,
    name: str,
    namespace: str,
    labels: dict[str, str],
    age: str,
    clock: Clock,
) -> Obj:
    return {
        "apiVersion": api_version,
        "kind": kind,
        "metadata": {
            "creationTimestamp": clock.stamp(age),
            "generation": 1,
            "labels": dict(labels or {"app": name}),
            "name": name,
            "namespace": namespace,
        },
    }


def template_object(containers: list[Container], selector: dict[str, str], t: Template) -> Obj:
    spec: Obj = {
        "containers": [container_spec(c) for c in containers],
        "dnsPolicy": "ClusterFirst",
        "restartPolicy": "Always",
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "terminationGracePeriodSeconds": 30,
    }
    if t.volumes:
        spec["volumes"] = [volume(v) for v in t.volumes]
    return {"metadata": {"labels": {**selector, **t.labels}}, "spec": spec}


def new_replicaset(
    store: Store,
    dep: Obj,
    template: Obj,
    hash_: str,
    revision: int,
    age: str = "0s",
    change_cause: str | None = None,
) -> Obj:
    name = f"{dep['metadata']['name']}-{hash_}"
    template = copy.deepcopy(template)
    template["metadata"]["labels"]["pod-template-hash"] = hash_
    annotations = {
        REVISION: str(revision),
        "deployment.kubernetes.io/desired-replicas": str(dep["spec"]["replicas"]),
    }
    if change_cause:
        annotations[CHANGE_CAUSE] = change_cause
    selector = dict(dep["spec"]["selector"]["matchLabels"]) | {"pod-template-hash": hash_}
    rs: Obj = {
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {
            "annotations": annotations,
            "creationTimestamp": store.clock.stamp(age),
            "generation": 1,
            "labels": dict(template["metadata"]["labels"]),
            "name": name,
            "namespace": dep["metadata"]["namespace"],
            "ownerReferences": [owner_ref(dep)],
        },
        "spec": {"replicas": 0, "selector": {"matchLabels": selector}, "template": template},
        "status": {},
    }
    return store.add("replicasets", rs)


def template_key(template: Obj) -> str:
    """A template's identity without its pod-template-hash label (no deep copy: hot path)."""
    meta = dict(template.get("metadata", {}))
    meta["labels"] = {k: v for k, v in meta.get("labels", {}).items() if k != "pod-template-hash"}
    return json.dumps({**template, "metadata": meta}, sort_keys=True)


def current_replicaset(store: Store, dep: Obj) -> Obj:
    """The ReplicaSet running the deployment's template, created (next revision) if missing."""
    owned = store.owned_by("replicasets", dep)
    wanted = template_key(dep["spec"]["template"])
    for rs in owned:
        if template_key(rs["spec"]["template"]) == wanted:
            return rs
    revision = 1 + max(
        (int(r["metadata"]["annotations"].get(REVISION, "0")) for r in owned), default=0
    )
    seed = json.dumps(dep["spec"]["template"], sort_keys=True)
    rs = new_replicaset(store, dep, dep["spec"]["template"], safe_hash(seed, 10), revision)
    rs["metadata"]["annotations"].update(
        {k: v for k, v in dep["metadata"].get("annotations", {}).items() if k == CHANGE_CAUSE}
    )
    return rs


STALLED = "ProgressDeadlineExceeded"


def progress_stalled(dep: Obj) -> bool:
    """A Deployment past its progress deadline: its Progressing condition says so (the API's own
    record of it; there is no status field for it)."""
    return any(
        c.get("type") == "Progressing" and c.get("reason") == STALLED
        for c in dep.get("status", {}).get("conditions", [])
    )
