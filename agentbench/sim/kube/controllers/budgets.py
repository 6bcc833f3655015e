"""PodDisruptionBudgets: how many of the pods a budget covers may be disrupted right now."""

from __future__ import annotations

from agentbench.sim.kube.controllers.scheduling import is_ready
from agentbench.sim.kube.objects.store import Obj, Store, labels_match


def _count(value: int | str, expected: int) -> int:
    if isinstance(value, str) and value.endswith("%"):
        return -(-int(value[:-1]) * expected // 100)
    return int(value)


def covered(store: Store, pdb: Obj) -> list[Obj]:
    selector = pdb["spec"]["selector"].get("matchLabels", {})
    return [
        p
        for p in store.list_of("pods", pdb["metadata"]["namespace"])
        if labels_match(selector, p["metadata"].get("labels", {}))
    ]


def update_budget(store: Store, pdb: Obj) -> None:
    """Fill a budget's status (currentHealthy, desiredHealthy, disruptionsAllowed, ...)."""
    pods = covered(store, pdb)
    expected, healthy = len(pods), sum(is_ready(p) for p in pods)
    spec = pdb["spec"]
    if "minAvailable" in spec:
        desired = _count(spec["minAvailable"], expected)
    else:
        desired = expected - _count(spec.get("maxUnavailable", 0), expected)
    pdb["status"] = {
        "currentHealthy": healthy,
        "desiredHealthy": desired,
        "disruptionsAllowed": max(0, healthy - desired),
        "expectedPods": expected,
        "observedGeneration": 1,
    }


def blocking(store: Store, pod: Obj) -> Obj | None:
    """The budget an eviction of `pod` would break now, if any."""
    for pdb in store.list_of("poddisruptionbudgets", pod["metadata"]["namespace"]):
        if pod in covered(store, pdb):
            update_budget(store, pdb)
            if pdb["status"]["disruptionsAllowed"] < 1 and is_ready(pod):
                return pdb
    return None
