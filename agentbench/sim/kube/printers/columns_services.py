"""`kubectl get` columns of the service, config, cluster and storage types."""

from __future__ import annotations

from collections.abc import Callable

from agentbench.sim.kube.objects.store import Obj
from agentbench.sim.kube.objects.units import Clock
from agentbench.sim.kube.printers.cells import (
    endpoints_text,
    external,
    modes,
    node_roles,
    node_status,
    ports,
    quota,
)

Row = list[str]
Columns = tuple[list[str], list[str], Callable[[Obj], Row], Callable[[Obj], Row]]


def infra_columns(
    plural: str, clock: Clock, age: Callable[[Obj], str], name: Callable[[Obj], str]
) -> Columns:
    """(headers, wide headers, row, wide row) for the types that are not workloads."""
    none: Callable[[Obj], Row] = lambda o: []  # noqa: E731
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
                clock.age(o.get("lastTimestamp")),
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
    if plural == "ingresses":
        return (
            ["NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"],
            [],
            lambda o: [
                name(o),
                o["spec"].get("ingressClassName", "<none>"),
                ",".join(r.get("host", "*") for r in o["spec"].get("rules", [])),
                external(o).replace("<none>", ""),
                "80",
                age(o),
            ],
            none,
        )
    return (["NAME", "AGE"], [], lambda o: [name(o), age(o)], none)
