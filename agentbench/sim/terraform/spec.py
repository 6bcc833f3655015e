"""The `terraform:` section of a task environment: one working directory's state and plan.

```yaml
terraform:
  dir: /srv/infra/prod            # the configuration directory (-chdir=DIR, or the cwd)
  version: 1.7.5
  default_tags: {Environment: prod}   # the provider's default_tags: merged into tags_all
  data:                            # data sources read during a plan
    - {address: data.aws_region.current, id: eu-west-1}
  resources:                       # the state, in refresh order
    - address: aws_db_instance.orders
      id: db-ORDERS
      attributes: {storage_encrypted: true, endpoint: "orders.example:5432"}
      tags: {Name: orders-prod, CostCenter: cc-114}
      planned: {storage_encrypted: false, tags: {CostCenter: cc-201}}
      forces_replacement: [storage_encrypted]
      computed: [endpoint, master_user_secret]
  outputs:
    - {name: orders_db_endpoint, from: aws_db_instance.orders.endpoint}
```

`planned` holds the attributes the configuration changes (a map lists only the keys that
change; a null value removes a key). A planned change to an attribute in `forces_replacement`
replaces the resource, and then its `computed` attributes are unknown until apply. A resource
with `create: true` is only planned (not in state); one with `destroy: true` leaves.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

Value = Any  # a string, number, bool, list or map, as in the state file

_ADDRESS = re.compile(r"^(data\.)?[a-z][a-z0-9_]*\.[A-Za-z_][A-Za-z0-9_-]*(\[(\d+|\"[^\"]+\")\])?$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _address(value: str) -> str:
    if not _ADDRESS.match(value):
        raise ValueError(f"not a resource address (TYPE.NAME or TYPE.NAME[INDEX]): {value!r}")
    return value


class DataSource(_Strict):
    address: str
    id: str

    _check = field_validator("address")(_address)


class Resource(_Strict):
    """One resource instance in state (or planned)."""

    address: str
    id: str = ""
    attributes: dict[str, Value] = Field(default_factory=dict)
    tags: dict[str, str] | None = None
    planned: dict[str, Value] = Field(default_factory=dict)
    forces_replacement: list[str] = Field(default_factory=list)
    computed: list[str] = Field(default_factory=list)
    create: bool = False
    destroy: bool = False

    _check = field_validator("address")(_address)

    @property
    def type(self) -> str:
        return self.address.split(".", 1)[0]

    @property
    def name(self) -> str:
        return self.address.split(".", 1)[1].split("[", 1)[0]


class Output(_Strict):
    name: str
    value: Value = None
    from_: str | None = Field(default=None, alias="from")  # ADDRESS.ATTRIBUTE


class TerraformSpec(_Strict):
    dir: str
    version: str = "1.7.5"
    default_tags: dict[str, str] = Field(default_factory=dict)
    data: list[DataSource] = Field(default_factory=list)
    resources: list[Resource] = Field(default_factory=list)
    outputs: list[Output] = Field(default_factory=list)
