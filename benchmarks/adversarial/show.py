"""Print what an agent sees of a task — prompt, tools, environment — and none of its checks.

    python benchmarks/adversarial/show.py TASK_ID [TASK_ID ...]
    python benchmarks/adversarial/show.py --list

A generated variant of the full tier (`crashloop-cause-03`, see tasks/README.md) is
shown the same way, drawn with task seed 1.

The blind authors of this set work from this view only: `expect:`, `reference:`, `alternates:`
and `wrong:` are left out, so the cases they write test the checks instead of repeating them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agentbench.tasks.families.tier import load_tier  # noqa: E402

TASKS = ROOT / "tasks"
HIDDEN = ("expect", "reference", "alternates", "wrong", "rules")


def task_files() -> dict[str, Path]:
    out = {}
    for path in sorted(TASKS.glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "id" in data:
            out[data["id"]] = path
    return out


def variants() -> dict[str, dict]:
    """The full tier's generated variants (task seed 1), as the data of a task file."""
    tier = load_tier(TASKS, "full")
    return {
        t.id: t.model_dump(mode="json", exclude_defaults=True)
        for t in tier.tasks
        if t.id in tier.generated
    }


def blind_view(data: dict) -> str:
    for key in HIDDEN:
        data.pop(key, None)
    env = data.get("environment")
    if isinstance(env, dict):
        env.pop("rules", None)
    tools = []
    for name in data.get("tools", []):
        spec = yaml.safe_load((TASKS / "tools" / f"{name}.yaml").read_text(encoding="utf-8"))
        tools.append({k: spec[k] for k in ("name", "description", "parameters") if k in spec})
    data["tool_schemas"] = tools
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def main(argv: list[str]) -> int:
    files = task_files()
    drawn = variants()
    if not argv or argv == ["--list"]:
        for tid, path in files.items():
            print(f"{tid}\t{path.parent.name}")
        for tid, data in drawn.items():
            print(f"{tid}\t{data['category']} (generated)")
        return 0
    for tid in argv:
        if tid in files:
            data = yaml.safe_load(files[tid].read_text(encoding="utf-8"))
        elif tid in drawn:
            data = drawn[tid]
        else:
            print(f"show: no task {tid!r} (see --list)", file=sys.stderr)
            return 2
        print(f"# {tid}\n{blind_view(data)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
