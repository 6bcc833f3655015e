"""`kubectl describe node`: conditions, addresses, capacity, the pods on it and what they
request of its allocatable resources."""

from __future__ import annotations

from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.objects.units import cpu_millis, memory_bytes, rfc1123
from agentbench.sim.kube.printers.cells import node_roles
from agentbench.sim.kube.printers.describe import Writer, write_events


def _percent(used: int, total: int) -> str:
    return f"{used * 100 // total}%" if total else "0%"


def describe_node(store: Store, node: Obj) -> str:
    w = Writer()
    meta, spec, status = node["metadata"], node["spec"], node["status"]
    name = meta["name"]
    w.line(0, f"Name:\t{name}")
    w.line(0, f"Roles:\t{node_roles(node)}")
    w.map(0, "Labels", meta.get("labels") or {})
    w.map(0, "Annotations", {"node.alpha.kubernetes.io/ttl": "0"}, sep=": ")
    w.line(0, f"CreationTimestamp:\t{rfc1123(meta['creationTimestamp'])}")
    taints = [
        f"{t['key']}{'=' + t['value'] if t.get('value') else ''}:{t['effect']}"
        for t in spec.get("taints", [])
    ]
    for index, taint in enumerate(taints or ["<none>"]):
        w.line(0, ("Taints:\t" if index == 0 else "\t") + taint)
    w.line(0, f"Unschedulable:\t{str(bool(spec.get('unschedulable'))).lower()}")
    w.line(0, "Conditions:")
    w.line(1, "Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage")
    w.line(1, "----\t------\t-----------------\t------------------\t------\t-------")
    for c in status["conditions"]:
        w.line(
            1,
            f"{c['type']}\t{c['status']}\t{rfc1123(c['lastHeartbeatTime'])}\t"
            f"{rfc1123(c['lastTransitionTime'])}\t{c['reason']}\t{c['message']}",
        )
    w.line(0, "Addresses:")
    for a in status["addresses"]:
        w.line(1, f"{a['type']}:\t{a['address']}")
    for title in ("capacity", "allocatable"):
        w.line(0, f"{title.capitalize()}:")
        for k, v in sorted(status[title].items()):
            w.line(1, f"{k}:\t{v}")
    info = status["nodeInfo"]
    w.line(0, "System Info:")
    for label, key in (
        ("Kernel Version", "kernelVersion"),
        ("OS Image", "osImage"),
        ("Operating System", "operatingSystem"),
        ("Architecture", "architecture"),
        ("Container Runtime Version", "containerRuntimeVersion"),
        ("Kubelet Version", "kubeletVersion"),
    ):
        w.line(1, f"{label}:\t{info[key]}")
    w.line(0, f"PodCIDR:\t{spec.get('podCIDR', '')}")
    pods = [
        p
        for p in store.list_of("pods")
        if p["spec"].get("nodeName") == name
        and p["status"].get("phase") not in ("Succeeded", "Failed")
    ]
    cpu_total = cpu_millis(status["allocatable"].get("cpu", "0"))
    mem_total = memory_bytes(status["allocatable"].get("memory", "0"))
    w.line(0, f"Non-terminated Pods:\t({len(pods)} in total)")
    w.line(1, "Namespace\tName\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge")
    w.line(1, "---------\t----\t------------\t----------\t---------------\t-------------\t---")
    totals = {"cpu": [0, 0], "memory": [0, 0]}
    for p in pods:
        cells = []
        for resource, parse, total in (
            ("cpu", cpu_millis, cpu_total),
            ("memory", memory_bytes, mem_total),
        ):
            for index, key in enumerate(("requests", "limits")):
                values = [
                    c.get("resources", {}).get(key, {}).get(resource)
                    for c in p["spec"]["containers"]
                ]
                amount = sum(parse(v) for v in values if v)
                totals[resource][index] += amount
                shown = [v for v in values if v]
                text = (
                    shown[0]
                    if len(shown) == 1
                    else "0"
                    if not shown
                    else (f"{amount}m" if resource == "cpu" else f"{amount // 2**20}Mi")
                )
                cells.append(f"{text} ({_percent(amount, total)})")
        w.line(
            1,
            f"{p['metadata']['namespace']}\t{p['metadata']['name']}\t"
            + "\t".join(cells)
            + f"\t{store.clock.age(p['metadata']['creationTimestamp'])}",
        )
    w.line(0, "Allocated resources:")
    w.line(1, "(Total limits may be over 100 percent, i.e., overcommitted.)")
    w.line(1, "Resource\tRequests\tLimits")
    w.line(1, "--------\t--------\t------")
    for resource, total in (("cpu", cpu_total), ("memory", mem_total)):
        req, lim = totals[resource]
        fmt = (lambda v: f"{v}m") if resource == "cpu" else (lambda v: f"{v // 2**20}Mi")
        w.line(
            1,
            f"{resource}\t{fmt(req) if req else '0'} ({_percent(req, total)})\t"
            f"{fmt(lim) if lim else '0'} ({_percent(lim, total)})",
        )
    write_events(w, store, node)
    return w.text()
