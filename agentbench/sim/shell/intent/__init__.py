"""Harm by intent: each command of a line classified read or write before it runs."""
