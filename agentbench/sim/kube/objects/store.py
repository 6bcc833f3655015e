"""The live cluster: Kubernetes-shaped objects (plain dicts, as the API server returns them),
plus what is not an object (container logs, resource usage for `top`)."""

from __future__ import annotations

import hashlib
import pickle
import uuid
from collections.abc import Callable
from typing import Any

from agentbench.sim.core.budget import current
from agentbench.sim.kube.objects.resources import TYPES
from agentbench.sim.kube.objects.units import Clock
from agentbench.sim.kube.schema.model import Cluster

Obj = dict[str, Any]
Key = tuple[str, str]  # (namespace, name); namespace "" for cluster-scoped objects
ReadFile = Callable[[str], str | None]  # a path -> its content, None when it does not exist

# The alphabet Kubernetes uses for generated names (no vowels, no look-alikes).
SAFE = "bcdfghjklmnpqrstvwxz2456789"


def safe_hash(seed: str, length: int) -> str:
    """A deterministic generated-name fragment (pod-template-hash, pod suffix)."""
    digest = hashlib.sha256(seed.encode()).digest()
    return "".join(SAFE[b % len(SAFE)] for b in digest[:length])


class Store:
    """Objects by resource plural and (namespace, name), in insertion order."""

    def __init__(self, spec: Cluster) -> None:
        self.spec = spec
        self.clock = Clock(spec.now)
        self.objects: dict[str, dict[Key, Obj]] = {t.plural: {} for t in TYPES}
        # (namespace, pod, container) -> (current log, previous log or None)
        self.logs: dict[tuple[str, str, str], tuple[str, str | None]] = {}
        # (namespace, pod) -> {container: {cpu, memory}}; ("", node) -> {cpu, memory}
        self.usage: dict[Key, dict[str, dict[str, str]]] = {}
        self._serial = 1000
        self.read_file: ReadFile | None = None  # for `apply -f FILE`
        self.stdin: str | None = None  # for `apply -f -`
        self.building = True  # False once the declared state is built
        # (namespace, pod, container) -> {path: content}: files baked into a container's image
        self.files: dict[tuple[str, str, str], dict[str, str]] = {}
        # (namespace, container, image) -> {path: content}: the same, for a workload's template
        self.image_files: dict[tuple[str, str, str], dict[str, str]] = {}
        self.quota_offsets: dict[tuple[str, str, str], int] = {}  # declared used - pods' asks
        self.default_namespace = "default"  # `kubectl config set-context --namespace` moves it

    # Not part of the cluster: the declaration, the file reader and stdin of the current call.
    _OUTSIDE = ("spec", "read_file", "stdin")

    def freeze(self) -> bytes:
        """The state as bytes (everything but the declaration and the current call's inputs)."""
        state = {k: v for k, v in vars(self).items() if k not in self._OUTSIDE}
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def thaw(cls, spec: Cluster, blob: bytes) -> Store:
        """A fresh, independent Store from `freeze` bytes."""
        store = cls.__new__(cls)
        vars(store).update(pickle.loads(blob))
        store.spec, store.read_file, store.stdin = spec, None, None
        return store

    def next_version(self) -> str:
        self._serial += 1
        return str(self._serial)

    def uid(self, plural: str, namespace: str, name: str) -> str:
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{plural}/{namespace}/{name}/{self._serial}"))

    def add(self, plural: str, obj: Obj) -> Obj:
        meta = obj.setdefault("metadata", {})
        namespace = meta.get("namespace", "")
        meta.setdefault("uid", self.uid(plural, namespace, meta["name"]))
        meta["resourceVersion"] = self.next_version()
        self.objects[plural][(namespace, meta["name"])] = obj
        return obj

    def get(self, plural: str, namespace: str, name: str) -> Obj | None:
        return self.objects[plural].get((namespace, name))

    def remove(self, plural: str, namespace: str, name: str) -> Obj | None:
        return self.objects[plural].pop((namespace, name), None)

    def list_of(self, plural: str, namespace: str | None = None) -> list[Obj]:
        """Objects of a type, in one namespace or (None) all, sorted as the API lists them.
        A step of the call's budget per object (`scale --replicas=100000000` lists the pods
        once per pod it creates, and stops at the step limit)."""
        current().step(1 + len(self.objects[plural]))
        items = [o for (ns, _), o in self.objects[plural].items() if namespace in (None, ns)]
        return sorted(
            items, key=lambda o: (o["metadata"].get("namespace", ""), o["metadata"]["name"])
        )

    def namespace_names(self) -> set[str]:
        return {o["metadata"]["name"] for o in self.objects["namespaces"].values()}

    def owned_by(self, plural: str, owner: Obj) -> list[Obj]:
        """Objects of a type whose controller reference is `owner`."""
        uid = owner["metadata"]["uid"]
        return [
            o
            for o in self.list_of(plural, owner["metadata"].get("namespace"))
            if any(r.get("uid") == uid for r in o["metadata"].get("ownerReferences", []))
        ]

    def controller_of(self, obj: Obj) -> tuple[str, str] | None:
        """(kind, name) of an object's controller, if any."""
        for ref in obj["metadata"].get("ownerReferences", []):
            if ref.get("controller"):
                return ref["kind"], ref["name"]
        return None


def owner_ref(owner: Obj) -> Obj:
    """An ownerReference pointing at `owner` as its controller."""
    return {
        "apiVersion": owner["apiVersion"],
        "kind": owner["kind"],
        "name": owner["metadata"]["name"],
        "uid": owner["metadata"]["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def labels_match(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


def node_ip(store: Store, name: str) -> str:
    """A node's InternalIP (what a pod on it shows as hostIP)."""
    node = store.get("nodes", "", name)
    return node["status"]["addresses"][0]["address"] if node else "10.0.1.10"
