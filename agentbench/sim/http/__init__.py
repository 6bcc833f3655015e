"""HTTP from declared routes: `http_get`, `curl` and `wget`."""
