"""Turn a declared `Cluster` into a live `Store` of Kubernetes objects."""

from __future__ import annotations

import base64
import copy
import re

from agentbench.sim.kube.controllers.quota import usage
from agentbench.sim.kube.controllers.reconcile import reconcile
from agentbench.sim.kube.controllers.replicasets import (
    STALLED,
    new_replicaset,
    template_object,
    workload_meta,
)
from agentbench.sim.kube.objects import batch, infra, storage
from agentbench.sim.kube.objects.pods import pod_object, template_containers, usage_of
from agentbench.sim.kube.objects.store import Obj, Store, node_ip, safe_hash
from agentbench.sim.kube.schema.model import Cluster
from agentbench.sim.kube.schema.workloads import Container, Deployment, Pod, Revision, Template

_SYSTEM_NAMESPACES = ("default", "kube-node-lease", "kube-public", "kube-system")


def build_store(spec: Cluster) -> Store:
    """Every declared object, plus what controllers would have made, reconciled. Built once
    per declaration; later calls copy the built state (an unpickle, ~5x cheaper)."""
    blob = spec.built_cache()
    if blob is not None:
        return Store.thaw(spec, blob)
    store = _build(spec)
    spec.built_cache(store.freeze())
    return store


def _build(spec: Cluster) -> Store:
    store = Store(spec)
    names = set(_SYSTEM_NAMESPACES) | set(spec.namespaces)
    for group in (
        spec.pods,
        spec.deployments,
        spec.statefulsets,
        spec.daemonsets,
        spec.jobs,
        spec.cronjobs,
        spec.services,
        spec.ingresses,
        spec.configmaps,
        spec.secrets,
        spec.events,
        spec.quotas,
        spec.pdbs,
        spec.pvcs,
    ):
        names |= {o.namespace for o in group}
    for name in sorted(names):
        store.add("namespaces", infra.namespace(name, store.clock))
        # Every namespace gets the cluster CA bundle, as the root CA publisher makes it.
        store.add("configmaps", infra.configmap(infra.root_ca(name), store.clock))
    nodes = list(spec.nodes)
    declared_nodes = {n.name for n in nodes}
    for pod in spec.pods:
        if pod.node and pod.node not in declared_nodes:
            declared_nodes.add(pod.node)
            nodes.append(infra.implied_node(pod.node))
    if not nodes:
        nodes.append(infra.implied_node("worker-1"))
    for index, node in enumerate(nodes):
        store.add("nodes", infra.node(node, store.clock, spec.version, index))
        store.usage[("", node.name)] = {"": dict(node.usage)}
    templates = _add_workloads(store, spec)
    for key, (_, containers) in templates.items():  # files a template's image brings (exec)
        for c in containers:
            if c.files:
                store.image_files[(key.split("/")[1], c.name, c.image)] = dict(c.files)
    _add_pods(store, spec, templates)
    if not any(s.name == "kubernetes" and s.namespace == "default" for s in spec.services):
        store.add("services", infra.service(infra.api_service(), store.clock))
        store.add("endpoints", infra.fixed_endpoints(infra.api_service(), store.clock))
    for svc in spec.services:
        store.add("services", infra.service(svc, store.clock))
        if svc.endpoints is not None:
            store.add("endpoints", infra.fixed_endpoints(svc, store.clock))
    for ing in spec.ingresses:
        store.add("ingresses", infra.ingress(ing, store.clock))
    for cm in spec.configmaps:
        store.add("configmaps", infra.configmap(cm, store.clock))
    for secret in spec.secrets:
        store.add("secrets", infra.secret(secret, store.clock, _placeholder))
    for event in spec.events:
        store.add("events", infra.event(event, store.clock, len(store.objects["events"])))
    for quota in spec.quotas:
        store.add("resourcequotas", infra.quota(quota, store.clock))
    for pdb in spec.pdbs:
        store.add("poddisruptionbudgets", infra.pdb(pdb, store.clock))
    for pvc in spec.pvcs:
        claim, volume = storage.pvc(pvc, store.clock)
        store.add("persistentvolumeclaims", claim)
        store.add("persistentvolumes", volume)
    for quota_obj in store.list_of("resourcequotas"):  # the declared usage is the baseline
        for resource in quota_obj["spec"].get("hard", {}):
            usage(store, quota_obj, resource)
    reconcile(store)
    store.building = False
    return store


def _placeholder(key: str) -> str:
    """Secret values are never declared; each key holds a fixed stand-in."""
    return base64.b64encode(f"<{key}>".encode()).decode()


def _add_workloads(store: Store, spec: Cluster) -> dict[str, tuple[Obj, list[Container]]]:
    """Workload objects; returns owner key ("deployment/ns/x") -> (owning object, containers)."""
    owners: dict[str, tuple[Obj, list[Container]]] = {}
    for dep in spec.deployments:
        pods = _pods_of(spec, "deployment", dep.namespace, dep.name)
        containers = _containers(dep.template, dep.image, dep.name, pods)
        replicas = dep.replicas if dep.replicas is not None else (len(pods) or 1)
        obj = workload_meta(
            "Deployment", "apps/v1", dep.name, dep.namespace, dep.labels, dep.age, store.clock
        )
        obj["metadata"]["annotations"] = dict(dep.annotations)
        selector = dep.selector or dep.template.labels or {"app": dep.name}
        obj["spec"] = {
            "progressDeadlineSeconds": 600,
            "replicas": replicas,
            "revisionHistoryLimit": 10,
            "selector": {"matchLabels": selector},
            "strategy": {"type": dep.strategy}
            | (
                {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}
                if dep.strategy == "RollingUpdate"
                else {}
            ),
            "template": template_object(containers, selector, dep.template),
        }
        if dep.paused:
            obj["spec"]["paused"] = True
        obj["status"] = (
            {"conditions": [{"type": "Progressing", "status": "False", "reason": STALLED}]}
            if dep.progress_deadline_exceeded
            else {}
        )
        store.add("deployments", obj)
        for number, rs, rs_containers in _add_revisions(store, obj, dep, containers, pods):
            owners[f"deployment/{dep.namespace}/{dep.name}#{number}"] = (rs, rs_containers)
            owners[f"deployment/{dep.namespace}/{dep.name}"] = (rs, rs_containers)
    for kind, plural, items in (
        ("StatefulSet", "statefulsets", spec.statefulsets),
        ("DaemonSet", "daemonsets", spec.daemonsets),
    ):
        for w in items:
            pods = _pods_of(spec, kind.lower(), w.namespace, w.name)
            containers = _containers(w.template, w.image, w.name, pods)
            obj = workload_meta(kind, "apps/v1", w.name, w.namespace, w.labels, w.age, store.clock)
            selector = w.selector or w.template.labels or {"app": w.name}
            obj["spec"] = {
                "selector": {"matchLabels": selector},
                "template": template_object(containers, selector, w.template),
            }
            if kind == "StatefulSet":
                obj["spec"] |= {
                    "replicas": getattr(w, "replicas", 1),
                    "serviceName": getattr(w, "service_name", None) or w.name,
                }
            store.add(plural, obj)
            owners[f"{kind.lower()}/{w.namespace}/{w.name}"] = (obj, containers)
    for cj in spec.cronjobs:
        store.add(
            "cronjobs",
            batch.cronjob(cj, store.clock, _containers(cj.template, cj.image, cj.name, [])),
        )
    for job in spec.jobs:
        pods = _pods_of(spec, "job", job.namespace, job.name)
        containers = _containers(job.template, job.image, job.name, pods)
        owner = (
            store.get("cronjobs", job.namespace, job.owner.partition("/")[2]) if job.owner else None
        )
        obj = store.add("jobs", batch.job(job, store.clock, containers, owner))
        owners[f"job/{job.namespace}/{job.name}"] = (obj, containers)
    return owners


def _add_revisions(
    store: Store, dep_obj: Obj, dep: Deployment, containers: list[Container], pods: list[Pod]
) -> list[tuple[int, Obj, list[Container]]]:
    """One ReplicaSet per declared revision, oldest first (the last is current)."""
    revisions: list[Revision | None] = list(dep.revisions) or [None]
    made: list[tuple[int, Obj, list[Container]]] = []
    for position, rev in enumerate(revisions, start=1):
        number = rev.number if rev and rev.number else position
        image = rev.image if rev and rev.image else None
        rev_containers = containers
        if rev and rev.template:
            rev_containers = _containers(rev.template, rev.image, dep.name, [])
        elif image:
            rev_containers = [containers[0].model_copy(update={"image": image}), *containers[1:]]
        last = position == len(revisions)
        hash_ = (
            (rev.hash if rev and rev.hash else None)
            or _hash_from_pods(
                dep.name, [p for p in pods if p.revision == number or (last and not p.revision)]
            )
            or safe_hash(f"{dep.namespace}/{dep.name}/{number}", 10)
        )
        template = template_object(
            rev_containers, dep_obj["spec"]["selector"]["matchLabels"], dep.template
        )
        if last:
            dep_obj["spec"]["template"] = template
            if rev and rev.change_cause:
                dep_obj["metadata"]["annotations"]["kubernetes.io/change-cause"] = rev.change_cause
        rs = new_replicaset(
            store,
            dep_obj,
            template,
            hash_,
            number,
            age=rev.age if rev else dep.age,
            change_cause=rev.change_cause if rev else None,
        )
        rs["spec"]["replicas"] = dep_obj["spec"]["replicas"] if last else 0
        made.append((number, rs, rev_containers))
    dep_obj["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = str(made[-1][0])
    return made


def _hash_from_pods(name: str, pods: list[Pod]) -> str | None:
    for pod in pods:
        found = re.fullmatch(rf"{re.escape(name)}-([a-z0-9]{{5,10}})-[a-z0-9]{{5}}", pod.name)
        if found:
            return found.group(1)
    return None


def _pods_of(spec: Cluster, kind: str, namespace: str, name: str) -> list[Pod]:
    return [p for p in spec.pods if p.owner == f"{kind}/{name}" and p.namespace == namespace]


def _containers(t: Template, image: str | None, name: str, pods: list[Pod]) -> list[Container]:
    """A workload's template containers: declared, or the short `image:`, or its first pod's."""
    if t.containers or t.image or image:
        base = t.model_copy(update={"image": t.image or image})
        return template_containers(base, name)
    if pods and pods[0].containers:
        return [_spec_only(c) for c in pods[0].containers]
    return template_containers(t, name)


def _spec_only(c: Container) -> Container:
    keep = {
        "files",
        "name",
        "image",
        "ports",
        "command",
        "args",
        "limits",
        "requests",
        "liveness",
        "readiness",
        "startup",
        "env",
        "env_from",
        "mounts",
        "usage",
    }
    return Container(**{k: getattr(c, k) for k in keep})


def _add_pods(store: Store, spec: Cluster, owners: dict[str, tuple[Obj, list[Container]]]) -> None:
    for pod in spec.pods:
        owner: Obj | None = None
        labels = dict(pod.labels)
        containers = pod.containers
        if pod.owner:
            kind, _, name = pod.owner.partition("/")
            key = f"{kind.lower()}/{pod.namespace}/{name}"
            found = owners.get(f"{key}#{pod.revision}" if pod.revision else key)
            if found is None and kind.lower() == "replicaset":
                rs = store.get("replicasets", pod.namespace, name)
                found = (rs, []) if rs else None
            if found is None:
                raise ValueError(f"pod {pod.name}: owner {pod.owner!r} is not declared")
            owner, template = found
            labels = {**owner["spec"]["template"]["metadata"]["labels"], **labels}
            containers = _merge(template, pod.containers)
        pod = pod.model_copy(update={"containers": containers})
        obj = store.add("pods", pod_object(pod, store.clock, owner, labels))
        volumes = owner["spec"]["template"]["spec"].get("volumes") if owner else None
        if volumes and "volumes" not in obj["spec"]:  # a controller's pod has its template's
            obj["spec"]["volumes"] = copy.deepcopy(volumes)
        if pod.node and "hostIP" in obj["status"]:
            obj["status"]["hostIP"] = node_ip(store, pod.node)
        store.usage[(pod.namespace, pod.name)] = usage_of(containers)
        for c in containers:
            store.logs[(pod.namespace, pod.name, c.name)] = (c.logs, c.previous_logs)
            if c.files:
                store.files[(pod.namespace, pod.name, c.name)] = dict(c.files)


def _merge(template: list[Container], declared: list[Container]) -> list[Container]:
    """Template containers overlaid with what the pod declares (state, logs, ...)."""
    if not declared:
        return list(template)
    by_name = {c.name: c for c in template}
    out = []
    for index, c in enumerate(declared):
        base = by_name.get(c.name) or (template[index] if index < len(template) else None)
        if base is None:
            out.append(c)
            continue
        out.append(base.model_copy(update={k: getattr(c, k) for k in c.model_fields_set}))
    return out
