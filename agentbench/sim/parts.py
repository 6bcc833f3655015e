"""The live parts of one episode's environment, built from its declared fields.

`PARTS` says which live state each field of `WorldSpec` (sim/environment.py) becomes: the parts
programs name in `needs` (sim/core/registry.py). A part is *declared* when one of its fields is.
Two parts exist even when undeclared, because a tool answers without them as a real host would:
`sql` (no server listens: `NoServer`) and `http` (no routes: no host resolves).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentbench.sim.core.fs import FileSystem
from agentbench.sim.core.spec import SystemSpec
from agentbench.sim.core.system import SystemState
from agentbench.sim.environment import WorldSpec
from agentbench.sim.http.routes import Routes
from agentbench.sim.kube.program import build_kubectl
from agentbench.sim.sql.database import Database
from agentbench.sim.sql.psql import NoServer

Built = dict[str, object]


@dataclass(frozen=True)
class Part:
    """One part of the live environment: its name (what programs need), the fields that
    declare it, and how it is built (from the spec and the parts built before it)."""

    name: str
    fields: tuple[str, ...]
    build: Callable[[WorldSpec, Built], object]


def _system_spec(spec: WorldSpec) -> SystemSpec:
    return spec.system or SystemSpec()


def _fs(spec: WorldSpec, built: Built) -> FileSystem:
    fs = FileSystem(spec.files, _system_spec(spec))
    for disk in _system_spec(spec).disks:
        fs.mkdirs(disk.mount)
    return fs


def _system(spec: WorldSpec, built: Built) -> SystemState:
    fs = built["fs"]
    assert isinstance(fs, FileSystem)
    return SystemState(_system_spec(spec), fs)


def _cluster(spec: WorldSpec, built: Built) -> Any:
    assert spec.cluster is not None
    fs = built.get("fs")
    read = (lambda p: fs.read(p, "root")[0]) if isinstance(fs, FileSystem) else None
    return build_kubectl(spec.cluster, read)


def _sql(spec: WorldSpec, built: Built) -> Database | NoServer:
    return Database(spec.sql) if spec.sql is not None else NoServer()


def _http(spec: WorldSpec, built: Built) -> Routes:
    return Routes(spec.http)


PARTS: tuple[Part, ...] = (
    Part("fs", ("files", "system"), _fs),
    Part("system", ("files", "system"), _system),
    Part("cluster", ("cluster",), _cluster),
    Part("sql", ("sql",), _sql),
    Part("http", ("http",), _http),
    Part("terraform", ("terraform",), lambda spec, built: spec.terraform),
)
ALWAYS = frozenset({"sql", "http"})  # built even when undeclared (see the module docstring)


def build_parts(spec: WorldSpec) -> tuple[Built, frozenset[str]]:
    """The live parts of one episode, and the names of those the spec declares."""
    built: Built = {}
    declared: set[str] = set()
    for part in PARTS:
        if any(getattr(spec, name) for name in part.fields):
            declared.add(part.name)
        elif part.name not in ALWAYS:
            continue
        built[part.name] = part.build(spec, built)
    return built, frozenset(declared)
