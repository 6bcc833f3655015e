"""Resource arguments: `TYPE NAME...`, `TYPE/NAME...`, `TYPE1,TYPE2`, `all`."""

from __future__ import annotations

from dataclasses import dataclass

from agentbench.sim.kube.cli.parse import KubectlError
from agentbench.sim.kube.objects.resources import ALL, ResourceType, resolve


@dataclass
class Target:
    """One resource type and the names asked for (empty: all of them)."""

    rtype: ResourceType
    names: list[str]


def unknown_type(name: str) -> KubectlError:
    return KubectlError(f'error: the server doesn\'t have a resource type "{name}"')


def resource_type(name: str) -> ResourceType:
    found = resolve(name)
    if found is None:
        raise unknown_type(name)
    return found


def targets(args: list[str], allow_all: bool = True) -> list[Target]:
    """`pods`, `pods a b`, `pod/a deploy/b`, `po,svc`, `all` as (type, names) pairs."""
    if not args:
        return []
    if "/" in args[0]:
        found: list[Target] = []
        for arg in args:
            kind, slash, name = arg.partition("/")
            if not slash:
                raise KubectlError(
                    "error: there is no need to specify a resource type as a separate argument "
                    "when passing arguments in resource/name form (e.g. 'kubectl get "
                    "resource/<resource_name>' instead of 'kubectl get resource "
                    "resource/<resource_name>'"
                )
            rtype = resource_type(kind)
            for t in found:
                if t.rtype == rtype:
                    t.names.append(name)
                    break
            else:
                found.append(Target(rtype, [name]))
        return found
    kinds: list[ResourceType] = []
    for kind in args[0].split(","):
        if kind == "all" and allow_all:
            kinds.extend(resource_type(k) for k in ALL)
        elif kind:
            kinds.append(resource_type(kind))
    names = args[1:]
    if names and len(kinds) > 1:
        raise KubectlError("error: you must specify only one resource")
    return [Target(k, list(names)) for k in kinds]
