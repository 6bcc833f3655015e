"""`kubectl describe pod` and the pieces other describers share (labels, events, containers).
Lines are written with tabs and aligned by Go's tabwriter (padding 2), as kubectl does."""

from __future__ import annotations

from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.objects.units import rfc1123


class Writer:
    """Collects describe lines; `\\t` separates a label from its value."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def line(self, level: int, text: str) -> None:
        self.lines.append("  " * level + text)

    def map(self, level: int, title: str, values: dict[str, str], sep: str = "=") -> None:
        """`Labels:  a=b` then continuation lines under the first value."""
        if not values:
            self.line(level, f"{title}:\t<none>")
            return
        for index, (k, v) in enumerate(sorted(values.items())):
            self.line(level, (f"{title}:\t" if index == 0 else "\t") + f"{k}{sep}{v}")

    def text(self) -> str:
        from agentbench.sim.kube.printers.tabwriter import align

        return align("\n".join(self.lines) + "\n")


def events_for(store: Store, obj: Obj) -> list[Obj]:
    meta = obj["metadata"]
    found = [
        e
        for e in store.list_of("events", meta.get("namespace") or None)
        if e["involvedObject"]["name"] == meta["name"]
        and e["involvedObject"]["kind"] == obj["kind"]
    ]
    return sorted(found, key=lambda e: e.get("lastTimestamp") or "")


def write_events(w: Writer, store: Store, obj: Obj) -> None:
    events = events_for(store, obj)
    if not events:
        w.line(0, "Events:\t<none>")
        return
    w.line(0, "Events:")
    w.line(1, "Type\tReason\tAge\tFrom\tMessage")
    w.line(1, "----\t------\t----\t----\t-------")
    clock = store.clock
    for e in events:
        age = clock.age(e.get("lastTimestamp"))
        if e.get("count", 1) > 1:
            age = f"{age} (x{e['count']} over {clock.age(e.get('firstTimestamp'))})"
        w.line(
            1,
            f"{e['type']}\t{e['reason']}\t{age}\t{e['source']['component']}\t"
            f"{e['message'].strip()}",
        )


def probe_text(p: Obj) -> str:
    tail = (
        f"delay={p.get('initialDelaySeconds', 0)}s timeout={p.get('timeoutSeconds', 1)}s "
        f"period={p.get('periodSeconds', 10)}s #success={p.get('successThreshold', 1)} "
        f"#failure={p.get('failureThreshold', 3)}"
    )
    if "httpGet" in p:
        g = p["httpGet"]
        return f"http-get {g.get('scheme', 'HTTP').lower()}://:{g['port']}{g['path']} {tail}"
    if "tcpSocket" in p:
        return f"tcp-socket :{p['tcpSocket']['port']} {tail}"
    return f"exec [{' '.join(p['exec']['command'])}] {tail}"


def _state(w: Writer, title: str, state: Obj) -> None:
    if "running" in state:
        w.line(2, f"{title}:\tRunning")
        w.line(3, f"Started:\t{rfc1123(state['running']['startedAt'])}")
    elif "waiting" in state:
        w.line(2, f"{title}:\tWaiting")
        w.line(3, f"Reason:\t{state['waiting'].get('reason', '')}")
        if state["waiting"].get("message"):
            w.line(3, f"Message:\t{state['waiting']['message']}")
    elif "terminated" in state:
        t = state["terminated"]
        w.line(2, f"{title}:\tTerminated")
        w.line(3, f"Reason:\t{t.get('reason', '')}")
        if t.get("message"):
            w.line(3, f"Message:\t{t['message']}")
        w.line(3, f"Exit Code:\t{t.get('exitCode', 0)}")
        if t.get("signal"):
            w.line(3, f"Signal:\t{t['signal']}")
        w.line(3, f"Started:\t{rfc1123(t['startedAt'])}")
        w.line(3, f"Finished:\t{rfc1123(t['finishedAt'])}")
    else:
        w.line(2, f"{title}:\t<none>" if title == "Last State" else f"{title}:\tWaiting")


def write_container(w: Writer, c: Obj, status: Obj | None, level: int = 1) -> None:
    """One container's block, from its spec and (in a pod) its status."""
    pad = " " if level == 1 and status is None else ""
    w.line(level, f"{pad}{c['name']}:")
    if status is not None and status.get("containerID"):
        w.line(2, f"Container ID:\t{status['containerID']}")
    w.line(2, f"Image:\t{c['image']}")
    if status is not None:
        w.line(2, f"Image ID:\t{status.get('imageID', '')}")
    ports = c.get("ports", [])
    if not ports:
        w.line(2, "Port:\t<none>")
        w.line(2, "Host Port:\t<none>")
    for key, label in (("containerPort", "Port"), ("hostPort", "Host Port")):
        if ports:
            values = ", ".join(f"{p.get(key, 0)}/{p.get('protocol', 'TCP')}" for p in ports)
            w.line(2, f"{label}{'s' if len(ports) > 1 else ''}:\t{values}")
    for key, label in (("command", "Command"), ("args", "Args")):
        if c.get(key):
            w.line(2, f"{label}:")
            for part in c[key]:
                w.line(3, part)
    if status is not None:
        _state(w, "State", status.get("state", {}))
        if status.get("lastState"):
            _state(w, "Last State", status["lastState"])
        w.line(2, f"Ready:\t{status.get('ready', False)!s}")
        w.line(2, f"Restart Count:\t{status.get('restartCount', 0)}")
    for key in ("limits", "requests"):
        values = c.get("resources", {}).get(key)
        if values:
            w.line(2, f"{key.capitalize()}:")
            for k, v in sorted(values.items()):
                w.line(3, f"{k}:\t{v}")
    for key, label in (
        ("livenessProbe", "Liveness"),
        ("readinessProbe", "Readiness"),
        ("startupProbe", "Startup"),
    ):
        if key in c:
            w.line(2, f"{label}:\t{probe_text(c[key])}")
    if c.get("envFrom"):
        w.line(2, "Environment Variables from:")
        for e in c["envFrom"]:
            kind = "ConfigMap" if "configMapRef" in e else "Secret"
            ref = e.get("configMapRef") or e.get("secretRef") or {}
            w.line(
                3, f"{ref.get('name')}\t{kind}\tOptional: {str(ref.get('optional', False)).lower()}"
            )
    if not c.get("env"):
        w.line(2, "Environment:\t<none>")
    else:
        w.line(2, "Environment:")
        for e in c["env"]:
            w.line(3, f"{e['name']}:\t{_env_value(e)}")
    mounts = c.get("volumeMounts", [])
    if not mounts:
        w.line(2, "Mounts:\t<none>")
    else:
        w.line(2, "Mounts:")
        for m in mounts:
            w.line(3, f"{m['mountPath']} from {m['name']} ({'ro' if m.get('readOnly') else 'rw'})")


def _env_value(e: Obj) -> str:
    ref = e.get("valueFrom", {})
    if "configMapKeyRef" in ref:
        r = ref["configMapKeyRef"]
        return (
            f"<set to the key '{r['key']}' of config map '{r['name']}'>\tOptional: "
            f"{str(r.get('optional', False)).lower()}"
        )
    if "secretKeyRef" in ref:
        r = ref["secretKeyRef"]
        return (
            f"<set to the key '{r['key']}' in secret '{r['name']}'>\tOptional: "
            f"{str(r.get('optional', False)).lower()}"
        )
    return str(e.get("value", ""))


def write_volumes(w: Writer, volumes: list[Obj], level: int = 0) -> None:
    if not volumes:
        w.line(level, "Volumes:\t<none>")
        return
    w.line(level, "Volumes:")
    for v in volumes:
        w.line(level + 1, f"{v['name']}:")
        sub = level + 2
        if "configMap" in v:
            w.line(sub, "Type:\tConfigMap (a volume populated by a ConfigMap)")
            w.line(sub, f"Name:\t{v['configMap']['name']}")
            w.line(sub, "Optional:\tfalse")
        elif "secret" in v:
            w.line(sub, "Type:\tSecret (a volume populated by a Secret)")
            w.line(sub, f"SecretName:\t{v['secret']['secretName']}")
            w.line(sub, "Optional:\tfalse")
        elif "persistentVolumeClaim" in v:
            w.line(
                sub,
                "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim "
                "in the same namespace)",
            )
            w.line(sub, f"ClaimName:\t{v['persistentVolumeClaim']['claimName']}")
            w.line(sub, "ReadOnly:\tfalse")
        elif "hostPath" in v:
            w.line(sub, "Type:\tHostPath (bare host directory volume)")
            w.line(sub, f"Path:\t{v['hostPath']['path']}")
            w.line(sub, "HostPathType:\t")
        else:
            w.line(sub, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)")
            w.line(sub, "Medium:\t")
            w.line(sub, "SizeLimit:\t<unset>")


def describe_pod(store: Store, pod: Obj) -> str:
    w = Writer()
    meta, spec, status = pod["metadata"], pod["spec"], pod.get("status", {})
    w.line(0, f"Name:\t{meta['name']}")
    w.line(0, f"Namespace:\t{meta['namespace']}")
    w.line(0, f"Priority:\t{spec.get('priority', 0)}")
    if spec.get("priorityClassName"):
        w.line(0, f"Priority Class Name:\t{spec['priorityClassName']}")
    w.line(0, f"Service Account:\t{spec.get('serviceAccountName', 'default')}")
    node = spec.get("nodeName")
    w.line(0, f"Node:\t{node}/{status.get('hostIP', '')}" if node else "Node:\t<none>")
    if status.get("startTime"):
        w.line(0, f"Start Time:\t{rfc1123(status['startTime'])}")
    w.map(0, "Labels", meta.get("labels") or {})
    w.map(0, "Annotations", meta.get("annotations") or {}, sep=": ")
    w.line(0, f"Status:\t{status.get('phase', 'Unknown')}")
    for key in ("reason", "message"):
        if status.get(key):
            w.line(0, f"{key.capitalize()}:\t{status[key]}")
    w.line(0, f"IP:\t{status.get('podIP', '')}")
    if status.get("podIPs"):
        w.line(0, "IPs:")
        for ip in status["podIPs"]:
            w.line(1, f"IP:\t{ip['ip']}")
    else:
        w.line(0, "IPs:\t<none>")
    owner = store.controller_of(pod)
    if owner:
        w.line(0, f"Controlled By:\t{owner[0]}/{owner[1]}")
    statuses = {s["name"]: s for s in status.get("containerStatuses", [])}
    for title, key, skey in (
        ("Init Containers", "initContainers", "initContainerStatuses"),
        ("Containers", "containers", "containerStatuses"),
    ):
        if key not in spec:
            continue
        by_name = (
            {s["name"]: s for s in status.get(skey, [])}
            if skey != "containerStatuses"
            else statuses
        )
        w.line(0, f"{title}:")
        for c in spec[key]:
            write_container(w, c, by_name.get(c["name"], {}))
    w.line(0, "Conditions:")
    w.line(1, "Type\tStatus")
    for cond in status.get("conditions", []):
        w.line(1, f"{cond['type']} \t{cond['status']} ")
    write_volumes(w, spec.get("volumes", []))
    w.line(0, f"QoS Class:\t{status.get('qosClass', 'BestEffort')}")
    w.line(0, "Node-Selectors:\t<none>")
    tolerations = [
        f"{t['key']}:{t['effect']} op={t['operator']} for {t['tolerationSeconds']}s"
        for t in spec.get("tolerations", [])
    ]
    for index, t in enumerate(tolerations or ["<none>"]):
        w.line(0, ("Tolerations:\t" if index == 0 else "\t") + t)
    write_events(w, store, pod)
    return w.text()
