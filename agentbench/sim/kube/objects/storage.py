"""Declared PersistentVolumeClaims and the volumes bound to them."""

from __future__ import annotations

from agentbench.sim.kube.objects.infra import meta
from agentbench.sim.kube.objects.store import Obj
from agentbench.sim.kube.objects.units import Clock
from agentbench.sim.kube.schema import model as m


def pvc(p: m.PersistentVolumeClaim, clock: Clock) -> tuple[Obj, Obj]:
    volume = p.volume or f"pvc-{p.namespace}-{p.name}"
    claim = {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": meta(p.name, p.namespace, p.age, clock),
        "spec": {
            "accessModes": list(p.access_modes),
            "resources": {"requests": {"storage": p.capacity}},
            "storageClassName": p.storage_class,
            "volumeMode": "Filesystem",
            "volumeName": volume,
        },
        "status": {
            "accessModes": list(p.access_modes),
            "capacity": {"storage": p.capacity},
            "phase": p.status,
        },
    }
    pv = {
        "apiVersion": "v1",
        "kind": "PersistentVolume",
        "metadata": meta(volume, None, p.age, clock),
        "spec": {
            "accessModes": list(p.access_modes),
            "capacity": {"storage": p.capacity},
            "claimRef": {"kind": "PersistentVolumeClaim", "name": p.name, "namespace": p.namespace},
            "persistentVolumeReclaimPolicy": "Delete",
            "storageClassName": p.storage_class,
            "volumeMode": "Filesystem",
        },
        "status": {"phase": "Bound" if p.status == "Bound" else "Available"},
    }
    return claim, pv
