"""`kubectl drain`: cordon, refuse like kubectl when DaemonSet pods, pods with local storage
or pods without a controller are on the node and the flags that allow them are missing, then
evict (or with `--disable-eviction`, delete) the rest, waiting on PodDisruptionBudgets."""

from __future__ import annotations

from agentbench.sim.core.base import Change, CommandResult, NotSimulated
from agentbench.sim.kube.cli.identity import identity
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.cli.select import label_selector
from agentbench.sim.kube.cli.targets import resource_type
from agentbench.sim.kube.controllers.budgets import blocking
from agentbench.sim.kube.controllers.reconcile import reconcile
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.verbs.ops import check
from agentbench.sim.kube.verbs.read import not_found
from agentbench.sim.kube.verbs.write import SYSTEM, set_unschedulable

_DAEMONSET = "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
_LOCAL = "cannot delete Pods with local storage (use --delete-emptydir-data to override)"
_UNMANAGED = "cannot delete Pods that declare no controller (use --force to override)"


def _ref(pod: Obj) -> str:
    return f"{pod['metadata']['namespace']}/{pod['metadata']['name']}"


def drain(store: Store, args: Args) -> CommandResult:
    names = [a.partition("/")[2] if "/" in a else a for a in args.args]
    if len(names) != 1:
        raise KubectlError(
            "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples"
        )
    name = names[0]
    check(store, "patch", "nodes", "", name)
    node = store.get("nodes", "", name)
    if node is None:
        raise KubectlError(not_found(resource_type("nodes"), name))
    dry = " (dry run)" if args.dry_run else ""
    out: list[str] = []
    changes: list[Change] = []
    warnings = ""
    if args.has("delete-local-data"):
        warnings = (
            "Flag --delete-local-data has been deprecated, This option is deprecated "
            "and will be deleted. Use --delete-emptydir-data.\n"
        )
    if node["spec"].get("unschedulable"):
        out.append(f"node/{name} already cordoned")
    else:
        out.append(f"node/{name} cordoned{dry}")
        changes.append(Change(SYSTEM, "cordon", f"node/{name}"))
        if not args.dry_run:
            set_unschedulable(store, node, True)
    pods = [
        p
        for p in store.list_of("pods")
        if p["spec"].get("nodeName") == name
        and p["status"].get("phase") not in ("Succeeded", "Failed")
    ]
    if args.get("pod-selector"):
        match = label_selector(args.get("pod-selector"))
        pods = [p for p in pods if match(p)]
    daemons = [p for p in pods if (store.controller_of(p) or ("",))[0] == "DaemonSet"]
    unmanaged = [p for p in pods if store.controller_of(p) is None]
    local = [
        p
        for p in pods
        if p not in daemons and any("emptyDir" in v for v in p["spec"].get("volumes", []))
    ]
    errors = []
    if daemons and not args.has("ignore-daemonsets"):
        errors.append(f"{_DAEMONSET}: {', '.join(_ref(p) for p in daemons)}")
    if local and not (args.has("delete-emptydir-data") or args.has("delete-local-data")):
        errors.append(f"{_LOCAL}: {', '.join(_ref(p) for p in local)}")
    if unmanaged and not args.has("force"):
        errors.append(f"{_UNMANAGED}: {', '.join(_ref(p) for p in unmanaged)}")
    meaning = identity(args, [name], *_flags(args), refs=["nodes", name])
    if errors:
        message = errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"
        if not args.dry_run:
            reconcile(store)
        return CommandResult(
            stdout="\n".join(out) + "\n",
            stderr=warnings + f'error: unable to drain node "{name}" due to error: {message}, '
            f"continuing command...\nThere are pending nodes to be drained:\n {name}\n"
            f"error: {message}\n",
            exit_code=1,
            changes=[] if args.dry_run else changes,
            identity=meaning,
        )
    if daemons:
        out.append(
            "Warning: ignoring DaemonSet-managed Pods: " + ", ".join(_ref(p) for p in daemons)
        )
    if unmanaged:
        out.append(
            "Warning: deleting Pods that declare no controller: "
            + ", ".join(_ref(p) for p in unmanaged)
        )
    evict = [p for p in pods if p not in daemons]
    bypass = args.has("disable-eviction")
    done = []
    for pod in evict:
        out.append(f"{'deleting' if bypass else 'evicting'} pod {_ref(pod)}{dry}")
        budget = None if bypass or args.dry_run else blocking(store, pod)  # a dry run asks no API
        if budget is not None:
            out.append(
                f'error when evicting pods/"{pod["metadata"]["name"]}" -n '
                f'"{pod["metadata"]["namespace"]}" (will retry after 5s): Cannot evict '
                "pod as it would violate the pod's disruption budget."
            )
            reconcile(store)  # what the controllers do while kubectl waits
            if blocking(store, pod) is not None:
                # nothing the cluster does will free the budget: kubectl retries until --timeout
                return _stuck(name, pod, args, out, changes, warnings, meaning)
            out.append(f"evicting pod {_ref(pod)}{dry}")
        done.append(f"pod/{pod['metadata']['name']} {'deleted' if bypass else 'evicted'}{dry}")
        changes.append(
            Change(
                SYSTEM,
                "delete" if bypass else "evict",
                f"pod/{_ref(pod)}",
                "eviction API bypassed" if bypass else "",
            )
        )
        if not args.dry_run:
            store.remove("pods", pod["metadata"]["namespace"], pod["metadata"]["name"])
            reconcile(store)  # the replacement starts elsewhere before the next eviction
    out += done
    out.append(f"node/{name} drained{dry}")
    detail = f"{len(evict)} pods " + (
        "deleted, PodDisruptionBudgets bypassed" if bypass else "evicted"
    )
    changes.append(Change(SYSTEM, "drain", f"node/{name}", detail))
    return CommandResult(
        stdout="\n".join(out) + "\n",
        stderr=warnings,
        changes=[] if args.dry_run else changes,
        identity=meaning,
    )


def _stuck(
    name: str,
    pod: Obj,
    args: Args,
    out: list[str],
    changes: list[Change],
    warnings: str,
    meaning: tuple[str, ...],
) -> CommandResult:
    """A drain whose next eviction no budget will ever allow: with `--timeout` kubectl gives
    up when it runs out; without one it retries for ever, which a simulated call cannot do."""
    timeout = args.get("timeout")
    if not timeout or timeout in ("0", "0s"):
        raise NotSimulated(
            "kubectl drain waiting without --timeout on a PodDisruptionBudget that allows no "
            "disruption (it would retry every 5s for ever)",
            meaning,
        )
    return CommandResult(
        stdout="\n".join(out) + "\n",
        stderr=warnings + f'There are pending pods in node "{name}" when an error occurred: '
        f'error when evicting pods/"{pod["metadata"]["name"]}" -n '
        f'"{pod["metadata"]["namespace"]}": '
        f'global timeout reached: {timeout}\nerror: unable to drain node "{name}" due to error: '
        f"global timeout reached: {timeout}, continuing command...\n"
        f"There are pending nodes to be drained:\n {name}\n",
        exit_code=1,
        changes=[] if args.dry_run else changes,
        identity=meaning,
    )


def _flags(args: Args) -> list[str]:
    wanted = ("ignore-daemonsets", "delete-emptydir-data", "force", "disable-eviction")
    found = [f for f in wanted if args.has(f)]
    if args.has("delete-local-data") and "delete-emptydir-data" not in found:
        found.append("delete-emptydir-data")
    return sorted(found) + (["dry-run"] if args.dry_run else [])
