"""Declared pods and containers as the API server shapes them (spec and status)."""

from __future__ import annotations

import hashlib

from agentbench.sim.kube.objects.store import Obj, owner_ref
from agentbench.sim.kube.objects.units import Clock
from agentbench.sim.kube.schema.workloads import Container, Pod, Probe, State, Template, Volume


def probe(p: Probe) -> Obj:
    out: Obj = {}
    if p.exec is not None:
        out["exec"] = {"command": p.exec}
    elif p.tcp_port is not None:
        out["tcpSocket"] = {"port": p.tcp_port}
    else:
        out["httpGet"] = {"path": p.path or "/", "port": p.port or 80, "scheme": p.scheme}
    out |= {
        "failureThreshold": p.failure_threshold,
        "initialDelaySeconds": p.initial_delay,
        "periodSeconds": p.period,
        "successThreshold": p.success_threshold,
        "timeoutSeconds": p.timeout,
    }
    return out


def _port(port: int | str) -> Obj:
    number, _, protocol = str(port).partition("/")
    return {"containerPort": int(number), "protocol": protocol.upper() or "TCP"}


# What the built-in priority classes resolve to in a pod's spec.priority.
PRIORITIES = {"system-cluster-critical": 2000000000, "system-node-critical": 2000001000}


def container_spec(c: Container) -> Obj:
    """A container as it appears under spec.containers."""
    out: Obj = {"name": c.name, "image": c.image, "imagePullPolicy": "IfNotPresent"}
    if c.command:
        out["command"] = c.command
    if c.args:
        out["args"] = c.args
    if c.ports:
        out["ports"] = [_port(p) for p in c.ports]
    if c.env:
        out["env"] = [
            _env(e.name, e.value, e.configmap, e.secret, e.key, e.optional) for e in c.env
        ]
    if c.env_from:
        out["envFrom"] = [
            {"configMapRef": {"name": e.configmap}}
            if e.configmap
            else {"secretRef": {"name": e.secret}}
            for e in c.env_from
        ]
    resources: Obj = {}
    if c.limits:
        resources["limits"] = dict(c.limits)
    if c.requests:
        resources["requests"] = dict(c.requests)
    out["resources"] = resources
    for field, value in (
        ("livenessProbe", c.liveness),
        ("readinessProbe", c.readiness),
        ("startupProbe", c.startup),
    ):
        if value is not None:
            out[field] = probe(value)
    out["terminationMessagePath"] = "/dev/termination-log"
    out["terminationMessagePolicy"] = "File"
    if c.mounts:
        out["volumeMounts"] = [
            {"mountPath": m.path, "name": m.name}
            | ({"readOnly": True} if m.read_only else {})
            | ({"subPath": m.sub_path} if m.sub_path else {})
            for m in c.mounts
        ]
    return out


def _env(
    name: str,
    value: str | None,
    cm: str | None,
    secret: str | None,
    key: str | None,
    optional: bool,
) -> Obj:
    if cm or secret:
        ref: Obj = {"key": key or name, "name": cm or secret}
        if optional:
            ref["optional"] = True
        return {"name": name, "valueFrom": {"configMapKeyRef" if cm else "secretKeyRef": ref}}
    return {"name": name, "value": value or ""}


def volume(v: Volume) -> Obj:
    if v.configmap:
        return {"name": v.name, "configMap": {"name": v.configmap, "defaultMode": 420}}
    if v.secret:
        return {"name": v.name, "secret": {"secretName": v.secret, "defaultMode": 420}}
    if v.pvc:
        return {"name": v.name, "persistentVolumeClaim": {"claimName": v.pvc}}
    if v.host_path:
        return {"name": v.name, "hostPath": {"path": v.host_path, "type": ""}}
    return {"name": v.name, "emptyDir": {}}


def state(s: State | None, clock: Clock, container_id: str) -> Obj:
    """A containerStatuses state (running/waiting/terminated) with RFC 3339 times."""
    if s is None:
        return {}
    if s.kind == "running":
        return {"running": {"startedAt": clock.stamp(s.started or "0s")}}
    if s.kind == "waiting":
        inner: Obj = {"reason": s.reason or "ContainerCreating"}
        if s.message:
            inner["message"] = s.message
        return {"waiting": inner}
    term: Obj = {
        "containerID": container_id,
        "exitCode": s.exit_code if s.exit_code is not None else 0,
        "finishedAt": clock.stamp(s.finished or "0s"),
        "reason": s.reason or ("Completed" if not s.exit_code else "Error"),
        "startedAt": clock.stamp(s.started or s.finished or "0s"),
    }
    if s.message:
        term["message"] = s.message
    if s.signal is not None:
        term["signal"] = s.signal
    return {"terminated": term}


def container_status(c: Container, clock: Clock, pod_name: str) -> Obj:
    cid = "containerd://" + hashlib.sha256(f"{pod_name}/{c.name}".encode()).hexdigest()
    ready = c.ready if c.ready is not None else (c.state.kind == "running")
    out: Obj = {
        "containerID": cid,
        "image": c.image if ":" in c.image.rpartition("/")[2] else c.image + ":latest",
        "imageID": "",
        "lastState": state(c.last_state, clock, cid),
        "name": c.name,
        "ready": ready,
        "restartCount": c.restarts,
        "started": c.state.kind == "running",
        "state": state(c.state, clock, cid),
    }
    if c.state.kind == "waiting" and c.last_state is None:
        del out["containerID"]
    return out


def template_containers(t: Template, default_name: str) -> list[Container]:
    """The template's containers; the short form `image:` is one container named after the
    workload."""
    if t.containers:
        return list(t.containers)
    return [Container(name=default_name, image=t.image or f"{default_name}:latest")]


def pod_object(p: Pod, clock: Clock, owner: Obj | None, labels: dict[str, str]) -> Obj:
    """A Pod object from its declaration; `labels` already merged with the owner's."""
    created = clock.stamp(p.age) or clock.now_stamp()
    statuses = [container_status(c, clock, p.name) for c in p.containers]
    all_ready = bool(statuses) and all(s["ready"] for s in statuses)
    scheduled = p.node is not None
    meta: Obj = {
        "creationTimestamp": created,
        "labels": dict(labels),
        "name": p.name,
        "namespace": p.namespace,
    }
    if p.annotations:
        meta["annotations"] = dict(p.annotations)
    if owner is not None:
        meta["generateName"] = p.name.rpartition("-")[0] + "-"
        meta["ownerReferences"] = [owner_ref(owner)]
    spec: Obj = {
        "containers": [container_spec(c) for c in p.containers],
        "dnsPolicy": "ClusterFirst",
        "enableServiceLinks": True,
        "preemptionPolicy": "PreemptLowerPriority",
        "priority": 0,
        "restartPolicy": p.restart_policy,
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "serviceAccount": p.service_account,
        "serviceAccountName": p.service_account,
        "terminationGracePeriodSeconds": 30,
        "tolerations": _default_tolerations(),
    }
    if p.init_containers:
        spec["initContainers"] = [container_spec(c) for c in p.init_containers]
    if p.node:
        spec["nodeName"] = p.node
    if p.priority_class:
        spec["priorityClassName"] = p.priority_class
        spec["priority"] = PRIORITIES.get(p.priority_class, 1000)
    if p.volumes:
        spec["volumes"] = [volume(v) for v in p.volumes]
    status: Obj = {
        "conditions": conditions(created, scheduled, all_ready, p.phase),
        "phase": p.phase,
        "qosClass": p.qos_class or qos_class(p.containers),
    }
    if scheduled:
        status["hostIP"] = "10.0.1.10"
        status["startTime"] = created
    if p.ip:
        status["podIP"] = p.ip
        status["podIPs"] = [{"ip": p.ip}]
    if p.reason:
        status["reason"] = p.reason
    if p.message:
        status["message"] = p.message
    if statuses:
        status["containerStatuses"] = statuses
    if p.init_containers:
        status["initContainerStatuses"] = [
            container_status(c, clock, p.name) for c in p.init_containers
        ]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def _default_tolerations() -> list[Obj]:
    return [
        {
            "effect": "NoExecute",
            "key": f"node.kubernetes.io/{k}",
            "operator": "Exists",
            "tolerationSeconds": 300,
        }
        for k in ("not-ready", "unreachable")
    ]


def conditions(created: str, scheduled: bool, ready: bool, phase: str) -> list[Obj]:
    def cond(kind: str, ok: bool) -> Obj:
        out: Obj = {
            "lastProbeTime": None,
            "lastTransitionTime": created,
            "status": "True" if ok else "False",
            "type": kind,
        }
        if not ok and kind in ("Ready", "ContainersReady"):
            out["reason"] = "PodCompleted" if phase == "Succeeded" else "ContainersNotReady"
        return out

    if not scheduled:
        return [cond("PodScheduled", False) | {"reason": "Unschedulable"}]
    return [
        cond("PodReadyToStartContainers", True),
        cond("Initialized", True),
        cond("Ready", ready),
        cond("ContainersReady", ready),
        cond("PodScheduled", True),
    ]


def qos_class(containers: list[Container]) -> str:
    if not any(c.limits or c.requests for c in containers):
        return "BestEffort"
    guaranteed = all(
        c.limits
        and set(c.limits) >= {"cpu", "memory"}
        and all(c.requests.get(k, v) == v for k, v in c.limits.items())
        for c in containers
    )
    return "Guaranteed" if guaranteed else "Burstable"


def usage_of(containers: list[Container]) -> dict[str, dict[str, str]]:
    return {c.name: dict(c.usage) for c in containers}
