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


# --- inside sim: its folders' layers, and no import cycle among its modules ---

SIM = ROOT / "agentbench" / "sim"

# Modules allowed an import cycle for now, with why; each must still be in one.
KNOWN_SIM_CYCLES = {
    "agentbench.sim.core.system": "holds the host state and the program registry, so it imports "
    "host/ and files/ inside functions; the registry split (issue 22, part 2) removes it",
}
# Modules allowed to cross sim's layering for now (the same module, for the same reason).
KNOWN_SIM_EXCEPTIONS = dict(KNOWN_SIM_CYCLES)


def _type_only(tree: ast.Module) -> set[int]:
    """Nodes under `if TYPE_CHECKING:`: imports for annotations, never run."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return hidden


def sim_graph() -> dict[str, set[str]]:
    """Sim module -> the sim modules it imports when it runs (function-level imports included,
    type-only ones not); `from pkg import module` counts as importing the module."""
    paths = {module_name(p): p for p in sorted(SIM.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text(), str(path))
        hidden = _type_only(tree)
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in hidden:
                continue
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    sub = f"{node.module}.{a.name}"
                    found.add(sub if sub in paths else node.module)
        graph[module] = {m for m in found if m in paths and m != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_cycles_finds_a_cycle_and_ignores_a_chain() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_import_cycle_among_sim_modules_but_the_known_one() -> None:
    graph = sim_graph()
    for known in KNOWN_SIM_CYCLES:
        assert any(known in c for c in cycles(graph)), f"{known} is in no cycle: drop it"
    without = {m: deps - set(KNOWN_SIM_CYCLES) for m, deps in graph.items()}
    for known in KNOWN_SIM_CYCLES:
        without.pop(known)
    found = ["  " + " <-> ".join(sorted(c)) for c in cycles(without)]
    assert not found, "import cycles among sim modules:\n" + "\n".join(found)


def sim_unit(module: str) -> str:
    """`agentbench.sim.text.jq.lex` -> `text`; `agentbench.sim.kube.cli.parse` -> `kube.cli`;
    `agentbench.sim.kube.program` -> `kube`; `agentbench.sim.world` -> `sim`."""
    parts = module.split(".")[2:]
    if not parts or (len(parts) == 1 and not (SIM / parts[0]).is_dir()):
        return "sim"
    if parts[0] == "kube" and len(parts) > 2:
        return f"kube.{parts[1]}"
    return parts[0]


def documented_sim_layers() -> dict[str, set[str] | None]:
    """Folder -> the folders it may import (None: any), from the ```sim-layers block."""
    out: dict[str, set[str] | None] = {}
    for line in _block(DESIGN.read_text(), "```sim-layers\n").splitlines():
        if line.strip():
            name, _, deps = line.partition(":")
            out[name.strip()] = None if deps.split() == ["*"] else set(deps.split())
    return out


def test_every_sim_folder_is_placed_in_the_documented_layering() -> None:
    units = {sim_unit(m) for m in sim_graph()}
    assert units == set(documented_sim_layers()), "docs/design.md's sim-layers lists other folders"


def test_sim_imports_follow_the_documented_layering() -> None:
    layers = documented_sim_layers()
    wrong = []
    for module, deps in sim_graph().items():
        own = sim_unit(module)
        allowed = layers[own]
        extra = {u for d in deps if (u := sim_unit(d)) != own}
        extra -= extra if allowed is None else allowed
        if module in KNOWN_SIM_EXCEPTIONS:
            assert extra, f"{module} no longer crosses sim's layering: drop it from the exceptions"
            continue
        wrong += [f"{module} imports {u}" for u in sorted(extra)]
    assert not wrong, "imports outside docs/design.md's sim-layers:\n" + "\n".join(wrong)


def test_the_sim_layers_are_an_order() -> None:
    """Each folder may import only folders listed before it, so the table is a layer order."""
    layers = documented_sim_layers()
    seen: set[str] = set()
    for name, deps in layers.items():
        assert deps is None or deps <= seen, f"{name} imports a folder listed after it"
        seen.add(name)
    assert layers["core"] == set() and layers["sim"] is None


def test_loading_the_cluster_format_loads_no_kubectl_runtime() -> None:
    """kube/schema (the task file's `cluster:`) is read without building clusters: a fresh
    interpreter importing it has loaded no kubectl module outside kube/schema."""
    import subprocess
    import sys

    code = (
        "import sys, agentbench.sim.kube.schema.model\n"
        "print(' '.join(m for m in sys.modules if m.startswith('agentbench.sim.kube.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.split()
    assert loaded and all(m.startswith("agentbench.sim.kube.schema") for m in loaded), loaded
