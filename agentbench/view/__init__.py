"""`agentbench view`: a local web app over the results database (runs, run, compare, episode
and side-by-side pages), rendered with the report's own sections."""

from agentbench.view.app import DEFAULT_HOST, create_app, serve

__all__ = ["DEFAULT_HOST", "create_app", "serve"]
