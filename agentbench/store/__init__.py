"""The SQLite result store."""

from agentbench.store.db import ResultStore, check_database

__all__ = ["ResultStore", "check_database"]
