"""The machinery every simulated program shares: the Program contract, budgets, the declared
host's schema, the virtual filesystem, the host's mutable state, units and model regexes."""
