"""Verbs that change the cluster: delete, scale, cordon/uncordon, label/annotate, taint,
set image|resources|env, rollout undo|restart|pause|resume, edit (refused). Each returns the
`Change`s it made; `--dry-run=client` prints "(dry run)" and changes nothing. Controllers
reconcile after every write, so a deleted pod of a deployment comes back under a new name."""

from __future__ import annotations

import copy

from agentbench.sim.core.base import Change, CommandResult
from agentbench.sim.kube.cli.identity import identity
from agentbench.sim.kube.cli.manifest import objects_from_file
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.cli.targets import Target, resource_type, targets
from agentbench.sim.kube.controllers.reconcile import reconcile
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.printers.render import qualified_name
from agentbench.sim.kube.verbs.ops import check
from agentbench.sim.kube.verbs.read import filtered, not_found, scope

SYSTEM = "kubernetes"


def target_of(obj: Obj) -> str:
    """How a Change names an object: kind/namespace/name (kind/name when cluster-scoped)."""
    ns = obj["metadata"].get("namespace")
    return "/".join([obj["kind"].lower(), *([ns] if ns else []), obj["metadata"]["name"]])


def resolve_objects(
    store: Store,
    args: Args,
    verb: str,
    want: list[Target] | None = None,
    allow_selector: bool = True,
    type_alone: bool = False,
) -> list[tuple[str, Obj]]:
    """(plural, object) for every object a write names; NotFound and Forbidden raise. With
    `type_alone` a type with no name is every object of it in the namespace (`rollout restart
    deployment -n web`), filtered by a selector."""
    found: list[tuple[str, Obj]] = []
    for target in want if want is not None else targets(args.args, allow_all=verb == "delete"):
        rtype, namespace = target.rtype, scope(args, target.rtype)
        if target.names:
            for name in target.names:
                check(store, verb, rtype.plural, namespace or "", name)
                obj = store.get(rtype.plural, namespace or "", name)
                if obj is None:
                    raise KubectlError(not_found(rtype, name))
                found.append((rtype.plural, obj))
        elif type_alone or (allow_selector and (args.get("selector") or args.has("all"))):
            check(store, verb, rtype.plural, namespace or "")
            found += [
                (rtype.plural, o)
                for o in filtered(args, rtype, store.list_of(rtype.plural, namespace))
            ]
        else:
            raise KubectlError("error: resource(s) were provided, but no name was specified")
    return found


def finish(
    store: Store,
    args: Args,
    lines: list[str],
    changes: list[Change],
    *extra: str,
    refs: list[str] | None = None,
) -> CommandResult:
    """Print the result lines, reconcile (unless a dry run) and say what the call meant."""
    suffix = " (dry run)" if args.dry_run else ""
    if args.dry_run:
        changes = []
    else:
        reconcile(store)
    out = "".join(f"{line}{suffix}\n" for line in lines)
    meaning = identity(args, None, *extra, *(["dry-run"] if args.dry_run else []), refs=refs)
    return CommandResult(stdout=out, changes=changes, identity=meaning)


def delete(store: Store, args: Args) -> CommandResult:
    refs = None
    if args.get("filename"):
        found = []
        refs = []
        for rtype, namespace, name in objects_from_file(store, args):
            check(store, "delete", rtype.plural, namespace, name)
            obj = store.get(rtype.plural, namespace, name)
            if obj is None:
                raise KubectlError(not_found(rtype, name))
            found.append((rtype.plural, obj))
            refs.append(f"{rtype.plural}/{name}")
    elif not args.args:
        raise KubectlError(
            "error: You must provide one or more resources by argument or "
            "filename.\nExample resource specifications include:\n   "
            "'-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n"
            "   '<resource>'"
        )
    else:
        try:
            found = resolve_objects(store, args, "delete")
        except KubectlError as error:
            if args.has("ignore-not-found") and "(NotFound)" in error.message:
                return CommandResult(identity=identity(args))
            raise
    if not found and (args.get("selector") or args.has("all")):
        return CommandResult(stderr="No resources found\n", identity=identity(args))
    lines, changes = [], []
    force = args.has("force")
    for plural, obj in found:
        kind = qualified_name(obj).partition("/")[0]
        lines.append(f'{kind} "{obj["metadata"]["name"]}" {"force " if force else ""}deleted')
        changes.append(Change(SYSTEM, "delete", target_of(obj)))
        if not args.dry_run:
            _cascade(store, plural, obj)
    result = finish(store, args, lines, changes, refs=refs)
    if force and found:
        result.stderr = (
            "Warning: Immediate deletion does not wait for confirmation that the "
            "running resource has been terminated. The resource may continue to run "
            "on the cluster indefinitely.\n"
        )
    return result


def _cascade(store: Store, plural: str, obj: Obj) -> None:
    """Delete an object and what it owns (a deployment's ReplicaSets and pods, ...)."""
    meta = obj["metadata"]
    store.remove(plural, meta.get("namespace", ""), meta["name"])
    if plural == "namespaces":
        for kind, objects in store.objects.items():
            for ns, name in list(objects):
                if ns == meta["name"]:
                    store.remove(kind, ns, name)
        return
    if plural == "services":
        store.remove("endpoints", meta["namespace"], meta["name"])
    for child_plural in ("replicasets", "pods", "jobs"):
        for child in store.owned_by(child_plural, obj):
            _cascade(store, child_plural, child)


def scale(store: Store, args: Args) -> CommandResult:
    replicas = args.get("replicas")
    if not replicas:
        raise KubectlError('error: required flag(s) "replicas" not set')
    if not replicas.isdigit():
        raise KubectlError(
            f'error: invalid argument "{replicas}" for "--replicas" flag: '
            "strconv.ParseInt: parsing: invalid syntax"
        )
    lines, changes = [], []
    for plural, obj in resolve_objects(store, args, "patch"):
        if plural not in ("deployments", "replicasets", "statefulsets"):
            raise KubectlError(
                f"error: no scaler has been implemented for "
                f"{{{obj['apiVersion'].rpartition('/')[0]} {obj['kind']}}}"
            )
        before = obj["spec"].get("replicas", 1)
        lines.append(f"{qualified_name(obj)} scaled")
        changes.append(Change(SYSTEM, "scale", target_of(obj), f"replicas {before} -> {replicas}"))
        if not args.dry_run:
            obj["spec"]["replicas"] = int(replicas)
    return finish(store, args, lines, changes, f"replicas={replicas}")


def cordon(store: Store, args: Args) -> CommandResult:
    on = args.verb == "cordon"
    lines, changes = [], []
    names = _node_names(args)
    for _, node in resolve_objects(store, args, "patch", [Target(resource_type("nodes"), names)]):
        name = node["metadata"]["name"]
        if bool(node["spec"].get("unschedulable")) == on:
            lines.append(f"node/{name} already {args.verb}ed")
            continue
        lines.append(f"node/{name} {args.verb}ed")
        changes.append(Change(SYSTEM, args.verb, f"node/{name}"))
        if not args.dry_run:
            set_unschedulable(store, node, on)
    return finish(store, args, lines, changes, refs=["nodes", *names])


def _node_names(args: Args) -> list[str]:
    names = [a.partition("/")[2] if "/" in a else a for a in args.args]
    if not names:
        raise KubectlError(
            f"error: USAGE: {args.verb} NODE [flags]\nSee 'kubectl "
            f"{args.verb} -h' for help and examples"
        )
    return names


def set_unschedulable(store: Store, node: Obj, on: bool) -> None:
    spec = node["spec"]
    taints = [t for t in spec.get("taints", []) if t["key"] != "node.kubernetes.io/unschedulable"]
    if on:
        spec["unschedulable"] = True
        taints.insert(
            0,
            {
                "effect": "NoSchedule",
                "key": "node.kubernetes.io/unschedulable",
                "timeAdded": store.clock.now_stamp(),
            },
        )
    else:
        spec.pop("unschedulable", None)
    if taints:
        spec["taints"] = taints
    else:
        spec.pop("taints", None)


def label(store: Store, args: Args) -> CommandResult:
    field = "labels" if args.verb == "label" else "annotations"
    pairs = [a for a in args.args if "=" in a or a.endswith("-")]
    rest = [a for a in args.args if a not in pairs]
    if not pairs:
        raise KubectlError(f"error: at least one {field[:-1]} update is required")
    lines, changes = [], []
    for _, obj in resolve_objects(store, args, "patch", targets(rest, allow_all=False)):
        values = obj["metadata"].setdefault(field, {})
        updated = copy.deepcopy(values)
        for pair in pairs:
            if pair.endswith("-") and "=" not in pair:
                updated.pop(pair[:-1], None)
                continue
            key, _, value = pair.partition("=")
            if key in values and values[key] != value and not args.has("overwrite"):
                raise KubectlError(
                    f"error: '{key}' already has a value ({values[key]}), and --overwrite is false"
                )
            updated[key] = value
        verb = "labeled" if args.verb == "label" else "annotated"
        if all(p.endswith("-") and "=" not in p for p in pairs):
            verb = "un" + verb
        if updated == values:
            verb = "not " + verb
        lines.append(f"{qualified_name(obj)} {verb}")
        if updated != values:
            changes.append(Change(SYSTEM, args.verb, target_of(obj), " ".join(pairs)))
            if not args.dry_run:
                obj["metadata"][field] = updated
    return finish(store, args, lines, changes, *sorted(pairs), refs=rest)


def taint(store: Store, args: Args) -> CommandResult:
    specs = [a for a in args.args[1:] if ":" in a or a.endswith("-")]
    names = [a for a in args.args[1:] if a not in specs]
    if args.args and "/" in args.args[0]:
        names.insert(0, args.args[0].partition("/")[2])
    lines, changes = [], []
    for _, node in resolve_objects(store, args, "patch", [Target(resource_type("nodes"), names)]):
        taints = list(node["spec"].get("taints", []))
        for text in specs:
            remove = text.endswith("-")
            key_value, _, effect = text.rstrip("-").partition(":")
            key, _, value = key_value.partition("=")
            taints[:] = [
                t for t in taints if not (t["key"] == key and (not effect or t["effect"] == effect))
            ]
            if not remove:
                taints.append({"effect": effect, "key": key} | ({"value": value} if value else {}))
        lines.append(
            f"node/{node['metadata']['name']} "
            f"{'untainted' if all(s.endswith('-') for s in specs) else 'tainted'}"
        )
        changes.append(Change(SYSTEM, "taint", f"node/{node['metadata']['name']}", " ".join(specs)))
        if not args.dry_run:
            node["spec"]["taints"] = taints
    return finish(store, args, lines, changes, *specs, refs=["nodes", *names])


def edit(store: Store, args: Args) -> CommandResult:
    raise KubectlError(
        'error: there was a problem with the editor "vi": no interactive '
        "editor is available here (use kubectl patch, kubectl set or kubectl "
        "apply instead)"
    )
