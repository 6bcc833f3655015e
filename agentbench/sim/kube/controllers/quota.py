"""ResourceQuota admission: a controller's new pod is refused when it would push a namespace's
`limits.*`, `requests.*` (or bare `cpu`/`memory`) or `pods` past a quota's hard value, with
the API server's "exceeded quota" message as a FailedCreate event and a ReplicaFailure
condition. Usage is what the namespace's pods ask for, as the quota controller counts it."""

from __future__ import annotations

from agentbench.sim.kube.objects.infra import event
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.objects.units import cpu_millis, memory_bytes
from agentbench.sim.kube.schema.model import Event

FAILED = "ReplicaFailure"


def _amount(resource: str, value: str) -> int:
    return cpu_millis(value) if resource.endswith("cpu") else memory_bytes(value)


def _show(resource: str, amount: int) -> str:
    """A quantity as the API server prints it (2, 500m, 4Gi, 512Mi)."""
    if resource.endswith("cpu"):
        return str(amount // 1000) if amount % 1000 == 0 else f"{amount}m"
    if resource == "pods":
        return str(amount)
    for suffix, factor in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if amount and amount % factor == 0:
            return f"{amount // factor}{suffix}"
    return str(amount)


def _asks(spec: Obj, resource: str) -> int:
    """What one pod asks for of a quota resource (limits.memory, requests.cpu, cpu, pods)."""
    if resource == "pods":
        return 1
    kind, _, name = resource.rpartition(".")
    field = "limits" if kind == "limits" else "requests"
    total = 0
    for c in spec.get("containers", []):
        value = c.get("resources", {}).get(field, {}).get(name)
        if value:
            total += _amount(resource, value)
    return total


def _pods_ask(store: Store, namespace: str, resource: str) -> int:
    return sum(
        _asks(p["spec"], resource)
        for p in store.list_of("pods", namespace)
        if p["status"].get("phase") not in ("Succeeded", "Failed")
    )


def usage(store: Store, quota: Obj, resource: str) -> int:
    """The declared `used` at the start, moved by what the pods ask for since then."""
    ns, name = quota["metadata"]["namespace"], quota["metadata"]["name"]
    key = (ns, name, resource)
    now = _pods_ask(store, ns, resource)
    if key not in store.quota_offsets:
        declared = quota["status"].get("used", {}).get(resource)
        start = (
            _amount(resource, declared)
            if declared and resource != "pods"
            else (int(declared) if declared else now)
        )
        store.quota_offsets[key] = start - now
    return now + store.quota_offsets[key]


def update_quota(store: Store, quota: Obj) -> None:
    hard = quota["spec"].get("hard", {})
    used = {r: _show(r, usage(store, quota, r)) for r in hard}
    quota["status"] = {"hard": dict(hard), "used": used}


def admit(store: Store, owner: Obj, name: str) -> bool:
    """Whether the pod `name` of `owner` may be created; records the refusal when not."""
    ns = owner["metadata"]["namespace"]
    spec = owner["spec"]["template"]["spec"]
    for quota in store.list_of("resourcequotas", ns):
        over = []
        for resource, hard in sorted(quota["spec"].get("hard", {}).items()):
            asked = _asks(spec, resource)
            if not asked:
                continue
            used = usage(store, quota, resource)
            limit = int(hard) if resource == "pods" else _amount(resource, hard)
            if used + asked > limit:
                over.append((resource, asked, used, limit))
        if over:
            _refuse(store, owner, name, quota["metadata"]["name"], over)
            return False
    return True


def _refuse(
    store: Store, owner: Obj, name: str, quota: str, over: list[tuple[str, int, int, int]]
) -> None:
    message = (
        f'Error creating: pods "{name}" is forbidden: exceeded quota: {quota}, requested: '
        f"{','.join(f'{r}={_show(r, a)}' for r, a, _, _ in over)}, used: "
        f"{','.join(f'{r}={_show(r, u)}' for r, _, u, _ in over)}, limited: "
        f"{','.join(f'{r}={_show(r, h)}' for r, _, _, h in over)}"
    )
    conditions = owner["status"].setdefault("conditions", [])
    if not any(c["type"] == FAILED for c in conditions):
        conditions.append(
            {
                "lastTransitionTime": store.clock.now_stamp(),
                "message": message,
                "reason": "FailedCreate",
                "status": "True",
                "type": FAILED,
            }
        )
    if store.building:
        return  # the declared events already tell the story of the declared state
    kind = owner["kind"].lower()
    declared = Event(
        object=f"{kind}/{owner['metadata']['name']}",
        namespace=owner["metadata"]["namespace"],
        type="Warning",
        reason="FailedCreate",
        message=message,
        age="0s",
        source=f"{kind}-controller",
    )
    store.add("events", event(declared, store.clock, len(store.objects["events"])))
