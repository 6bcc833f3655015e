"""How `kubectl get` prints objects: tables (aligned like Go's tabwriter), `-o wide`, `name`,
`json`, `yaml`, `jsonpath=`, `custom-columns=`, with `--show-labels`, `-L`, `--no-headers`."""

from __future__ import annotations

import json
from typing import Any

import yaml

from agentbench.sim.kube.cli.parse import Args, KubectlError
from agentbench.sim.kube.objects.resources import ResourceType, by_kind
from agentbench.sim.kube.objects.store import Obj, Store
from agentbench.sim.kube.printers import jsonpath
from agentbench.sim.kube.printers.columns import columns
from agentbench.sim.kube.printers.tabwriter import align


def tabulate(rows: list[list[str]]) -> str:
    """kubectl's table writer: minimum cell width 6, padding 3."""
    if not rows:
        return ""
    text = align("\n".join("\t".join(row) for row in rows), min_width=6, padding=3)
    return "\n".join(line.rstrip() for line in text.split("\n")) + "\n"


def qualified_name(obj: Obj) -> str:
    """`pod/x`, `deployment.apps/x`: what `-o name` and write verbs print."""
    return f"{by_kind(obj['kind']).qualified}/{obj['metadata']['name']}"


def as_list(items: list[Obj]) -> Obj:
    return {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}


def to_json(value: Any) -> str:
    return json.dumps(value, indent=4, sort_keys=True) + "\n"


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # As kubectl (go-yaml) prints: multi-line strings as blocks; strings that would read as
    # another type ("True", "1041", timestamps) or are empty in double quotes.
    if "\n" in value:
        style: str | None = "|"
    elif not value or dumper.resolve(yaml.ScalarNode, value, (True, False)) != _STR:
        style = '"'
    else:
        style = None
    return dumper.represent_scalar(_STR, value, style=style)


_STR = "tag:yaml.org,2002:str"
_Dumper.add_representer(str, _str)


def to_yaml(value: Any) -> str:
    return yaml.dump(
        value,
        Dumper=_Dumper,
        default_flow_style=False,
        sort_keys=True,
        width=1_000_000,
        allow_unicode=True,
    )


def output_format(args: Args) -> tuple[str, str]:
    """(format, argument): ("table", ""), ("wide", ""), ("jsonpath", "{.x}"), ..."""
    raw = args.get("output")
    if not raw:
        return "table", ""
    kind, _, rest = raw.partition("=")
    if kind in ("wide", "name", "json", "yaml") and not rest:
        return kind, ""
    if kind in ("jsonpath", "custom-columns", "jsonpath-as-json") and rest:
        return kind, rest
    if kind in (
        "go-template",
        "template",
        "go-template-file",
        "jsonpath-file",
        "custom-columns-file",
    ):
        raise KubectlError(
            f"error: output format {kind!r} is not supported here; use -o jsonpath=... or -o json"
        )
    raise KubectlError(
        f'error: unable to match a printer suitable for the output format "{raw}", allowed '
        "formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,"
        "jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml"
    )


def sort_objects(items: list[Obj], expression: str) -> list[Obj]:
    """`--sort-by=.lastTimestamp` (or `{.metadata.name}`); objects without the field first."""
    path = expression.strip()
    if path.startswith("{") and path.endswith("}"):
        path = path[1:-1]

    def key(obj: Obj) -> tuple[int, Any]:
        found = jsonpath.evaluate(path, obj)
        if not found or found[0] is None:
            return (0, "")
        value = found[0]
        return (1, value) if isinstance(value, (int, float)) else (2, jsonpath.text_of(value))

    return sorted(items, key=key)


def table(
    store: Store, rtype: ResourceType, items: list[Obj], args: Args, wide: bool, with_kind: bool
) -> str:
    headers, wide_headers, row, wide_row = columns(rtype.plural, store)
    if wide:
        headers = headers + wide_headers
    label_columns = [k for k in args.get("label-columns").split(",") if k]
    headers = headers + [k.rsplit("/", 1)[-1].upper() for k in label_columns]
    show_labels = args.has("show-labels")
    if show_labels:
        headers = [*headers, "LABELS"]
    many_namespaces = args.all_namespaces and rtype.namespaced
    if many_namespaces:
        headers = ["NAMESPACE", *headers]
    rows = [] if args.has("no-headers") else [headers]
    for obj in items:
        cells = row(obj) + (wide_row(obj) if wide else [])
        if with_kind and rtype.plural != "events":
            cells[0] = f"{rtype.qualified}/{cells[0]}"
        labels = obj["metadata"].get("labels") or {}
        cells += [labels.get(k, "") for k in label_columns]
        if show_labels:
            cells.append(",".join(f"{k}={v}" for k, v in sorted(labels.items())) or "<none>")
        if many_namespaces:
            cells = [obj["metadata"].get("namespace", ""), *cells]
        rows.append(cells)
    return tabulate(rows)


def custom_columns(spec: str, items: list[Obj], no_headers: bool) -> str:
    pairs = []
    for part in spec.split(","):
        header, colon, path = part.partition(":")
        if not colon:
            raise KubectlError(
                f'error: custom-columns format specified, but no custom columns given: "{spec}"'
                if not spec
                else f"error: unexpected custom-columns spec: {part}, expected "
                "<header>:<json-path-expr>"
            )
        pairs.append((header, path.strip().removeprefix("{").removesuffix("}")))
    rows = [] if no_headers else [[h for h, _ in pairs]]
    for obj in items:
        cells = []
        for _, path in pairs:
            found = jsonpath.evaluate(path, obj)
            cells.append(",".join(jsonpath.text_of(v) for v in found) if found else "<none>")
        rows.append(cells)
    return tabulate(rows)


def structured(kind: str, argument: str, value: Obj, items: list[Obj]) -> str:
    """json / yaml / jsonpath / name output of one object (`value`) or a List."""
    if kind == "json":
        return to_json(value)
    if kind == "yaml":
        return to_yaml(value)
    if kind == "name":
        return "".join(qualified_name(o) + "\n" for o in items)
    if kind == "jsonpath-as-json":
        return to_json(jsonpath.evaluate(argument.strip("{}"), value))
    return jsonpath.render(argument, value)
