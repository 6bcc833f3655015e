"""Scoring an episode trace against its task's expectation."""

from agentbench.scoring.score import EpisodeScore, score_episode, score_trace

__all__ = ["EpisodeScore", "score_episode", "score_trace"]
