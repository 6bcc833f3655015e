"""The SQLite result store."""

from agentbench.store.db import ResultStore

__all__ = ["ResultStore"]
