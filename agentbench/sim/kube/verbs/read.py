"""`kubectl get` and `kubectl describe`: find objects by type, names, namespace and selectors,
then print them as kubectl would."""

from __future__ import annotations

from agentbench.sim.core.base import CommandResult
from agentbench.sim.kube.cli.identity import identity
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.cli.select import field_selector, label_selector
from agentbench.sim.kube.cli.targets import Target, targets
from agentbench.sim.kube.objects.resources import ResourceType
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.printers import render
from agentbench.sim.kube.printers.describe_kinds import describe as describe_object


def not_found(rtype: ResourceType, name: str) -> str:
    """The API server's NotFound as kubectl prints it: the resource with its API group
    (`deployments.apps`, `cronjobs.batch`; core types plain: `pods`)."""
    return f'Error from server (NotFound): {rtype.group_resource} "{name}" not found'


def no_resources(args: Args, namespaced: bool) -> str:
    if args.all_namespaces or not namespaced:
        return "No resources found\n"
    return f"No resources found in {args.namespace()} namespace.\n"


def scope(args: Args, rtype: ResourceType) -> str | None:
    """The namespace to list in; None for all namespaces; "" for cluster-scoped types."""
    if not rtype.namespaced:
        return ""
    return None if args.all_namespaces else args.namespace()


def find(store: Store, args: Args, target: Target) -> tuple[list[Obj], list[str]]:
    """(objects, NotFound errors) for one target, selectors applied."""
    rtype = target.rtype
    namespace = scope(args, rtype)
    if target.names:
        found, errors = [], []
        for name in target.names:
            obj = (
                store.get(rtype.plural, namespace or "", name)
                if namespace is not None
                else next(
                    (o for o in store.list_of(rtype.plural) if o["metadata"]["name"] == name), None
                )
            )
            if obj is None:
                errors.append(not_found(rtype, name))
            else:
                found.append(obj)
        return found, errors
    items = store.list_of(rtype.plural, namespace)
    return filtered(args, rtype, items), []


def filtered(args: Args, rtype: ResourceType, items: list[Obj]) -> list[Obj]:
    if args.get("selector"):
        match = label_selector(args.get("selector"))
        items = [o for o in items if match(o)]
    if args.get("field-selector"):
        match = field_selector(args.get("field-selector"), rtype)
        items = [o for o in items if match(o)]
    return items


_NO_TYPE = (
    'You must specify the type of resource to get. Use "kubectl api-resources" for a complete '
    'list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl '
    'explain <resource>" for a detailed description of that resource (e.g. kubectl explain '
    "pods).\nSee 'kubectl get -h' for help and examples"
)


def get(store: Store, args: Args) -> CommandResult:
    wanted = targets(args.args)
    if not wanted:
        raise KubectlError(_NO_TYPE)
    kind, argument = render.output_format(args)
    errors: list[str] = []
    groups: list[tuple[ResourceType, list[Obj]]] = []
    for target in wanted:
        found, missing = find(store, args, target)
        errors += missing
        if args.get("sort-by"):
            found = render.sort_objects(found, args.get("sort-by"))
        groups.append((target.rtype, found))
    every = [o for _, group in groups for o in group]
    out = ""
    if kind in ("table", "wide"):
        with_kind = len(wanted) > 1
        tables = [
            render.table(store, rtype, items, args, kind == "wide", with_kind)
            for rtype, items in groups
            if items
        ]
        out = "\n".join(tables)
    elif kind == "custom-columns":
        out = render.custom_columns(argument, every, args.has("no-headers")) if every else ""
    else:
        single = len(wanted) == 1 and len(wanted[0].names) == 1 and len(every) == 1
        value = every[0] if single else render.as_list(every)
        out = render.structured(kind, argument, value, every)
    err = "\n".join(errors) + ("\n" if errors else "")
    if not every and not errors and kind in ("table", "wide", "custom-columns", "name"):
        err = no_resources(args, any(t.rtype.namespaced for t in wanted))
    return CommandResult(
        stdout=out, stderr=err, exit_code=1 if errors else 0, identity=identity(args)
    )


def describe(store: Store, args: Args) -> CommandResult:
    wanted = targets(args.args, allow_all=False)
    if not wanted:
        raise KubectlError(
            'You must specify the type of resource to describe. Use "kubectl api-resources" '
            "for a complete list of supported resources.\n\nerror: Required resource not "
            'specified.\nUse "kubectl explain <resource>" for a detailed description of '
            "that resource (e.g. kubectl explain pods).\nSee 'kubectl describe -h' for help "
            "and examples"
        )
    texts: list[str] = []
    errors: list[str] = []
    resolved: list[str] = []
    for target in wanted:
        rtype = target.rtype
        if not target.names:
            texts += [describe_object(store, rtype.plural, o) for o in find(store, args, target)[0]]
            continue
        namespace = scope(args, rtype)
        pool = store.list_of(rtype.plural, namespace)
        for name in target.names:
            exact = [o for o in pool if o["metadata"]["name"] == name]
            # describe falls back to every object whose name starts with the argument
            matches = exact or [o for o in pool if o["metadata"]["name"].startswith(name)]
            if not matches:
                errors.append(not_found(rtype, name))
            resolved += [o["metadata"]["name"] for o in matches] or [name]
            texts += [describe_object(store, rtype.plural, o) for o in matches]
    out = "\n\n".join(texts)
    meaning = identity(args, resolved or None)
    if not texts and not errors:
        return CommandResult(
            stderr=no_resources(args, wanted[0].rtype.namespaced), identity=meaning
        )
    err = "\n".join(errors) + ("\n" if errors else "")
    return CommandResult(stdout=out, stderr=err, exit_code=1 if errors else 0, identity=meaning)
