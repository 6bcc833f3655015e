"""The cell values of `kubectl get` tables: a pod's STATUS and RESTARTS, a node's STATUS and
ROLES, a service's ports, ...; kubectl's printers' logic."""

from __future__ import annotations

from agentbench.sim.kube.objects.store import Obj
from agentbench.sim.kube.objects.units import Clock


def pod_status(pod: Obj) -> str:
    """The STATUS column: kubectl's reason logic (waiting/terminated reasons win)."""
    status = pod.get("status", {})
    reason = status.get("reason") or status.get("phase", "Unknown")
    for init in status.get("initContainerStatuses", []):
        state = init.get("state", {})
        if "terminated" in state and state["terminated"].get("exitCode") == 0:
            continue
        if "waiting" in state and state["waiting"].get("reason") not in (None, "PodInitializing"):
            return f"Init:{state['waiting']['reason']}"
        if "terminated" in state:
            return f"Init:{state['terminated'].get('reason') or 'Error'}"
        total = len(pod["spec"].get("initContainers", []))
        done = sum(
            1
            for s in status.get("initContainerStatuses", [])
            if s.get("state", {}).get("terminated", {}).get("exitCode") == 0
        )
        return f"Init:{done}/{total}"
    running = False
    for cs in reversed(status.get("containerStatuses", [])):
        state = cs.get("state", {})
        if "waiting" in state and state["waiting"].get("reason"):
            reason = state["waiting"]["reason"]
        elif "terminated" in state:
            term = state["terminated"]
            reason = term.get("reason") or (
                f"Signal:{term['signal']}"
                if term.get("signal")
                else f"ExitCode:{term.get('exitCode', 0)}"
            )
        elif cs.get("ready") and "running" in state:
            running = True
    if reason == "Completed" and running:
        reason = "Running"
    if pod["metadata"].get("deletionTimestamp"):
        reason = "Terminating"
    return reason


def restarts(pod: Obj, clock: Clock) -> str:
    statuses = pod.get("status", {}).get("containerStatuses", [])
    count = sum(cs.get("restartCount", 0) for cs in statuses)
    finished = [
        cs["lastState"]["terminated"]["finishedAt"]
        for cs in statuses
        if cs.get("lastState", {}).get("terminated", {}).get("finishedAt")
    ]
    if count and finished:
        return f"{count} ({clock.age(max(finished))} ago)"
    return str(count)


def ready(pod: Obj) -> str:
    statuses = pod.get("status", {}).get("containerStatuses", [])
    total = len(pod["spec"].get("containers", []))
    return f"{sum(1 for cs in statuses if cs.get('ready'))}/{total}"


def images(obj: Obj) -> tuple[str, str]:
    containers = obj["spec"]["template"]["spec"]["containers"]
    return ",".join(c["name"] for c in containers), ",".join(c["image"] for c in containers)


def selector(obj: Obj) -> str:
    labels = obj["spec"].get("selector", {}).get("matchLabels", {})
    return ",".join(f"{k}={v}" for k, v in labels.items()) or "<none>"


def ports(svc: Obj) -> str:
    out = []
    for p in svc["spec"].get("ports", []):
        node = f":{p['nodePort']}" if p.get("nodePort") else ""
        out.append(f"{p['port']}{node}/{p.get('protocol', 'TCP')}")
    return ",".join(out) or "<none>"


def external(svc: Obj) -> str:
    ingress = svc.get("status", {}).get("loadBalancer", {}).get("ingress", [])
    if ingress:
        return ",".join(i.get("ip") or i.get("hostname", "") for i in ingress)
    return "<pending>" if svc["spec"].get("type") == "LoadBalancer" else "<none>"


def node_status(node: Obj) -> str:
    ready = next(
        (c["status"] for c in node["status"].get("conditions", []) if c["type"] == "Ready"),
        "Unknown",
    )
    text = "Ready" if ready == "True" else "NotReady" if ready == "False" else "Unknown"
    return text + (",SchedulingDisabled" if node["spec"].get("unschedulable") else "")


def node_roles(node: Obj) -> str:
    roles = [
        k.split("/", 1)[1]
        for k in node["metadata"].get("labels", {})
        if k.startswith("node-role.kubernetes.io/")
    ]
    return ",".join(sorted(roles)) or "<none>"


def endpoints_text(ep: Obj) -> str:
    pairs = [
        f"{a['ip']}:{p['port']}"
        for s in ep.get("subsets", [])
        for p in s.get("ports", []) or [{"port": ""}]
        for a in s.get("addresses", [])
    ]
    pairs = [p.rstrip(":") for p in pairs]
    if not pairs:
        return "<none>"
    return ",".join(pairs[:3]) + (f" + {len(pairs) - 3} more..." if len(pairs) > 3 else "")


def job_status(job: Obj) -> str:
    """kubectl's STATUS: the Complete or Failed condition, else what the counts imply."""
    status = job.get("status", {})
    held = {c["type"] for c in status.get("conditions", []) if c.get("status") == "True"}
    for kind in ("Complete", "Failed", "Suspended"):
        if kind in held:
            return kind
    if status.get("succeeded", 0) >= job["spec"].get("completions", 1):
        return "Complete"
    if status.get("failed", 0) > job["spec"].get("backoffLimit", 6):
        return "Failed"
    return "Running"


def job_duration(job: Obj, clock: Clock) -> str:
    status = job.get("status", {})
    if not status.get("startTime"):
        return ""
    if status.get("completionTime"):
        from agentbench.sim.kube.objects.units import human_duration, parse_time

        seconds = parse_time(status["completionTime"]) - parse_time(status["startTime"])
        return human_duration(seconds.total_seconds())
    return clock.age(status["startTime"])


def quota(q: Obj) -> tuple[str, str]:
    hard, used = q["status"].get("hard", {}), q["status"].get("used", {})

    def pairs(prefix: bool) -> str:
        keys = [k for k in sorted(hard) if k.startswith("limits.") == prefix]
        return ", ".join(f"{k}: {used.get(k, '0')}/{hard[k]}" for k in keys)

    return pairs(False), pairs(True)


def modes(o: Obj) -> str:
    short = {
        "ReadWriteOnce": "RWO",
        "ReadOnlyMany": "ROX",
        "ReadWriteMany": "RWX",
        "ReadWriteOncePod": "RWOP",
    }
    return ",".join(short.get(m, m) for m in o["spec"].get("accessModes", []))
