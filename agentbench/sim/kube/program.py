"""The `kubectl` program: parse the command line, run the verb against the live store, and
say what the call meant (its identity) and what it changed."""

from __future__ import annotations

from collections.abc import Callable

from agentbench.sim.base import CommandResult, ShellContext
from agentbench.sim.kube import read
from agentbench.sim.kube.build import build_store
from agentbench.sim.kube.model import Cluster
from agentbench.sim.kube.parse import Args, KubectlError, parse
from agentbench.sim.kube.store import ReadFile, Store

Verb = Callable[[Store, Args], CommandResult]

VERBS: dict[str, Verb] = {
    "get": read.get,
    "describe": read.describe,
}

_USAGE = """kubectl controls the Kubernetes cluster manager.

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
        self.store = build_store(spec)
        self.store.read_file = read_file

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        try:
            args = parse(argv)
            if args.has("help") or not args.verb:
                text = (
                    _USAGE
                    if not args.verb
                    else f"Usage:\n  kubectl {args.verb} [flags] [options]\n"
                )
                return CommandResult(stdout=text, identity=("kubectl", "help", args.verb))
            handler = VERBS.get(args.verb)
            if handler is None:
                raise KubectlError(f'error: unknown command "{args.verb}" for "kubectl"')
            self.store.stdin = stdin
            return handler(self.store, args)
        except KubectlError as error:
            return CommandResult(
                stderr=error.message.rstrip("\n") + "\n", exit_code=error.exit_code
            )


def build_kubectl(spec: Cluster, read_file: ReadFile | None = None) -> Kubectl:
    """A kubectl `Program` answering from `spec` (a fresh cluster: writes start over)."""
    return Kubectl(spec, read_file)
