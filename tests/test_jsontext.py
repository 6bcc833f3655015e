"""The JSON finder shared by the prompt-mode parser and scoring."""

from __future__ import annotations

import functools
import json
import time

import pytest

from agentbench.jsontext import json_candidates, json_values, loads


def test_fenced_blocks_first_then_every_balanced_value_in_order() -> None:
    text = 'I will call it:\n```json\n{"tool": "a"}\n```\nthen [1, 2] and {"b": {"c": 3}} end'
    assert json_candidates(text) == [{"tool": "a"}, {"tool": "a"}, [1, 2], {"b": {"c": 3}}]


def test_broken_json_is_skipped_not_fatal() -> None:
    assert json_candidates('{"a": 1 and then {"b": 2}') == [{"b": 2}]
    assert json_candidates("no json here") == []


def test_nesting_past_the_bound_is_a_decode_error_not_a_recursion_error() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(json.JSONDecodeError, match="nested deeper than 64 levels"):
        loads(deep)
    assert loads("[" * 64 + "]" * 64) == functools.reduce(lambda v, _: [v], range(63), [])
    with pytest.raises(json.JSONDecodeError):  # a number Python refuses to convert
        loads('{"n": ' + "1" * 5_000 + "}")
    assert loads(' {"s": "[[[[{{{{"} ') == {"s": "[[[[{{{{"}  # brackets in strings are text


def test_lone_surrogate_escapes_become_replacement_characters() -> None:
    assert loads('{"a\\ud800": ["x\\udfffy", "\\ud83d\\ude00"]}') == {
        "a\ufffd": ["x\ufffdy", "\U0001f600"]
    }


def test_a_hostile_text_is_scanned_in_bounded_time_and_later_json_is_still_found() -> None:
    started = time.monotonic()
    for text in ("[" * 200_000, '{"a":' * 40_000, "[1," * 70_000, '["' * 100_000):
        assert json_values(text) == []
    assert time.monotonic() - started < 10  # each was minutes (or a RecursionError) before
    assert [v for _, _, v in json_values("[" * 1_000 + ' then {"a": [1]}')] == [{"a": [1]}]
