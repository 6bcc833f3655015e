"""What `terraform plan` would do with a declared state, and its text as terraform prints it.

Each resource's change is worked out from its state and its `planned` attributes (spec.py):
no-op, update in place, replace (a `forces_replacement` attribute changes; the `computed`
attributes and `id` become unknown), create or destroy. The renderer follows terraform's
human plan: attributes in name order aligned on `=`, unchanged ones hidden behind a count
except `id` and `name`, maps diffed key by key, `# forces replacement` on the attribute that
forces it, then `Plan: A to add, C to change, D to destroy.` and the outputs that change.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from agentbench.sim.terraform.spec import Resource, TerraformSpec


class _Unknown:
    def __repr__(self) -> str:
        return "(known after apply)"


UNKNOWN: Any = _Unknown()
SHOWN = ("id", "name")  # identifying attributes terraform shows even when unchanged
RULE = "─" * 77


@dataclass
class Change:
    """One resource's planned change."""

    resource: Resource
    action: str  # no-op, update, replace, create, delete
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    forced: set[str] = field(default_factory=set)


def state_of(res: Resource, spec: TerraformSpec) -> dict[str, Any]:
    """The resource's attributes as the state holds them (tags_all: default_tags + tags)."""
    attrs: dict[str, Any] = {"id": res.id, **copy.deepcopy(res.attributes)}
    if res.tags is not None:
        attrs["tags"] = dict(res.tags)
        attrs["tags_all"] = {**spec.default_tags, **res.tags}
    return attrs


def change_of(res: Resource, spec: TerraformSpec) -> Change:
    before = state_of(res, spec)
    after = copy.deepcopy(before)
    for key, value in res.planned.items():
        if isinstance(value, dict) and isinstance(before.get(key), dict):
            merged = dict(before[key])
            for k, v in value.items():
                if v is None:
                    merged.pop(k, None)
                else:
                    merged[k] = v
            after[key] = merged
        else:
            after[key] = value
    if "tags" in res.planned and isinstance(after.get("tags"), dict):
        after["tags_all"] = {**spec.default_tags, **after["tags"]}
    if res.create:
        after.update({name: UNKNOWN for name in ("id", *res.computed)})
        return Change(res, "create", None, after)
    if res.destroy:
        return Change(res, "delete", before, None)
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    forced = changed & set(res.forces_replacement)
    if forced:
        after.update({name: UNKNOWN for name in ("id", *res.computed)})
        return Change(res, "replace", before, after, forced)
    return Change(res, "update" if changed else "no-op", before, after)


def value(v: Any) -> str:
    if v is UNKNOWN:
        return "(known after apply)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))


def _map_lines(key: str, width: int, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    keys = sorted(old.keys() | new.keys())
    changed = [k for k in keys if old.get(k) != new.get(k)]
    pad = max((len(json.dumps(k)) for k in changed), default=0)
    lines = [f"      ~ {key:<{width}} = {{"]
    for k in changed:
        name = f"{json.dumps(k):<{pad}}"
        if k not in old:
            lines.append(f"          + {name} = {value(new[k])}")
        elif k not in new:
            lines.append(f"          - {name} = {value(old[k])} -> null")
        else:
            lines.append(f"          ~ {name} = {value(old[k])} -> {value(new[k])}")
    hidden = len(keys) - len(changed)
    if hidden:
        plural = "s" if hidden != 1 else ""
        lines.append(f"            # ({hidden} unchanged element{plural} hidden)")
    return [*lines, "        }"]


def _attribute_lines(c: Change) -> list[str]:
    before, after = c.before or {}, c.after or {}
    keys = sorted(before.keys() | after.keys())
    width = max((len(k) for k in keys), default=0)
    lines: list[str] = []
    hidden = 0
    for key in keys:
        old, new = before.get(key), after.get(key)
        if c.action == "create":
            lines.append(f"      + {key:<{width}} = {value(new)}")
        elif c.action == "delete":
            lines.append(f"      - {key:<{width}} = {value(old)} -> null")
        elif old == new and new is not UNKNOWN:
            if key in SHOWN:
                lines.append(f"        {key:<{width}} = {value(old)}")
            else:
                hidden += 1
        elif key not in before:
            lines.append(f"      + {key:<{width}} = {value(new)}")
        elif isinstance(old, dict) and isinstance(new, dict):
            lines += _map_lines(key, width, old, new)
        else:
            forces = " # forces replacement" if key in c.forced else ""
            new_text = "null" if key not in after else value(new)
            lines.append(f"      ~ {key:<{width}} = {value(old)} -> {new_text}{forces}")
    if hidden:
        lines.append(f"        # ({hidden} unchanged attribute{'s' if hidden != 1 else ''} hidden)")
    return lines


HEADERS = {
    "create": ("will be created", "  +"),
    "update": ("will be updated in-place", "  ~"),
    "delete": ("will be destroyed", "  -"),
    "replace": ("must be replaced", "-/+"),
}
LEGEND = {
    "create": "  + create",
    "update": "  ~ update in-place",
    "delete": "  - destroy",
    "replace": "-/+ destroy and then create replacement",
}


def render_change(c: Change) -> list[str]:
    what, symbol = HEADERS[c.action]
    res = c.resource
    return [
        f"  # {res.address} {what}",
        f'{symbol} resource "{res.type}" "{res.name}" {{',
        *_attribute_lines(c),
        "    }",
        "",
    ]


def output_changes(spec: TerraformSpec, changes: dict[str, Change]) -> list[tuple[str, Any, Any]]:
    """(name, before, after) of each output whose value the plan changes."""
    out = []
    for o in spec.outputs:
        before, after = o.value, o.value
        if o.from_:
            address, _, attr = o.from_.rpartition(".")
            c = changes.get(address)
            if c is not None:
                before = (c.before or {}).get(attr)
                after = (c.after or {}).get(attr) if c.after is not None else None
        if before != after or after is UNKNOWN:
            out.append((o.name, before, after))
    return out


def render_plan(spec: TerraformSpec, refresh: bool = True) -> tuple[str, bool]:
    """The plan's text and whether it changes anything."""
    lines: list[str] = []
    if refresh:
        for d in spec.data:
            lines.append(f"{d.address}: Reading...")
        for d in spec.data:
            lines.append(f"{d.address}: Read complete after 0s [id={d.id}]")
        for r in spec.resources:
            if not r.create:
                lines.append(f"{r.address}: Refreshing state... [id={r.id}]")
        lines.append("")
    changes = {r.address: change_of(r, spec) for r in spec.resources}
    acting = [c for c in changes.values() if c.action != "no-op"]
    outputs = output_changes(spec, changes)
    if not acting and not outputs:
        lines += [
            "No changes. Your infrastructure matches the configuration.",
            "",
            "Terraform has compared your real infrastructure against your configuration and found",
            "no differences, so no changes are needed.",
        ]
        return "\n".join(lines) + "\n", False
    actions = {c.action for c in acting}
    lines += [
        "Terraform used the selected providers to generate the following execution",
        "plan. Resource actions are indicated with the following symbols:",
        *(LEGEND[a] for a in LEGEND if a in actions),
        "",
        "Terraform will perform the following actions:",
        "",
    ]
    for c in sorted(acting, key=lambda c: c.resource.address):
        lines += render_change(c)
    add = sum(c.action in ("create", "replace") for c in acting)
    change = sum(c.action == "update" for c in acting)
    destroy = sum(c.action in ("delete", "replace") for c in acting)
    lines.append(f"Plan: {add} to add, {change} to change, {destroy} to destroy.")
    if outputs:
        width = max(len(name) for name, _, _ in outputs)
        lines += ["", "Changes to Outputs:"]
        for name, before, after in outputs:
            lines.append(f"  ~ {name:<{width}} = {value(before)} -> {value(after)}")
    lines += [
        "",
        RULE,
        "",
        "Note: You didn't use the -out option to save this plan, so Terraform can't",
        'guarantee to take exactly these actions if you run "terraform apply" now.',
    ]
    return "\n".join(lines) + "\n", True
