"""`kubectl logs`: a pod (or `deploy/x`, `sts/x`, `job/x`, `-l selector`), `-c`, `-p`,
`--tail`, `--all-containers`, `--prefix`; kubectl's errors for waiting containers and missing
previous instances."""

from __future__ import annotations

from agentbench.sim.core.base import CommandResult
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.cli.targets import resource_type
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.verbs.read import filtered, not_found

_WAITING = {
    "ImagePullBackOff": "trying and failing to pull image",
    "ErrImagePull": "trying and failing to pull image",
    "InvalidImageName": "trying and failing to pull image",
}


def pod_for(store: Store, args: Args, ref: str) -> tuple[Obj, str]:
    """The pod a `logs` argument names, and a stderr note when kubectl picked one of many."""
    namespace = args.namespace()
    kind, slash, name = ref.partition("/")
    if not slash:
        kind, name = "pods", ref
    rtype = resource_type(kind)
    if rtype.plural == "pods":
        pod = store.get("pods", namespace, name)
        if pod is None:
            raise KubectlError(not_found(rtype, name))
        return pod, ""
    owner = store.get(rtype.plural, namespace, name)
    if owner is None:
        raise KubectlError(not_found(rtype, name))
    owners = [owner]
    if rtype.plural == "deployments":
        owners = store.owned_by("replicasets", owner)
    pods = [p for o in owners for p in store.owned_by("pods", o)]
    if not pods:
        raise KubectlError(f"error: timed out waiting for the condition on {rtype.plural}/{name}")
    pods.sort(key=lambda p: (p["status"].get("phase") != "Running", p["metadata"]["name"]))
    note = f"Found {len(pods)} pods, using pod/{pods[0]['metadata']['name']}\n"
    return pods[0], note if len(pods) > 1 else ""


def _container_log(store: Store, pod: Obj, container: str, previous: bool) -> str:
    meta = pod["metadata"]
    statuses = {s["name"]: s for s in pod["status"].get("containerStatuses", [])}
    status = statuses.get(container, {})
    current, before = store.logs.get((meta["namespace"], meta["name"], container), ("", None))
    if previous:
        if before is None or not status.get("lastState", {}).get("terminated"):
            raise KubectlError(
                f'Error from server (BadRequest): previous terminated container "{container}" '
                f'in pod "{meta["name"]}" not found'
            )
        return before
    waiting = status.get("state", {}).get("waiting", {}).get("reason")
    if (waiting and waiting != "CrashLoopBackOff") or not status:
        why = _WAITING.get(waiting or "", waiting or "ContainerCreating")
        raise KubectlError(
            f'Error from server (BadRequest): container "{container}" in pod "{meta["name"]}" '
            f"is waiting to start: {why}"
        )
    return current


def _tail(text: str, args: Args) -> str:
    lines = text.splitlines(keepends=True)
    tail = args.get("tail", "-1")
    try:
        count = int(tail)
    except ValueError as error:
        raise KubectlError(f'error: invalid argument "{tail}" for "--tail" flag') from error
    if count >= 0:
        lines = lines[len(lines) - count :] if count else []
    out = "".join(lines)
    return out if not out or out.endswith("\n") else out + "\n"


def logs(store: Store, args: Args) -> CommandResult:
    """Print a container's current or previous log."""
    if args.get("selector"):
        pods = filtered(args, resource_type("pods"), store.list_of("pods", args.namespace()))
        if not pods:
            return CommandResult(
                stderr=f"No resources found in {args.namespace()} namespace.\n",
                identity=_identity(args, "*", "*"),
            )
        chunks = [_one(store, args, p, prefix=args.has("prefix")) for p in pods]
        return CommandResult(
            stdout="".join(c for c, _ in chunks),
            identity=_identity(args, "*", args.get("container") or "*"),
        )
    if not args.args:
        raise KubectlError(
            "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\n"
            "POD or TYPE/NAME is a required argument for the logs command\n"
            "See 'kubectl logs -h' for help and examples"
        )
    pod, note = pod_for(store, args, args.args[0])
    if len(args.args) > 1 and not args.get("container"):
        args.flags["container"] = args.args[1]
    text, container = _one(store, args, pod, prefix=args.has("prefix"))
    names = [c["name"] for c in pod["spec"]["containers"]]
    if len(names) > 1 and not args.get("container") and not args.has("all-containers"):
        note += f'Defaulted container "{names[0]}" out of: {", ".join(names)}\n'
    return CommandResult(
        stdout=text,
        stderr=note,
        identity=_identity(args, pod["metadata"]["name"], container),
        stderr_first=True,  # kubectl says which pod/container before it streams the log
    )


def _one(store: Store, args: Args, pod: Obj, prefix: bool) -> tuple[str, str]:
    names = [c["name"] for c in pod["spec"]["containers"]]
    wanted = args.get("container")
    if args.has("all-containers"):
        chosen = names
    elif wanted:
        if wanted not in names:
            raise KubectlError(
                f"error: container {wanted} is not valid for pod {pod['metadata']['name']}"
            )
        chosen = [wanted]
    else:
        chosen = names[:1]
    out = ""
    for name in chosen:
        text = _tail(_container_log(store, pod, name, args.has("previous")), args)
        if prefix:
            tag = f"[pod/{pod['metadata']['name']}/{name}] "
            text = "".join(tag + line for line in text.splitlines(keepends=True))
        out += text
    return out, ",".join(chosen)


def _identity(args: Args, pod: str, container: str) -> tuple[str, ...]:
    out = ["kubectl", "logs", "pods", args.namespace(), pod, container]
    if args.get("selector"):
        out.append("l=" + args.get("selector").replace(" ", ""))
    if args.has("previous"):
        out.append("previous")
    return tuple(out)
