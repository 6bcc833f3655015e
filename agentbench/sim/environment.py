"""The simulated environment of a task, declared once: its fields and the parts built from them.

`WorldSpec` is the list of simulator fields a task's `environment:` may declare (`cluster`,
`files`, `system`, `sql`, `http`, `terraform`); the task format (tasks/model.py `Environment`)
extends it with rules, so a new field is added here and nowhere else. `PARTS` says which live
state each field becomes for one episode: the parts programs name in `needs`
(sim/core/registry.py).

A part is *declared* when one of its fields is. Two parts exist even when undeclared, because a
tool answers without them as a real host would: `sql` (no server listens: `NoServer`) and `http`
(no routes: no host resolves).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agentbench.sim.core.fs import FileSystem
from agentbench.sim.core.spec import FileSpec, HttpRoute, SqlSpec, SystemSpec
from agentbench.sim.core.system import SystemState
from agentbench.sim.http.routes import Routes
from agentbench.sim.kube import Cluster, build_kubectl
from agentbench.sim.sql.database import Database
from agentbench.sim.sql.psql import NoServer
from agentbench.sim.terraform.spec import TerraformSpec


class WorldSpec(BaseModel):
    """The declared simulator state of a task's `environment` (formats: sim/core/spec.py,
    sim/kube/schema, tasks/README.md)."""

    model_config = ConfigDict(extra="forbid")

    cluster: Cluster | None = Field(
        default=None, description="A Kubernetes cluster for kubectl (agentbench/sim/kube)."
    )
    files: dict[str, str | FileSpec] = Field(
        default_factory=dict, description="Path -> content or FileSpec; directories implied."
    )
    system: SystemSpec | None = Field(default=None, description="Host, services, journal.")
    sql: SqlSpec | None = Field(default=None, description="Tables for sql_query and psql.")
    http: list[HttpRoute] = Field(default_factory=list, description="Routes for http_get, curl.")
    terraform: TerraformSpec | None = Field(
        default=None, description="A terraform directory: state and plan (sim/terraform)."
    )

    @property
    def host(self) -> bool:
        """A host is simulated (files and system tools) when files or system are declared."""
        return bool(self.files) or self.system is not None

    @property
    def declared(self) -> bool:
        """True when any simulator state is declared (else only rules answer)."""
        return any(getattr(self, name) for name in FIELDS)

    def world_fields(self) -> WorldSpec:
        """Just the simulator fields (a task's `Environment` without its rules)."""
        return WorldSpec.model_construct(**{name: getattr(self, name) for name in FIELDS})


FIELDS: tuple[str, ...] = tuple(WorldSpec.model_fields)
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
