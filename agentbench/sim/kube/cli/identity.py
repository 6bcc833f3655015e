"""A call's identity: what it meant, so two spellings of one read compare equal."""

from __future__ import annotations

from agentbench.sim.core.base import Identity
from agentbench.sim.kube.cli.parse import Args
from agentbench.sim.kube.cli.targets import targets


def identity(
    args: Args, names: list[str] | None = None, *extra: str, refs: list[str] | None = None
) -> Identity:
    """What a call means: (kubectl, verb, types, namespace, names, qualifiers...).

    Output format, flag order and aliases do not change it; the namespace is "*" with
    `-A` and "" for cluster-scoped types; names are "*" for a whole list. `refs` are the
    arguments that name resources (default: all of them, `TYPE NAME...` or `TYPE/NAME...`)."""
    refs = args.args if refs is None else refs
    wanted = targets(refs) if refs else []
    kinds = ",".join(sorted(t.rtype.plural for t in wanted))
    namespaced = any(t.rtype.namespaced for t in wanted)
    namespace = "*" if args.all_namespaces else args.namespace() if namespaced else ""
    if names is None:
        names = sorted({n for t in wanted for n in t.names})
    out: list[str] = ["kubectl", args.verb, kinds, namespace, ",".join(sorted(names)) or "*"]
    if args.get("selector"):
        out.append("l=" + ",".join(sorted(args.get("selector").replace(" ", "").split(","))))
    if args.get("field-selector"):
        out.append("f=" + ",".join(sorted(args.get("field-selector").split(","))))
    out.extend(extra)
    return tuple(out)
