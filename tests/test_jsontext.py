"""The JSON finder shared by the prompt-mode parser and scoring."""

from __future__ import annotations

from agentbench.jsontext import json_candidates


def test_fenced_blocks_first_then_every_balanced_value_in_order() -> None:
    text = 'I will call it:\n```json\n{"tool": "a"}\n```\nthen [1, 2] and {"b": {"c": 3}} end'
    assert json_candidates(text) == [{"tool": "a"}, {"tool": "a"}, [1, 2], {"b": {"c": 3}}]


def test_broken_json_is_skipped_not_fatal() -> None:
    assert json_candidates('{"a": 1 and then {"b": 2}') == [{"b": 2}]
    assert json_candidates("no json here") == []
