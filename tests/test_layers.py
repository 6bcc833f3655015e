"""The import graph against the layering that docs/design.md documents (table and picture)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs" / "design.md"

# Modules allowed to cross the layering for now, with why; each must still cross it (so that the
# entry goes when the module moves).
KNOWN_EXCEPTIONS = {
    "agentbench.tasks.validate": "runs the agent loop and scorers; moves up a layer (issue 11)",
}


def _block(text: str, opening: str) -> str:
    start = text.index(opening) + len(opening)
    return text[start : text.index("```", start)]


def documented_imports() -> dict[str, set[str] | None]:
    """Package -> the packages it may import (None: any), from the ```layers block."""
    out: dict[str, set[str] | None] = {}
    for line in _block(DESIGN.read_text(), "```layers\n").splitlines():
        if not line.strip():
            continue
        name, _, deps = line.partition(":")
        deps = re.sub(r"\(.*?\)", "", deps).split()
        out[name.strip()] = None if deps == ["*"] else set(deps)
    return out


def documented_rows(names: set[str]) -> list[set[str]]:
    """The picture's rows, top first, as the package names each row holds."""
    text = DESIGN.read_text()
    text = text[text.index("As a picture") :]
    picture = _block(text, "```\n")
    rows = []
    for line in picture.splitlines():
        if line.startswith("│"):
            rows.append({w for w in re.findall(r"[a-z]+", line) if w in names})
    return rows


def unit_of(module: str) -> str | None:
    """`agentbench.metrics.summary` -> `metrics`; `agentbench.runner` -> `runner`."""
    parts = module.split(".")
    if parts[0] == "router":
        return "router"
    if parts[0] != "agentbench":
        return None
    return parts[1] if len(parts) > 1 else "agentbench"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def actual_imports() -> dict[str, set[str]]:
    """Module -> the other packages (units) it imports, function-level imports included."""
    out: dict[str, set[str]] = {}
    for path in sorted([*ROOT.glob("agentbench/**/*.py"), *ROOT.glob("router/**/*.py")]):
        module = module_name(path)
        own = unit_of(module)
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            found |= {u for n in names if (u := unit_of(n)) is not None and u != own}
        out[module] = found
    return out


def test_every_package_is_placed_in_the_documented_layering() -> None:
    documented = documented_imports()
    units = {unit_of(m) for m in actual_imports()}
    assert units == set(documented), "docs/design.md#packages-and-layers lists other packages"


def test_imports_follow_the_documented_layering() -> None:
    documented = documented_imports()
    wrong = []
    for module, deps in actual_imports().items():
        allowed = documented[unit_of(module) or ""]
        extra = set() if allowed is None else deps - allowed
        if module in KNOWN_EXCEPTIONS:
            assert extra, f"{module} no longer crosses the layering: drop it from the exceptions"
            continue
        wrong += [f"{module} imports {d}" for d in sorted(extra)]
    assert not wrong, "imports outside docs/design.md#packages-and-layers:\n" + "\n".join(wrong)


def test_router_never_imports_agentbench() -> None:
    assert documented_imports()["router"] == set()
    routers = {m: d for m, d in actual_imports().items() if m.split(".")[0] == "router"}
    assert routers and not any(routers.values())


def test_the_picture_agrees_with_the_table() -> None:
    documented = documented_imports()
    rows = documented_rows(set(documented))
    placed = [name for row in rows for name in row]
    assert sorted(placed) == sorted(documented), "each package in exactly one row of the picture"
    row_of = {name: i for i, row in enumerate(rows) for name in row}
    upward = [
        f"{a} -> {b}"
        for a, deps in documented.items()
        for b in deps or ()
        if row_of[b] <= row_of[a]
    ]
    assert not upward, "the picture puts these imports sideways or upward: " + ", ".join(upward)
