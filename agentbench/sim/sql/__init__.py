"""SQL on an embedded engine in its own process, and `psql` over it."""
