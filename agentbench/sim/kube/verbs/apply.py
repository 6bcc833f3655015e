"""Writes that take object content: `apply -f FILE` (a file of the task's filesystem, or `-`
for stdin), `create -f|namespace|configmap|secret generic|deployment`, `patch` (strategic,
merge, json) and `set image|resources|env`."""

from __future__ import annotations

import copy
import json
from typing import Any

from agentbench.sim.core.base import Change, CommandResult
from agentbench.sim.kube.cli.manifest import document_type, documents, load_document
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.cli.targets import resource_type
from agentbench.sim.kube.objects.resources import ResourceType
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.printers.render import qualified_name
from agentbench.sim.kube.verbs.ops import check
from agentbench.sim.kube.verbs.write import SYSTEM, finish, resolve_objects, target_of


def merge(live: Any, patch: Any, strategic: bool = True) -> Any:
    """A merge patch (RFC 7386); strategic: lists of named objects merge by `name`."""
    if isinstance(live, dict) and isinstance(patch, dict):
        out = dict(live)
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            else:
                out[key] = merge(live.get(key), value, strategic)
        return out
    if (
        strategic
        and isinstance(live, list)
        and isinstance(patch, list)
        and all(isinstance(x, dict) and "name" in x for x in live + patch)
    ):
        by_name = {x["name"]: x for x in live}
        merged = [merge(by_name[x["name"]], x) if x["name"] in by_name else x for x in patch]
        names = {x["name"] for x in patch}
        return merged + [x for x in live if x["name"] not in names]
    return copy.deepcopy(patch)


def _new(store: Store, rtype: ResourceType, doc: Obj, namespace: str) -> Obj:
    obj = copy.deepcopy(doc)
    meta = obj.setdefault("metadata", {})
    if rtype.namespaced:
        meta["namespace"] = meta.get("namespace") or namespace
    meta["creationTimestamp"] = store.clock.now_stamp()
    obj.setdefault("status", {})
    if rtype.plural == "deployments":
        spec = obj.setdefault("spec", {})
        spec.setdefault("replicas", 1)
        spec.setdefault("strategy", {"type": "RollingUpdate"})
        meta.setdefault("annotations", {})
    if rtype.plural == "namespaces":
        obj["status"] = {"phase": "Active"}
    return store.add(rtype.plural, obj)


def apply(store: Store, args: Args) -> CommandResult:
    if not args.get("filename"):
        raise KubectlError("error: must specify one of -f and -k")
    create_only = args.verb == "create"
    lines, changes = [], []
    docs = documents(store, args)
    refs = [f"{document_type(d).plural}/{d['metadata']['name']}" for d in docs]
    for doc in docs:
        rtype = document_type(doc)
        namespace = doc["metadata"].get("namespace") or args.namespace()
        if not rtype.namespaced:
            namespace = ""
        name = doc["metadata"]["name"]
        check(store, "create" if create_only else "patch", rtype.plural, namespace, name)
        live = store.get(rtype.plural, namespace, name)
        shown = f"{rtype.qualified}/{name}"
        if live is not None and create_only:
            raise KubectlError(
                f"Error from server (AlreadyExists): error when creating "
                f'"{args.get("filename")}": {rtype.group_resource} "{name}" already '
                "exists"
            )
        if live is None:
            lines.append(f"{shown} created")
            changes.append(
                Change(
                    SYSTEM,
                    "create",
                    f"{rtype.singular}/{namespace + '/' if namespace else ''}{name}",
                )
            )
            if not args.dry_run:
                _new(store, rtype, doc, namespace)
            continue
        updated = merge(live, {k: v for k, v in doc.items() if k != "status"})
        if updated == live:
            lines.append(f"{shown} unchanged")
            continue
        lines.append(f"{shown} configured")
        changes.append(Change(SYSTEM, "apply", target_of(live), "configured"))
        if not args.dry_run:
            live.clear()
            live.update(updated)
    return finish(store, args, lines, changes, refs=refs)


def create(store: Store, args: Args) -> CommandResult:
    if args.get("filename"):
        return apply(store, args)
    if len(args.args) < 2:
        raise KubectlError("error: must specify one of -f and -k")
    kind, name = args.args[0], args.args[-1]
    data: dict[str, str] = {}
    for literal in [v for k, v in args.multi if k == "from-literal"]:
        key, _, value = literal.partition("=")
        data[key] = value
    docs: dict[str, Obj] = {
        "namespace": {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}},
        "ns": {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}},
        "configmap": {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": name},
            "data": data,
        },
        "cm": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data},
        "secret": {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": name},
            "type": "Opaque",
            "data": {k: "" for k in data},
        },
    }
    doc = docs.get(kind)
    if doc is None:
        raise KubectlError(f'error: unknown command "{kind}" for "kubectl create"')
    rtype = resource_type(doc["kind"])
    namespace = args.namespace() if rtype.namespaced else ""
    check(store, "create", rtype.plural, namespace, name)
    if store.get(rtype.plural, namespace, name) is not None:
        raise KubectlError(
            f'Error from server (AlreadyExists): {rtype.group_resource} "{name}" already exists'
        )
    if not args.dry_run:
        _new(store, rtype, doc, namespace)
    change = Change(
        SYSTEM, "create", f"{rtype.singular}/{namespace + '/' if namespace else ''}{name}"
    )
    lines = [f"{rtype.qualified}/{name} created"]
    return finish(store, args, lines, [change], refs=[rtype.plural, name])


def patch(store: Store, args: Args) -> CommandResult:
    text = args.get("patch")
    if not text:
        raise KubectlError(
            "error: must specify --patch or --patch-file containing the contents of the patch"
        )
    try:
        payload = load_document(text, f'"{text[:200]}"')
    except KubectlError as error:
        raise KubectlError(error.message.replace("error parsing", "unable to parse", 1)) from None
    kind = args.get("type", "strategic")
    lines, changes = [], []
    for _, obj in resolve_objects(store, args, "patch", allow_selector=False):
        if kind == "json":
            updated = _json_patch(obj, payload)
        else:
            if not isinstance(payload, dict):
                raise KubectlError("error: unable to parse the patch: expected a JSON object")
            updated = merge(obj, payload, strategic=kind != "merge")
        same = updated == obj
        lines.append(f"{qualified_name(obj)} patched{' (no change)' if same else ''}")
        if not same:
            compact = json.dumps(payload, separators=(",", ":"), sort_keys=True)
            if _template_annotations_only(payload, kind):
                # a new annotation on the pod template rolls every pod, as `rollout restart`
                # does (it writes kubectl.kubernetes.io/restartedAt the same way)
                changes.append(Change(SYSTEM, "rollout-restart", target_of(obj), compact))
            else:
                changes.append(Change(SYSTEM, "patch", target_of(obj), compact))
            if not args.dry_run:
                obj.clear()
                obj.update(updated)
    return finish(store, args, lines, changes, json.dumps(payload, sort_keys=True))


def _template_annotations_only(payload: Any, kind: str) -> bool:
    """Whether the patch changes nothing but the pod template's annotations."""
    if kind == "json":
        ops = payload if isinstance(payload, list) else []
        return bool(ops) and all(
            isinstance(op, dict)
            and str(op.get("path", "")).startswith("/spec/template/metadata/annotations")
            for op in ops
        )
    spec = payload.get("spec") if isinstance(payload, dict) and len(payload) == 1 else None
    template = spec.get("template") if isinstance(spec, dict) and len(spec) == 1 else None
    meta = template.get("metadata") if isinstance(template, dict) and len(template) == 1 else None
    return isinstance(meta, dict) and list(meta) == ["annotations"]


def _json_patch(obj: Obj, ops: Any) -> Obj:
    out = copy.deepcopy(obj)
    for op in ops if isinstance(ops, list) else []:
        parts = [p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:]]
        parent: Any = out
        for part in parts[:-1]:
            parent = parent[int(part)] if isinstance(parent, list) else parent.setdefault(part, {})
        last = parts[-1]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if op["op"] == "remove":
                parent.pop(index)
            elif op["op"] == "add":
                parent.insert(index, op["value"])
            else:
                parent[index] = op["value"]
        elif op["op"] == "remove":
            parent.pop(last, None)
        else:
            parent[last] = op["value"]
    return out
