"""Read-only verbs beyond get/describe/logs: `top`, `rollout status|history`, `auth can-i`,
`version`, `config current-context|get-contexts|view|set-context`, `cluster-info`,
`api-resources`."""

from __future__ import annotations

import json

from agentbench.sim.core.base import CommandResult
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.cli.targets import resource_type
from agentbench.sim.kube.objects.resources import TYPES
from agentbench.sim.kube.objects.store import Store
from agentbench.sim.kube.objects.units import cpu_millis, mebibytes, memory_bytes
from agentbench.sim.kube.printers import render
from agentbench.sim.kube.printers.tabwriter import align
from agentbench.sim.kube.verbs.read import filtered, not_found


def _padded(rows: list[list[str]]) -> str:
    """`kubectl top` ends every cell with a tab, so even the last column is padded."""
    return align("\n".join("\t".join(r) + "\t" for r in rows), min_width=6, padding=3) + "\n"


def top(store: Store, args: Args) -> CommandResult:
    if not args.args or args.args[0] not in ("pod", "pods", "po", "node", "nodes", "no"):
        raise KubectlError(
            "error: unknown command \"top\" target; use 'kubectl top pod' or 'kubectl top node'"
        )
    kind = resource_type(args.args[0])
    names = args.args[1:]
    if kind.plural == "nodes":
        rows = [["NAME", "CPU(cores)", "CPU(%)", "MEMORY(bytes)", "MEMORY(%)"]]
        for node in store.list_of("nodes"):
            name = node["metadata"]["name"]
            if names and name not in names:
                continue
            used = store.usage.get(("", name), {}).get("", {})
            cpu, mem = cpu_millis(used.get("cpu", "0")), memory_bytes(used.get("memory", "0"))
            alloc = node["status"]["allocatable"]
            rows.append(
                [
                    name,
                    f"{cpu}m",
                    f"{cpu * 100 // max(1, cpu_millis(alloc['cpu']))}%",
                    mebibytes(mem),
                    f"{mem * 100 // max(1, memory_bytes(alloc['memory']))}%",
                ]
            )
        return CommandResult(
            stdout=_padded(rows), identity=("kubectl", "top", "nodes", "", ",".join(names) or "*")
        )
    namespace = None if args.all_namespaces else args.namespace()
    pods = filtered(args, kind, store.list_of("pods", namespace))
    pods = [p for p in pods if not names or p["metadata"]["name"] in names]
    for name in names:
        if not any(p["metadata"]["name"] == name for p in pods):
            raise KubectlError(not_found(kind, name))
    containers = args.has("containers")
    header = ["POD", "NAME"] if containers else ["NAME"]
    rows = [(["NAMESPACE"] if namespace is None else []) + header + ["CPU(cores)", "MEMORY(bytes)"]]
    measured: list[tuple[int, int, list[str]]] = []
    for pod in pods:
        running = [
            s["name"]
            for s in pod["status"].get("containerStatuses", [])
            if "running" in s.get("state", {})
        ]
        if not running:
            continue
        usage = store.usage.get((pod["metadata"]["namespace"], pod["metadata"]["name"]), {})
        lines = [(c, usage.get(c, {})) for c in running]
        if not containers:
            lines = [
                (
                    "",
                    {
                        "cpu": f"{sum(cpu_millis(u.get('cpu', '0')) for _, u in lines)}m",
                        "memory": str(sum(memory_bytes(u.get("memory", "0")) for _, u in lines)),
                    },
                )
            ]
        for cname, used in lines:
            cpu, mem = cpu_millis(used.get("cpu", "0")), memory_bytes(used.get("memory", "0"))
            row = (
                ([pod["metadata"]["namespace"]] if namespace is None else [])
                + [pod["metadata"]["name"]]
                + ([cname] if containers else [])
                + [f"{cpu}m", mebibytes(mem)]
            )
            measured.append((cpu, mem, row))
    if args.get("sort-by") in ("cpu", "memory"):
        by_cpu = args.get("sort-by") == "cpu"
        measured.sort(key=lambda m: -(m[0] if by_cpu else m[1]))
    rows += [row for *_, row in measured]
    meaning = ("kubectl", "top", "pods", namespace or "*", ",".join(names) or "*")
    if len(rows) == 1:
        where = "" if namespace is None else f" in namespace {namespace}"
        return CommandResult(
            stderr=f"error: metrics not available yet{where}\n", exit_code=1, identity=meaning
        )
    return CommandResult(stdout=_padded(rows), identity=meaning)


def _allowed(store: Store, verb: str, plural: str, namespace: str) -> bool:
    """False when a `denied` rule ("VERB RESOURCE [-n NAMESPACE]") covers the call; a rule on
    `get` also covers `list` and `watch`."""
    for rule in store.spec.denied:
        parts = rule.split()
        if len(parts) < 2:
            continue
        verbs = {parts[0], "list", "watch"} if parts[0] == "get" else {parts[0]}
        rtype = resource_type(parts[1]) if parts[1] != "*" else None
        scope = parts[3] if len(parts) >= 4 and parts[2] in ("-n", "--namespace") else None
        if (
            (verb in verbs or "*" in verbs)
            and (rtype is None or rtype.plural == plural)
            and scope in (None, namespace)
        ):
            return False
    return True


def check(store: Store, verb: str, plural: str, namespace: str, name: str = "") -> None:
    """Refuse like the API server when the cluster's `denied` rules forbid the call."""
    if _allowed(store, verb, plural, namespace):
        return
    rtype = resource_type(plural)
    subject = f'{rtype.group_resource} "{name}"' if name else rtype.group_resource
    where = f' in the namespace "{namespace}"' if rtype.namespaced else " at the cluster scope"
    raise KubectlError(
        f'Error from server (Forbidden): {subject} is forbidden: User "{store.spec.user}" '
        f'cannot {verb} resource "{plural}" in API group "{rtype.group}"{where}'
    )


def can_i(store: Store, args: Args) -> CommandResult:
    if len(args.args) < 3 or args.args[0] != "can-i":
        raise KubectlError("error: you must specify two arguments: verb resource or nonResourceURL")
    verb, target = args.args[1], args.args[2]
    plural = resource_type(target.partition("/")[0]).plural
    namespace = "*" if args.all_namespaces else args.namespace()
    yes = _allowed(store, verb, plural, namespace)
    return CommandResult(
        stdout="yes\n" if yes else "no\n",
        exit_code=0 if yes else 1,
        identity=("kubectl", "auth", "can-i", verb, plural, namespace),
    )


def version(store: Store, args: Args) -> CommandResult:
    v = store.spec.version
    data: dict[str, object] = {
        "clientVersion": {
            "gitVersion": v,
            "major": "1",
            "minor": v.split(".")[1],
            "platform": "linux/amd64",
        },
        "kustomizeVersion": "v5.4.2",
    }
    if not args.has("client"):
        data["serverVersion"] = data["clientVersion"]
    if args.get("output") in ("json", "yaml"):
        text = (
            json.dumps(data, indent=2) + "\n"
            if args.get("output") == "json"
            else render.to_yaml(data)
        )
        return CommandResult(stdout=text, identity=("kubectl", "version"))
    out = f"Client Version: {v}\nKustomize Version: v5.4.2\n"
    if not args.has("client"):
        out += f"Server Version: {v}\n"
    return CommandResult(stdout=out, identity=("kubectl", "version"))


def config(store: Store, args: Args) -> CommandResult:
    spec = store.spec
    sub = args.args[0] if args.args else ""
    meaning = ("kubectl", "config", sub)
    if sub == "current-context":
        return CommandResult(stdout=spec.context + "\n", identity=meaning)
    if sub == "get-contexts":
        rows = (
            f"CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n*\t{spec.context}\t"
            f"{spec.cluster_name}\t{spec.user}\t{store.default_namespace}\n"
        )
        return CommandResult(stdout=align(rows, padding=3, min_width=10), identity=meaning)
    if sub == "view":
        view = {
            "apiVersion": "v1",
            "clusters": [
                {
                    "cluster": {
                        "certificate-authority-data": "DATA+OMITTED",
                        "server": spec.server,
                    },
                    "name": spec.cluster_name,
                }
            ],
            "contexts": [
                {
                    "context": {
                        "cluster": spec.cluster_name,
                        "user": spec.user,
                        "namespace": store.default_namespace,
                    },
                    "name": spec.context,
                }
            ],
            "current-context": spec.context,
            "kind": "Config",
            "preferences": {},
            "users": [
                {
                    "name": spec.user,
                    "user": {
                        "client-certificate-data": "DATA+OMITTED",
                        "client-key-data": "DATA+OMITTED",
                    },
                }
            ],
        }
        return CommandResult(stdout=render.to_yaml(view), identity=meaning)
    if sub == "set-context" and args.get("namespace"):
        store.default_namespace = args.get("namespace")
        return CommandResult(stdout=f'Context "{spec.context}" modified.\n', identity=meaning)
    if sub == "use-context":
        name = args.args[1] if len(args.args) > 1 else ""
        if name != spec.context:
            raise KubectlError(f'error: no context exists with the name: "{name}"')
        return CommandResult(stdout=f'Switched to context "{name}".\n', identity=meaning)
    raise KubectlError(f'error: unknown command "{sub}" for "kubectl config"')


def cluster_info(store: Store, args: Args) -> CommandResult:
    server = store.spec.server
    return CommandResult(
        stdout=f"Kubernetes control plane is running at {server}\n"
        f"CoreDNS is running at {server}/api/v1/namespaces/kube-system/services/kube-dns:dns/"
        "proxy\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info "
        "dump'.\n",
        identity=("kubectl", "cluster-info"),
    )


def api_resources(store: Store, args: Args) -> CommandResult:
    rows = [["NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"]]
    rows += [
        [t.plural, ",".join(t.short), t.api_version, str(t.namespaced).lower(), t.kind]
        for t in sorted(TYPES, key=lambda t: (t.group, t.plural))
    ]
    return CommandResult(stdout=render.tabulate(rows), identity=("kubectl", "api-resources"))
