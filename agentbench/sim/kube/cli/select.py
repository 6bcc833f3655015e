"""Label selectors (`-l app=web,tier!=db`, `env in (a,b)`, `!key`) and field selectors
(`--field-selector status.phase=Running,spec.nodeName=worker-4`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from agentbench.sim.kube.cli.parse import KubectlError
from agentbench.sim.kube.objects.resources import ResourceType
from agentbench.sim.kube.objects.store import Obj

Matcher = Callable[[Obj], bool]

_SET = re.compile(r"^\s*([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)\s*$")
_EQ = re.compile(r"^\s*([\w./-]+)\s*(==|!=|=)\s*([\w./-]*)\s*$")
_EXISTS = re.compile(r"^\s*(!?)([\w./-]+)\s*$")


def _split(text: str) -> list[str]:
    """Split on commas outside parentheses."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p for p in parts if p.strip()]


LabelTest = Callable[[dict[str, str]], bool]


def _in(key: str, allowed: set[str], negate: bool) -> LabelTest:
    return lambda labels: (labels.get(key) in allowed) != negate


def _equals(key: str, value: str, negate: bool) -> LabelTest:
    return lambda labels: (labels.get(key) == value) != negate


def _exists(key: str, negate: bool) -> LabelTest:
    return lambda labels: (key in labels) != negate


def label_selector(text: str) -> Matcher:
    """A matcher on an object's labels. Raises KubectlError on a malformed selector."""
    tests: list[LabelTest] = []
    for part in _split(text):
        if found := _SET.match(part):
            key, op, values = found.group(1), found.group(2), found.group(3)
            allowed = {v.strip() for v in values.split(",") if v.strip()}
            tests.append(_in(key, allowed, op == "notin"))
        elif found := _EQ.match(part):
            key, op, value = found.groups()
            tests.append(_equals(key, value, op == "!="))
        elif found := _EXISTS.match(part):
            negate, key = found.groups()
            tests.append(_exists(key, bool(negate)))
        else:
            raise KubectlError(f"error: unable to parse requirement: {_why(part)}")
    return lambda obj: all(t(obj["metadata"].get("labels") or {}) for t in tests)


def _why(part: str) -> str:
    return f"found '{part.strip()[:1] or ','}', expected: identifier"


_FIELDS: dict[str, tuple[str, ...]] = {
    "pods": (
        "spec.nodeName",
        "spec.restartPolicy",
        "spec.schedulerName",
        "spec.serviceAccountName",
        "spec.hostNetwork",
        "status.phase",
        "status.podIP",
        "status.podIPs",
        "status.nominatedNodeName",
    ),
    "events": (
        "involvedObject.kind",
        "involvedObject.namespace",
        "involvedObject.name",
        "involvedObject.uid",
        "involvedObject.apiVersion",
        "involvedObject.resourceVersion",
        "involvedObject.fieldPath",
        "reason",
        "reportingComponent",
        "source",
        "type",
    ),
    "nodes": ("spec.unschedulable",),
    "secrets": ("type",),
    "namespaces": ("status.phase",),
    "replicasets": ("status.replicas",),
    "jobs": ("status.successful",),
}


def _lookup(obj: Obj, path: str) -> str:
    value: object = obj
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if path == "source" and isinstance(obj.get("source"), dict):
        value = obj["source"].get("component")
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _field(key: str, value: str, negate: bool) -> Matcher:
    return lambda obj: (_lookup(obj, key) == value) != negate


def field_selector(text: str, rtype: ResourceType) -> Matcher:
    """A matcher on the fields the API server indexes for this type."""
    allowed = ("metadata.name", "metadata.namespace", *_FIELDS.get(rtype.plural, ()))
    tests: list[Matcher] = []
    for part in _split(text):
        found = _EQ.match(part)
        if not found:
            raise KubectlError(f"error: invalid selector: '{text}'; can't understand '{part}'")
        key, op, value = found.groups()
        if key not in allowed:
            raise KubectlError(
                f'Error from server (BadRequest): Unable to find "/{rtype.api_version}, '
                f'Resource={rtype.plural}" that match label selector "", field selector '
                f'"{text}": field label not supported: {key}'
            )
        tests.append(_field(key, value, op == "!="))
    return lambda obj: all(t(obj) for t in tests)
