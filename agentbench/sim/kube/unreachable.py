"""kubectl on a host whose task declares no cluster: no kubeconfig, no API server.

Real kubectl without a kubeconfig talks to http://localhost:8080, where nothing listens, so
every call that needs the API server fails the same way (exit 1), with `REFUSED`:
"The connection to the server localhost:8080 was refused - did you specify the right host or
port?".

What needs no server still answers: `--help`, `version --client` (and the client half of
`version`), `config view` (an empty config) and `config current-context` (unset). A bad flag or
an unknown command fails as it does with a cluster, before any connection. These answers are
simulated (the environment says what a real host would), not off-script; their identity is
("kubectl", "!unreachable", VERB, ARGS...) for every server call, so a repeated refused call
is recognised as a repeat.
"""

from __future__ import annotations

from agentbench.sim.core.base import CommandResult, ShellContext
from agentbench.sim.kube.cli.parse import KubectlError, parse
from agentbench.sim.kube.program import UNSIMULATED, USAGE, VERBS

REFUSED = (
    "The connection to the server localhost:8080 was refused - did you specify the right host "
    "or port?\n"
)
CLIENT_VERSION = "v1.31.4"
EMPTY_CONFIG = (
    'apiVersion: v1\nclusters: null\ncontexts: null\ncurrent-context: ""\nkind: Config\n'
    "preferences: {}\nusers: null\n"
)


class UnreachableKubectl:
    """The `kubectl` program when no cluster is declared (see the module docstring)."""

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        try:
            args = parse(argv)
        except KubectlError as error:
            return CommandResult(stderr=error.message.rstrip("\n") + "\n", exit_code=1)
        verb = args.verb
        if args.has("help") or not verb:
            text = USAGE if not verb else f"Usage:\n  kubectl {verb} [flags] [options]\n"
            return CommandResult(stdout=text, identity=("kubectl", "help", verb))
        if verb not in VERBS and verb not in UNSIMULATED:
            return CommandResult(
                stderr=f'error: unknown command "{verb}" for "kubectl"\n', exit_code=1
            )
        if verb == "version":
            client = f"Client Version: {CLIENT_VERSION}\nKustomize Version: v5.4.2\n"
            if args.has("client"):
                return CommandResult(stdout=client, identity=("kubectl", "version"))
            return CommandResult(
                stdout=client,
                stderr=REFUSED,
                exit_code=1,
                identity=("kubectl", "!unreachable", "version"),
            )
        sub = args.args[0] if args.args else ""
        if verb == "config" and sub == "view":
            return CommandResult(stdout=EMPTY_CONFIG, identity=("kubectl", "config", "view"))
        if verb == "config" and sub == "current-context":
            return CommandResult(
                stderr="error: current-context is not set\n",
                exit_code=1,
                identity=("kubectl", "config", "current-context"),
            )
        return CommandResult(
            stderr=REFUSED, exit_code=1, identity=("kubectl", "!unreachable", verb, *args.args)
        )
