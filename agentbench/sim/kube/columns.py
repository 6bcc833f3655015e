"""The columns `kubectl get` prints for each type (normal, then the extra `-o wide` ones)."""

from __future__ import annotations

from collections.abc import Callable

from agentbench.sim.kube.cells import (
    endpoints_text,
    external,
    images,
    job_duration,
    job_status,
    modes,
    node_roles,
    node_status,
    pod_status,
    ports,
    quota,
    ready,
    restarts,
    selector,
)
from agentbench.sim.kube.store import Obj, Store

Row = list[str]


def columns(
    plural: str, store: Store
) -> tuple[list[str], list[str], Callable[[Obj], Row], Callable[[Obj], Row]]:
    """(headers, wide headers, row, wide row) for a type."""
    c = store.clock

    def age(o: Obj) -> str:
        return c.age(o["metadata"].get("creationTimestamp"))

    def name(o: Obj) -> str:
        return str(o["metadata"]["name"])

    none: Callable[[Obj], Row] = lambda o: []  # noqa: E731
    if plural == "pods":
        return (
            ["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
            ["IP", "NODE", "NOMINATED NODE", "READINESS GATES"],
            lambda o: [name(o), ready(o), pod_status(o), restarts(o, c), age(o)],
            lambda o: [
                o["status"].get("podIP", "<none>"),
                o["spec"].get("nodeName", "<none>"),
                "<none>",
                "<none>",
            ],
        )
    if plural == "deployments":
        return (
            ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"],
            ["CONTAINERS", "IMAGES", "SELECTOR"],
            lambda o: [
                name(o),
                f"{o['status'].get('readyReplicas', 0)}/{o['spec']['replicas']}",
                str(o["status"].get("updatedReplicas", 0)),
                str(o["status"].get("availableReplicas", 0)),
                age(o),
            ],
            lambda o: [*images(o), selector(o)],
        )
    if plural == "replicasets":
        return (
            ["NAME", "DESIRED", "CURRENT", "READY", "AGE"],
            ["CONTAINERS", "IMAGES", "SELECTOR"],
            lambda o: [
                name(o),
                str(o["spec"].get("replicas", 0)),
                str(o["status"].get("replicas", 0)),
                str(o["status"].get("readyReplicas", 0)),
                age(o),
            ],
            lambda o: [*images(o), selector(o)],
        )
    if plural == "statefulsets":
        return (
            ["NAME", "READY", "AGE"],
            ["CONTAINERS", "IMAGES"],
            lambda o: [
                name(o),
                f"{o['status'].get('readyReplicas', 0)}/{o['spec'].get('replicas', 1)}",
                age(o),
            ],
            lambda o: list(images(o)),
        )
    if plural == "daemonsets":

        def ds(o: Obj) -> Row:
            s = o["status"]
            return [
                name(o),
                *(
                    str(s.get(k, 0))
                    for k in (
                        "desiredNumberScheduled",
                        "currentNumberScheduled",
                        "numberReady",
                        "updatedNumberScheduled",
                        "numberAvailable",
                    )
                ),
                "<none>",
                age(o),
            ]

        return (
            [
                "NAME",
                "DESIRED",
                "CURRENT",
                "READY",
                "UP-TO-DATE",
                "AVAILABLE",
                "NODE SELECTOR",
                "AGE",
            ],
            ["CONTAINERS", "IMAGES", "SELECTOR"],
            ds,
            lambda o: [*images(o), selector(o)],
        )
    if plural == "jobs":
        return (
            ["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"],
            ["CONTAINERS", "IMAGES", "SELECTOR"],
            lambda o: [
                name(o),
                job_status(o),
                f"{o['status'].get('succeeded', 0)}/{o['spec'].get('completions', 1)}",
                job_duration(o, c),
                age(o),
            ],
            lambda o: [*images(o), f"batch.kubernetes.io/controller-uid={o['metadata']['uid']}"],
        )
    if plural == "cronjobs":
        return (
            ["NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE"],
            ["CONTAINERS", "IMAGES", "SELECTOR"],
            lambda o: [
                name(o),
                o["spec"]["schedule"],
                "<none>",
                str(o["spec"].get("suspend", False)).replace("F", "f").replace("T", "t"),
                "0",
                c.age(o["status"].get("lastScheduleTime"))
                if o["status"].get("lastScheduleTime")
                else "<none>",
                age(o),
            ],
            lambda o: [
                ",".join(
                    x["name"]
                    for x in o["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"]
                ),
                ",".join(
                    x["image"]
                    for x in o["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"]
                ),
                "<none>",
            ],
        )
    if plural == "services":
        return (
            ["NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"],
            ["SELECTOR"],
            lambda o: [
                name(o),
                o["spec"]["type"],
                o["spec"].get("clusterIP", "<none>"),
                external(o),
                ports(o),
                age(o),
            ],
            lambda o: [
                ",".join(f"{k}={v}" for k, v in o["spec"].get("selector", {}).items()) or "<none>"
            ],
        )
    if plural == "endpoints":
        return (
            ["NAME", "ENDPOINTS", "AGE"],
            [],
            lambda o: [name(o), endpoints_text(o), age(o)],
            none,
        )
    if plural == "configmaps":
        return (
            ["NAME", "DATA", "AGE"],
            [],
            lambda o: [name(o), str(len(o.get("data", {}))), age(o)],
            none,
        )
    if plural == "secrets":
        return (
            ["NAME", "TYPE", "DATA", "AGE"],
            [],
            lambda o: [name(o), o.get("type", "Opaque"), str(len(o.get("data", {}))), age(o)],
            none,
        )
    if plural == "nodes":
        return (
            ["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
            ["INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME"],
            lambda o: [
                name(o),
                node_status(o),
                node_roles(o),
                age(o),
                o["status"]["nodeInfo"]["kubeletVersion"],
            ],
            lambda o: [
                o["status"]["addresses"][0]["address"],
                "<none>",
                o["status"]["nodeInfo"]["osImage"],
                o["status"]["nodeInfo"]["kernelVersion"],
                o["status"]["nodeInfo"]["containerRuntimeVersion"],
            ],
        )
    if plural == "namespaces":
        return (
            ["NAME", "STATUS", "AGE"],
            [],
            lambda o: [name(o), o["status"]["phase"], age(o)],
            none,
        )
    if plural == "events":

        def obj_name(o: Obj) -> str:
            return f"{o['involvedObject']['kind'].lower()}/{o['involvedObject']['name']}"

        return (
            ["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
            [],
            lambda o: [
                c.age(o.get("lastTimestamp")),
                o["type"],
                o["reason"],
                obj_name(o),
                o["message"],
            ],
            none,
        )
    if plural == "resourcequotas":
        return (
            ["NAME", "AGE", "REQUEST", "LIMIT"],
            [],
            lambda o: [name(o), age(o), *quota(o)],
            none,
        )
    if plural == "poddisruptionbudgets":
        return (
            ["NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"],
            [],
            lambda o: [
                name(o),
                str(o["spec"].get("minAvailable", "N/A")),
                str(o["spec"].get("maxUnavailable", "N/A")),
                str(o["status"].get("disruptionsAllowed", 0)),
                age(o),
            ],
            none,
        )
    if plural == "persistentvolumeclaims":
        return (
            [
                "NAME",
                "STATUS",
                "VOLUME",
                "CAPACITY",
                "ACCESS MODES",
                "STORAGECLASS",
                "VOLUMEATTRIBUTESCLASS",
                "AGE",
            ],
            ["VOLUMEMODE"],
            lambda o: [
                name(o),
                o["status"]["phase"],
                o["spec"]["volumeName"],
                o["status"]["capacity"]["storage"],
                modes(o),
                o["spec"]["storageClassName"],
                "<unset>",
                age(o),
            ],
            lambda o: [o["spec"]["volumeMode"]],
        )
    if plural == "persistentvolumes":
        return (
            [
                "NAME",
                "CAPACITY",
                "ACCESS MODES",
                "RECLAIM POLICY",
                "STATUS",
                "CLAIM",
                "STORAGECLASS",
                "VOLUMEATTRIBUTESCLASS",
                "REASON",
                "AGE",
            ],
            ["VOLUMEMODE"],
            lambda o: [
                name(o),
                o["spec"]["capacity"]["storage"],
                modes(o),
                o["spec"]["persistentVolumeReclaimPolicy"],
                o["status"]["phase"],
                f"{o['spec']['claimRef']['namespace']}/{o['spec']['claimRef']['name']}",
                o["spec"]["storageClassName"],
                "<unset>",
                "",
                age(o),
            ],
            lambda o: [o["spec"]["volumeMode"]],
        )
    return (["NAME", "AGE"], [], lambda o: [name(o), age(o)], none)
