"""Metrics: statistics and run summaries computed from result records."""

from agentbench.metrics.summary import RunSummary, by_category, summarize

__all__ = ["RunSummary", "by_category", "summarize"]
