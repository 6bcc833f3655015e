"""The declared database: the `environment.sql:` field of a task file (tables, views, replicas,
the server clock). Names, column types and views are checked when the file loads (names.py,
classify.py), so nothing a task file says reaches SQL unchecked.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from agentbench.sim.core.spec import DEFAULT_NOW, clock_of
from agentbench.sim.sql.classify import check_view
from agentbench.sim.sql.names import check_identifier, engine_type


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TableSpec(_Strict):
    """One table: typed columns (SQL types, in order) and rows, inline or as CSV text."""

    columns: dict[str, str] = Field(description="Name -> SQL type, e.g. created_at: timestamptz.")
    rows: list[list[Any]] = Field(default_factory=list, description="Values in column order.")
    csv: str | None = Field(default=None, description="CSV with a header row, instead of rows.")

    @field_validator("columns")
    @classmethod
    def _checked_columns(cls, columns: dict[str, str]) -> dict[str, str]:
        for name, sql_type in columns.items():
            check_identifier(name)
            engine_type(sql_type)
        return columns

    @model_validator(mode="after")
    def _one_source(self) -> TableSpec:
        if self.rows and self.csv is not None:
            raise ValueError("give either 'rows' or 'csv', not both")
        return self


class SqlSpec(_Strict):
    """A database answered by an embedded DuckDB: any query runs for real on these rows."""

    database: str = Field(default="analytics", description="Name psql shows and -d accepts.")
    host: str = Field(default="localhost", description="Host `psql -h` reaches it at.")
    replicas: list[str] = Field(
        default_factory=list,
        description="Hosts of hot-standby replicas: the same rows, `pg_is_in_recovery()` is "
        "true and writes fail with PostgreSQL's read-only error.",
    )
    tables: dict[str, TableSpec] = Field(default_factory=dict)
    views: dict[str, str] = Field(default_factory=dict, description="Name -> SELECT text.")
    read_only: bool = Field(
        default=False,
        description="A hot-standby replica: writes fail with PostgreSQL's read-only error.",
    )
    statement_timeout_s: float = Field(
        default=10.0,
        gt=0,
        le=60,
        description="A statement running longer is cancelled with PostgreSQL's statement "
        "timeout error (the server's `statement_timeout`).",
    )
    now: str | None = Field(
        default=None,
        description="The server's clock (now(), current_timestamp, current_date, ...), ISO 8601. "
        "Default: the task's `system.now`, else its cluster's `now`, else " + DEFAULT_NOW + ".",
    )
    _engine: Any = PrivateAttr(default=None)

    @property
    def clock(self) -> str:
        """The clock the server runs on: its declared `now`, else the default."""
        return self.now or DEFAULT_NOW

    @field_validator("now")
    @classmethod
    def _checked_now(cls, now: str | None) -> str | None:
        if now is not None:
            clock_of(now)
        return now

    @field_validator("tables")
    @classmethod
    def _checked_tables(cls, tables: dict[str, TableSpec]) -> dict[str, TableSpec]:
        for name in tables:
            check_identifier(name)
        return tables

    @field_validator("views")
    @classmethod
    def _checked_views(cls, views: dict[str, str]) -> dict[str, str]:
        """Each view is one SELECT (by the engine's parser), its name an identifier."""
        return {check_identifier(name): check_view(name, select) for name, select in views.items()}

    def engine_cache(self, engine: Any = None) -> Any:
        """What every episode's database is built from (agentbench/sim/sql/engine.py), kept
        with the declaration so it is prepared once; with an argument, store it."""
        if engine is not None:
            self._engine = engine
        return self._engine
