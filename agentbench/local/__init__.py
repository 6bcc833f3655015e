"""agentbench."""
