"""The simulated environment of a task, declared once: its fields and the parts built from them.

`WorldSpec` is the list of simulator fields a task's `environment:` may declare (`cluster`,
`files`, `system`, `sql`, `http`, `terraform`, `rule_programs`); the task format
(tasks/model.py `Environment`) extends it with rules, so a new field is added here and nowhere
else; sim/parts.py says which live state each field becomes for one episode. This module
declares only (importing the task format loads no simulator runtime).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from agentbench.sim.core.spec import FileSpec, HttpRoute, SystemSpec
from agentbench.sim.kube.schema.model import Cluster
from agentbench.sim.sql.spec import SqlSpec
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
    rule_programs: list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.+-]{1,64}$")]] = (
        Field(
            default_factory=list,
            description="Programs installed on this host that no simulator carries (e.g. "
            "patronictl): the task's rules answer them, and a call no rule answers is not "
            "simulated (off-script), never `command not found`.",
        )
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
