"""`kubectl rollout status|history|undo|restart|pause|resume` over a workload's ReplicaSets
(a deployment's revisions are its ReplicaSets' `deployment.kubernetes.io/revision`)."""

from __future__ import annotations

import copy

from agentbench.sim.core.base import Change, CommandResult
from agentbench.sim.kube.cli.identity import identity
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.cli.targets import resource_type, targets
from agentbench.sim.kube.controllers.replicasets import CHANGE_CAUSE, REVISION, progress_stalled
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.printers.describe import Writer
from agentbench.sim.kube.printers.describe_kinds import write_template
from agentbench.sim.kube.printers.render import qualified_name
from agentbench.sim.kube.printers.tabwriter import align
from agentbench.sim.kube.verbs.read import not_found
from agentbench.sim.kube.verbs.write import SYSTEM, finish, resolve_objects, target_of


def _one_workload(store: Store, args: Args) -> tuple[str, Obj]:
    wanted = targets(args.args)
    if len(wanted) != 1 or len(wanted[0].names) != 1:
        raise KubectlError("error: required resource not specified")
    rtype, name = wanted[0].rtype, wanted[0].names[0]
    if rtype.plural not in ("deployments", "statefulsets", "daemonsets"):
        raise KubectlError(f"error: no status viewer has been implemented for {rtype.kind}")
    obj = store.get(rtype.plural, args.namespace(), name)
    if obj is None:
        raise KubectlError(not_found(rtype, name))
    return rtype.plural, obj


def rollout_status(store: Store, args: Args) -> CommandResult:
    plural, obj = _one_workload(store, args)
    name, status, spec = obj["metadata"]["name"], obj.get("status", {}), obj["spec"]
    meaning = identity(args)
    if plural == "daemonsets":
        return CommandResult(
            stdout=f'daemon set "{name}" successfully rolled out\n', identity=meaning
        )
    if plural == "statefulsets":
        ready, want = status.get("readyReplicas", 0), spec.get("replicas", 1)
        if ready < want:
            return _waiting(f"Waiting for {want - ready} pods to be ready...", meaning)
        return CommandResult(
            stdout=f"partitioned roll out complete: {want} new pods have been updated...\n",
            identity=meaning,
        )
    want, updated = spec["replicas"], status.get("updatedReplicas", 0)
    total, available = status.get("replicas", 0), status.get("availableReplicas", 0)
    if progress_stalled(obj):
        return CommandResult(
            stderr=f'error: deployment "{name}" exceeded its progress deadline\n',
            exit_code=1,
            identity=meaning,
        )
    waiting = f'Waiting for deployment "{name}" rollout to finish: '
    if updated < want:
        return _waiting(
            f"{waiting}{updated} out of {want} new replicas have been updated...", meaning
        )
    if total > updated:
        return _waiting(
            f"{waiting}{total - updated} old replicas are pending termination...", meaning
        )
    if available < updated:
        return _waiting(
            f"{waiting}{available} of {updated} updated replicas are available...", meaning
        )
    return CommandResult(stdout=f'deployment "{name}" successfully rolled out\n', identity=meaning)


def _waiting(line: str, meaning: tuple[str, ...]) -> CommandResult:
    # kubectl would watch forever; the simulated call stops as if --timeout had run out.
    return CommandResult(
        stdout=line + "\n",
        stderr="error: timed out waiting for the condition\n",
        exit_code=1,
        identity=meaning,
    )


def revisions(store: Store, dep: Obj) -> list[tuple[int, Obj]]:
    found = [
        (int(rs["metadata"].get("annotations", {}).get(REVISION, "0")), rs)
        for rs in store.owned_by("replicasets", dep)
    ]
    return sorted(found, key=lambda pair: pair[0])


def rollout_history(store: Store, args: Args) -> CommandResult:
    plural, obj = _one_workload(store, args)
    title = f"{resource_type(plural).qualified}/{obj['metadata']['name']}"
    history = revisions(store, obj) if plural == "deployments" else [(1, obj)]
    wanted = args.get("revision")
    meaning = identity(args, None, *(["revision=" + wanted] if wanted else []))
    if wanted:
        found = [rs for number, rs in history if str(number) == wanted]
        if not found:
            raise KubectlError("error: unable to find the specified revision")
        w = Writer()
        write_template(w, found[0]["spec"]["template"])
        return CommandResult(
            stdout=f"{title} with revision #{wanted}\n" + w.text(), identity=meaning
        )
    rows = "REVISION\tCHANGE-CAUSE\n" + "".join(
        f"{number}\t{rs['metadata'].get('annotations', {}).get(CHANGE_CAUSE, '<none>')}\n"
        for number, rs in history
    )
    return CommandResult(stdout=f"{title} \n{align(rows)}\n", identity=meaning)


def rollout_write(store: Store, args: Args) -> CommandResult:
    action = args.verb.partition(" ")[2]
    want = targets(args.args, allow_all=False)
    lines, changes = [], []
    extra: list[str] = []
    # `rollout restart deployment` with no name restarts every one in the namespace (or those
    # the selector picks), as kubectl does; undo, pause and resume still need a name
    every = action == "restart"
    found = resolve_objects(store, args, "patch", want, allow_selector=every, type_alone=every)
    if every and not found:
        raise KubectlError("error: no objects passed to restart")
    for plural, obj in found:
        name = qualified_name(obj)
        if action == "undo":
            line, detail = _undo(store, args, obj)
            # Identity: the revision it resolved to, so `undo` = `undo --to-revision=<previous>`
            resolved = (detail or line).rstrip(")").rpartition(" ")[2]
            extra.append(f"to-revision={resolved}")
        elif action == "restart":
            line, detail = f"{name} restarted", "restartedAt"
            if not args.dry_run:
                annotations = obj["spec"]["template"]["metadata"].setdefault("annotations", {})
                annotations["kubectl.kubernetes.io/restartedAt"] = store.clock.now_stamp()
                if plural != "deployments":
                    for pod in store.owned_by("pods", obj):
                        store.remove("pods", pod["metadata"]["namespace"], pod["metadata"]["name"])
        elif action in ("pause", "resume"):
            paused = action == "pause"
            if bool(obj["spec"].get("paused")) == paused:
                raise KubectlError(f"error: {name} is {'already' if paused else 'not'} paused")
            line, detail = f"{name} {action}d", ""
            if not args.dry_run:
                obj["spec"]["paused"] = paused
        else:
            raise KubectlError(f'error: unknown command "{action}" for "kubectl rollout"')
        lines.append(line)
        if detail is not None:
            changes.append(Change(SYSTEM, f"rollout-{action}", target_of(obj), detail))
    return finish(store, args, lines, changes, *extra)


def _undo(store: Store, args: Args, dep: Obj) -> tuple[str, str | None]:
    history = revisions(store, dep)
    name = f"deployment.apps/{dep['metadata']['name']}"
    current = int(dep["metadata"]["annotations"].get(REVISION, "0"))
    wanted = args.get("to-revision", "0")
    if wanted in ("", "0"):
        older = [pair for pair in history if pair[0] < current]
        if not older:
            raise KubectlError(
                f'error: no rollout history found for deployment "{dep["metadata"]["name"]}"'
            )
        number, rs = older[-1]
    else:
        match = [pair for pair in history if str(pair[0]) == wanted]
        if not match:
            raise KubectlError(f"error: unable to find specified revision {wanted} in history")
        number, rs = match[0]
    if number == current:
        return f"{name} skipped rollback (current template already matches revision {number})", None
    if not args.dry_run:
        template = copy.deepcopy(rs["spec"]["template"])
        template["metadata"]["labels"].pop("pod-template-hash", None)
        dep["spec"]["template"] = template
        rs["metadata"]["annotations"][REVISION] = str(max(n for n, _ in history) + 1)
    return f"{name} rolled back", f"to revision {number}"
