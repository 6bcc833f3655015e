"""Print what an agent sees of a task — prompt, tools, environment — and none of its checks.

    python benchmarks/adversarial/show.py TASK_ID [TASK_ID ...]
    python benchmarks/adversarial/show.py --list

The blind authors of this set work from this view only: `expect:`, `reference:`, `alternates:`
and `wrong:` are left out, so the cases they write test the checks instead of repeating them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tasks"
HIDDEN = ("expect", "reference", "alternates", "wrong", "rules")


def task_files() -> dict[str, Path]:
    out = {}
    for path in sorted(TASKS.glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "id" in data:
            out[data["id"]] = path
    return out


def blind_view(path: Path) -> str:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
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
    if not argv or argv == ["--list"]:
        for tid, path in files.items():
            print(f"{tid}\t{path.parent.name}")
        return 0
    for tid in argv:
        if tid not in files:
            print(f"show: no task {tid!r} (see --list)", file=sys.stderr)
            return 2
        print(f"# {tid}\n{blind_view(files[tid])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
