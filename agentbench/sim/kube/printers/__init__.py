"""How kubectl prints: `get` tables and columns, `-o` formats, `describe`."""
