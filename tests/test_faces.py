"""Packages are used through their faces: no module imports another package's private module
(`router._registry`, `agentbench.x._y`). A name callers need is exported by the package."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _package_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:2]) if parts[0] == "agentbench" else parts[0]


def test_no_module_imports_a_private_module_of_another_package() -> None:
    offenders = []
    for folder in ("agentbench", "router", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            mine = _package_of(path)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                for name in names:
                    parts = name.split(".")
                    private = next((i for i, p in enumerate(parts) if p.startswith("_")), None)
                    if private is None or parts[0] not in ("agentbench", "router"):
                        continue
                    owner = ".".join(parts[:private])
                    if not mine.startswith(owner):
                        offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders, "\n".join(offenders)
