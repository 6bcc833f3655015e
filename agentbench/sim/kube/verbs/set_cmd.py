"""`kubectl set image|resources|env` on a workload's pod template (or a pod's spec)."""

from __future__ import annotations

import copy

from agentbench.sim.core.base import Change, CommandResult
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.cli.targets import targets
from agentbench.sim.kube.objects.store import Store
from agentbench.sim.kube.printers.render import qualified_name
from agentbench.sim.kube.verbs.write import SYSTEM, finish, resolve_objects, target_of


def set_command(store: Store, args: Args) -> CommandResult:
    if not args.args or args.args[0] not in ("image", "resources", "env"):
        raise KubectlError(
            'error: unknown command "set" target; use set image, set resources or set env'
        )
    what = args.args[0]
    pairs = [a for a in args.args[1:] if "=" in a]
    refs = [a for a in args.args[1:] if "=" not in a]
    lines, changes = [], []
    for _, obj in resolve_objects(store, args, "patch", targets(refs, allow_all=False)):
        pod_spec = obj["spec"]["template"]["spec"] if "template" in obj["spec"] else obj["spec"]
        before = copy.deepcopy(pod_spec)
        containers = pod_spec["containers"]
        only = args.get("containers") or args.get("container") or "*"
        chosen = [c for c in containers if only in ("*", c["name"])]
        if what == "image":
            for pair in pairs:
                cname, _, image = pair.partition("=")
                hits = [c for c in containers if cname in ("*", c["name"])]
                if not hits:
                    raise KubectlError(f'error: unable to find container named "{cname}"')
                for c in hits:
                    c["image"] = image
            verb = "image updated"
        elif what == "resources":
            for key in ("limits", "requests"):
                for item in filter(None, args.get(key).split(",")):
                    resource, _, amount = item.partition("=")
                    for c in chosen:
                        c.setdefault("resources", {}).setdefault(key, {})[resource] = amount
            verb = "resource requirements updated"
        else:
            for pair in pairs:
                key, _, value = pair.partition("=")
                for c in chosen:
                    env = [e for e in c.get("env", []) if e["name"] != key]
                    c["env"] = [*env, {"name": key, "value": value}]
            verb = "env updated"
        lines.append(f"{qualified_name(obj)} {verb}")
        if pod_spec == before:
            continue
        sizes = [f"{k}={args.get(k)}" for k in ("limits", "requests") if args.get(k)]
        detail = " ".join(pairs or sizes)
        changes.append(Change(SYSTEM, f"set-{what}", target_of(obj), detail))
        if args.dry_run:
            pod_spec.clear()
            pod_spec.update(before)
    return finish(
        store,
        args,
        lines,
        changes,
        what,
        *sorted(pairs),
        *(f"{k}={args.get(k)}" for k in ("limits", "requests") if args.get(k)),
        refs=refs,
    )
