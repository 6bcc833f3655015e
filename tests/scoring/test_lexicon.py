"""The lexicon against its paraphrase corpus: every entry states its paraphrases and not its
near-misses, and every entry has at least ten of one and five of the other."""

from pathlib import Path

import pytest
import yaml

from agentbench.scoring.lexicon import LexiconError, _entry, entry, lexicon

CORPUS = yaml.safe_load((Path(__file__).parent / "corpus" / "paraphrases.yaml").read_text())


def test_every_entry_has_a_corpus() -> None:
    assert set(lexicon()) == set(CORPUS)
    for key, body in CORPUS.items():
        assert len(body["match"]) >= 10, key
        assert len(body["miss"]) >= 5, key


@pytest.mark.parametrize(("key", "text"), [(k, t) for k, b in CORPUS.items() for t in b["match"]])
def test_paraphrase_matches(key: str, text: str) -> None:
    assert entry(key).span(text) is not None, f"{key} should match {text!r}"


@pytest.mark.parametrize(("key", "text"), [(k, t) for k, b in CORPUS.items() for t in b["miss"]])
def test_near_miss_does_not_match(key: str, text: str) -> None:
    assert entry(key).span(text) is None, f"{key} should not match {text!r}"


def test_task_wordings_extend_an_entry() -> None:
    extended = entry("timeout").extended(["Stripe check"], [])
    assert extended.span("the Stripe check") is not None
    assert entry("timeout").span("the Stripe check") is None


def test_evidence_decides_support() -> None:
    assert entry("oom-killed").supported_by('{"last_state": {"reason": "OOMKilled"}}')
    assert not entry("oom-killed").supported_by('{"phase": "Running", "restarts": 0}')


def test_malformed_entries_are_refused_with_their_name() -> None:
    with pytest.raises(LexiconError, match=r"'x'.*kind"):
        _entry("x", {"kind": "mood", "wordings": ["a b"]})
    with pytest.raises(LexiconError, match=r"'y'.*pattern"):
        _entry("y", {"kind": "cause", "patterns": ["("]})
    with pytest.raises(KeyError, match="no lexicon entry 'nope'"):
        entry("nope")


def test_numeric_evidence_is_anchored_on_number_boundaries() -> None:
    timeout = entry("timeout")
    assert timeout.supported_by("upstream answered 504 after 30s")
    assert timeout.supported_by("status=504")
    assert not timeout.supported_by('{"order_id": 50467, "total": 1504}')
    assert not timeout.supported_by("version 2.504.1")


def test_a_field_whose_value_says_no_is_no_evidence() -> None:
    crash = entry("crash-loop")
    assert not crash.supported_by('{"restarts": 0, "restart_policy": "Always", "ready": null}')
    assert crash.supported_by('{"restarts": 31, "state": "waiting"}')
    assert crash.supported_by("Warning  BackOff  Back-off restarting failed container")
    assert not entry("not-ready").supported_by('{"conditions": {"Ready": "True"}, "ready": null}')
    assert entry("retry-pending").supported_by('{"next_retry_at": "2026-11-30T19:42:00Z"}')
    assert not entry("retry-pending").supported_by('{"next_retry_at": null, "attempts": 3}')
