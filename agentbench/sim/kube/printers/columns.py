"""The columns `kubectl get` prints for each type (normal, then the extra `-o wide` ones)."""

from __future__ import annotations

from collections.abc import Callable

from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.printers.cells import (
    images,
    job_duration,
    job_status,
    pod_status,
    ready,
    restarts,
    selector,
)
from agentbench.sim.kube.printers.columns_services import infra_columns

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
    return infra_columns(plural, c, age, name)
