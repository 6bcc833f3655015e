"""The endpoints controller: a Service's Endpoints are the IPs of the pods its selector matches
(ready ones as addresses, the others as notReadyAddresses)."""

from __future__ import annotations

from agentbench.sim.kube.controllers.scheduling import is_ready
from agentbench.sim.kube.objects.store import Obj, Store, labels_match


def update_endpoints(store: Store) -> None:
    for svc in store.list_of("services"):
        ns, name = svc["metadata"]["namespace"], svc["metadata"]["name"]
        existing = store.get("endpoints", ns, name)
        if existing and existing["metadata"].get("annotations", {}).get("agentbench/declared"):
            continue
        selector = svc["spec"].get("selector")
        ep: Obj = {
            "apiVersion": "v1",
            "kind": "Endpoints",
            "metadata": {
                "creationTimestamp": svc["metadata"]["creationTimestamp"],
                "name": name,
                "namespace": ns,
            },
        }
        pods = [
            p
            for p in store.list_of("pods", ns)
            if selector
            and p["status"].get("podIP")
            and labels_match(selector, p["metadata"].get("labels", {}))
        ]
        if pods:

            def address(p: Obj, ns: str = ns) -> Obj:
                return {
                    "ip": p["status"]["podIP"],
                    "nodeName": p["spec"].get("nodeName"),
                    "targetRef": {"kind": "Pod", "name": p["metadata"]["name"], "namespace": ns},
                }

            subset: Obj = {}
            if ready := [address(p) for p in pods if is_ready(p)]:
                subset["addresses"] = ready
            if not_ready := [address(p) for p in pods if not is_ready(p)]:
                subset["notReadyAddresses"] = not_ready
            subset["ports"] = [
                {
                    k: v
                    for k, v in (
                        ("name", p.get("name")),
                        ("port", _target(p, pods)),
                        ("protocol", p["protocol"]),
                    )
                    if v is not None
                }
                for p in svc["spec"]["ports"]
            ]
            ep["subsets"] = [subset]
        if existing is None:
            store.add("endpoints", ep)
        else:
            uid = existing["metadata"].get("uid")
            existing.clear()
            existing.update(ep)
            existing["metadata"]["uid"] = uid


def _target(port: Obj, pods: list[Obj]) -> int:
    target = port.get("targetPort", port["port"])
    if isinstance(target, int):
        return target
    for c in pods[0]["spec"]["containers"]:
        for p in c.get("ports", []):
            if p.get("name") == target:
                return int(p["containerPort"])
    return int(port["port"])
