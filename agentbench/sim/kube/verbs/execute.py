"""`kubectl exec POD [-c C] -- CMD`: the few commands whose answer the declared state holds.

Inside a container, `cat`, `ls`, `head`, `env` and `printenv` read what the pod spec puts
there: files of mounted ConfigMaps and Secrets (keys as files under the mount path, Secret
values as their stand-ins), files declared on the container (`files:`), and the environment
(literal values, ConfigMap keys, Kubernetes service variables). Anything else is not simulated
and says so (an off-script call); nothing runs on the host.
"""

from __future__ import annotations

import base64

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.verbs.logs import pod_for

_READERS = {"cat", "ls", "head", "env", "printenv"}


def _files(store: Store, pod: Obj, container: Obj) -> dict[str, str]:
    ns = pod["metadata"]["namespace"]
    dns = store.get("services", "kube-system", "kube-dns")
    out = {
        "/etc/hostname": pod["metadata"]["name"] + "\n",
        "/etc/resolv.conf": f"search {ns}.svc.cluster.local svc.cluster.local cluster.local\n"
        f"nameserver {dns['spec']['clusterIP'] if dns else '10.96.0.10'}\noptions ndots:5\n",
    }
    out.update(store.image_files.get((ns, container["name"], container["image"]), {}))
    out.update(store.files.get((ns, pod["metadata"]["name"], container["name"]), {}))
    volumes = {v["name"]: v for v in pod["spec"].get("volumes", [])}
    for mount in container.get("volumeMounts", []):
        volume = volumes.get(mount["name"], {})
        source = None
        if "configMap" in volume:
            source = store.get("configmaps", ns, volume["configMap"]["name"])
        elif "secret" in volume:
            source = store.get("secrets", ns, volume["secret"]["secretName"])
        if source is None:
            continue
        for key, value in source.get("data", {}).items():
            if source["kind"] == "Secret":
                value = base64.b64decode(value).decode()
            out[f"{mount['mountPath'].rstrip('/')}/{key}"] = value
    return out


def _environment(store: Store, pod: Obj, container: Obj) -> list[str]:
    ns = pod["metadata"]["namespace"]
    lines = [
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        f"HOSTNAME={pod['metadata']['name']}",
    ]
    for e in container.get("env", []):
        ref = e.get("valueFrom", {})
        if "configMapKeyRef" in ref:
            cm = store.get("configmaps", ns, ref["configMapKeyRef"]["name"]) or {}
            lines.append(f"{e['name']}={cm.get('data', {}).get(ref['configMapKeyRef']['key'], '')}")
        elif "secretKeyRef" in ref:
            lines.append(f"{e['name']}=<{ref['secretKeyRef']['key']}>")
        else:
            lines.append(f"{e['name']}={e.get('value', '')}")
    lines += ["KUBERNETES_SERVICE_HOST=10.96.0.1", "KUBERNETES_SERVICE_PORT=443", "HOME=/root"]
    return lines


def _run(command: list[str], files: dict[str, str], env: list[str]) -> tuple[str, str, int]:
    name, args = command[0].rsplit("/", 1)[-1], command[1:]
    if name in ("env", "printenv"):
        if args:
            found = [line.partition("=")[2] for line in env if line.partition("=")[0] == args[0]]
            return ("".join(f"{v}\n" for v in found), "", 0 if found else 1)
        return ("".join(f"{line}\n" for line in env), "", 0)
    paths = [a for a in args if not a.startswith("-")]
    if name == "ls":
        folder = (paths or ["/"])[0].rstrip("/")
        names = sorted(
            {p[len(folder) + 1 :].split("/")[0] for p in files if p.startswith(folder + "/")}
        )
        if not names:
            return ("", f"ls: cannot access '{folder}': No such file or directory\n", 2)
        return ("".join(f"{n}\n" for n in names), "", 0)
    out, err, code = "", "", 0
    for path in paths:
        if path in files:
            text = files[path]
            if name == "head":
                text = "".join(text.splitlines(keepends=True)[:10])
            out += text if text.endswith("\n") or not text else text + "\n"
        else:
            err += f"{name}: {path}: No such file or directory\n"
            code = 1
    return out, err, code


def execute(store: Store, args: Args) -> CommandResult:
    if not args.args:
        raise KubectlError("error: pod, type/name or --filename must be specified")
    if not args.extra:
        raise KubectlError("error: you must specify at least one command for the container")
    pod, _ = pod_for(store, args, args.args[0])
    containers = {c["name"]: c for c in pod["spec"]["containers"]}
    name = args.get("container") or pod["spec"]["containers"][0]["name"]
    if name not in containers:
        raise KubectlError(
            f"error: unable to upgrade connection: container {name} not found "
            f"in pod {pod['metadata']['name']}"
        )
    meaning = (
        "kubectl",
        "exec",
        "pods",
        args.namespace(),
        pod["metadata"]["name"],
        name,
        *args.extra,
    )
    status = {s["name"]: s for s in pod["status"].get("containerStatuses", [])}.get(name, {})
    if "running" not in status.get("state", {}):
        raise KubectlError(f'error: unable to upgrade connection: container not found ("{name}")')
    if args.extra[0].rsplit("/", 1)[-1] not in _READERS:
        raise NotSimulated(f"kubectl exec … {args.extra[0]}", meaning)
    container = containers[name]
    out, err, code = _run(
        args.extra, _files(store, pod, container), _environment(store, pod, container)
    )
    if code:
        err += f"command terminated with exit code {code}\n"
    return CommandResult(stdout=out, stderr=err, exit_code=code, identity=meaning)
