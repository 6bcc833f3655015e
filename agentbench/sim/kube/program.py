"""The `kubectl` program: parse the command line, run the verb against the live store, and
say what the call meant (its identity) and what it changed."""

from __future__ import annotations

from collections.abc import Callable

from agentbench.sim.core.base import CommandResult, NotSimulated, ShellContext
from agentbench.sim.kube.cli.parse import Args, KubectlError, parse
from agentbench.sim.kube.cli.targets import targets
from agentbench.sim.kube.controllers.build import build_store
from agentbench.sim.kube.objects.store import ReadFile, Store
from agentbench.sim.kube.schema.model import Cluster
from agentbench.sim.kube.verbs import (
    apply,
    drain,
    execute,
    logs,
    ops,
    read,
    rollout,
    set_cmd,
    write,
)
from agentbench.sim.kube.verbs.read import scope

Verb = Callable[[Store, Args], CommandResult]


def _rollout(store: Store, args: Args) -> CommandResult:
    action = args.args[0] if args.args else ""
    args.verb, args.args = f"rollout {action}", args.args[1:]
    if action == "status":
        return rollout.rollout_status(store, args)
    if action == "history":
        return rollout.rollout_history(store, args)
    return rollout.rollout_write(store, args)


def _events(store: Store, args: Args) -> CommandResult:
    """`kubectl events` (the newer command): the same listing as `get events`."""
    args.args = ["events"]
    args.verb = "get"
    return read.get(store, args)


def _checked(verb: str, handler: Verb) -> Verb:
    """Reads the cluster's `denied` rules can refuse (writes check in verbs/write.py)."""

    def run(store: Store, args: Args) -> CommandResult:
        for target in targets(args.args, allow_all=verb == "get") if args.args else []:
            namespace = scope(args, target.rtype)
            for name in target.names or [""]:
                ops.check(
                    store, "get" if name else "list", target.rtype.plural, namespace or "", name
                )
        return handler(store, args)

    return run


VERBS: dict[str, Verb] = {
    "get": _checked("get", read.get),
    "describe": _checked("describe", read.describe),
    "logs": logs.logs,
    "top": ops.top,
    "rollout": _rollout,
    "auth": ops.can_i,
    "version": ops.version,
    "config": ops.config,
    "cluster-info": ops.cluster_info,
    "api-resources": ops.api_resources,
    "events": _events,
    "delete": write.delete,
    "scale": write.scale,
    "cordon": write.cordon,
    "uncordon": write.cordon,
    "label": write.label,
    "annotate": write.label,
    "taint": write.taint,
    "edit": write.edit,
    "drain": drain.drain,
    "apply": apply.apply,
    "create": apply.create,
    "patch": apply.patch,
    "set": set_cmd.set_command,
    "exec": execute.execute,
}
WRITES = {
    "delete",
    "scale",
    "cordon",
    "uncordon",
    "label",
    "annotate",
    "taint",
    "drain",
    "apply",
    "create",
    "patch",
    "set",
}
# Real kubectl verbs no simulator answers: they raise NotSimulated (the call is off-script).
UNSIMULATED = {
    "port-forward",
    "cp",
    "attach",
    "debug",
    "proxy",
    "run",
    "expose",
    "replace",
    "autoscale",
    "wait",
    "explain",
    "diff",
    "plugin",
    "kustomize",
    "completion",
    "certificate",
    "alpha",
    "options",
    "convert",
}

USAGE = """kubectl controls the Kubernetes cluster manager.

 Find more information at: https://kubernetes.io/docs/reference/kubectl/

Basic Commands (Beginner):
  create          Create a resource from a file or from stdin
  expose          Take a replication controller, service, deployment or pod and expose it as a
                  new Kubernetes service
  run             Run a particular image on the cluster
  set             Set specific features on objects

Basic Commands (Intermediate):
  explain         Get documentation for a resource
  get             Display one or many resources
  edit            Edit a resource on the server
  delete          Delete resources by file names, stdin, resources and names, or by resources
                  and label selector

Usage:
  kubectl [flags] [options]

Use "kubectl <command> --help" for more information about a given command.
"""


class Kubectl:
    """kubectl over one declared cluster. `read_file` gives `apply -f FILE` the content of a
    file in the task's filesystem (None when the file does not exist)."""

    def __init__(self, spec: Cluster, read_file: ReadFile | None = None) -> None:
        self.spec = spec
        self.read_file = read_file
        self.store = build_store(spec)
        self.store.read_file = read_file
        # Every call that may change state, in order: a checkpoint is a position in it.
        self._writes: list[tuple[list[str], str | None]] = []

    def snapshot(self) -> object:
        """A checkpoint (`Stateful`): reads change nothing, so it is the number of writes."""
        return len(self._writes)

    def restore(self, token: object) -> None:
        """Back to a checkpoint: rebuild the declared cluster and replay the writes made before
        it (deterministic, so the same names come back). Free when only reads happened."""
        assert isinstance(token, int)
        if token == len(self._writes):
            return
        replay = self._writes[:token]
        self.store = build_store(self.spec)
        self.store.read_file = self.read_file
        self._writes = []
        for argv, stdin in replay:
            self.run(argv, stdin, ShellContext())

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        try:
            args = parse(argv)
            if args.has("help") or not args.verb:
                text = (
                    USAGE if not args.verb else f"Usage:\n  kubectl {args.verb} [flags] [options]\n"
                )
                return CommandResult(stdout=text, identity=("kubectl", "help", args.verb))
            if args.verb in UNSIMULATED:
                raise NotSimulated(f"kubectl {args.verb}", ("kubectl", args.verb, *args.args))
            handler = VERBS.get(args.verb)
            if handler is None:
                raise KubectlError(f'error: unknown command "{args.verb}" for "kubectl"')
            self.store.stdin = stdin
            if (
                args.verb in WRITES
                or (args.verb == "rollout" and args.args[:1] not in (["status"], ["history"]))
                or (args.verb == "config" and args.args[:1] == ["set-context"])
            ):
                self._writes.append((list(argv), stdin))
            args.flags.setdefault("namespace", self.store.default_namespace)
            return handler(self.store, args)
        except KubectlError as error:
            return CommandResult(
                stderr=error.message.rstrip("\n") + "\n", exit_code=error.exit_code
            )


def build_kubectl(spec: Cluster, read_file: ReadFile | None = None) -> Kubectl:
    """A kubectl `Program` answering from `spec` (a fresh cluster: writes start over)."""
    return Kubectl(spec, read_file)
