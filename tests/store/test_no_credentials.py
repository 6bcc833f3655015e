"""Records never hold a URL's user:password or a secret handed to the store, whoever built them:
a record is stripped when made and when read back (a database an older agentbench wrote)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from agentbench.records import EpisodeResult, RunRecord, ServerInfo, redact_urls, strip_credentials
from agentbench.store import ResultStore


@pytest.mark.parametrize(
    ("url", "stripped"),
    [
        ("http://user:PASSWORD@host:8000/v1/", "http://host:8000/v1"),
        ("https://host/v1?key=SECRET", "https://host/v1"),
        ("http://u:PASSWORD@[::1]:8000/v1", "http://[::1]:8000/v1"),
        ("http://u:PASSWORD@[::1/v1", "http://[::1/v1"),  # does not parse: still stripped
        ("http://u:PASSWORD@host:99999/v1?k=SECRET", "http://host:99999/v1"),
    ],
)
def test_strip_credentials_also_on_urls_that_do_not_parse(url: str, stripped: str) -> None:
    assert strip_credentials(url) == stripped


def test_redact_urls_in_free_text() -> None:
    text = "GET http://me:PASSWORD@h/v1 failed; retried https://a:b@x:1/"
    assert redact_urls(text) == "GET http://h/v1 failed; retried https://x:1/"


def test_an_older_store_holding_a_password_is_stripped_on_read(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "old.db"
    with ResultStore(db) as store:
        store.save_run(RunRecord(run_id="r1", created_at="2026-01-01T00:00:00"))
    url = "http://user:PASSWORD@h:1/v1"
    record = {
        "run_id": "r1",
        "created_at": "2026-01-01T00:00:00",
        "config": {"base_url": url, "flags": {"base_url": url, "frontier_base_url": url}},
        "server": {"kind": "vllm", "base_url": url, "model": "m"},
    }
    with sqlite3.connect(db) as conn:  # as an older agentbench wrote it, unstripped
        conn.execute("UPDATE runs SET record=? WHERE run_id='r1'", (json.dumps(record),))
    with ResultStore(db) as store:
        run = store.run("r1")
    assert "PASSWORD" not in run.model_dump_json()
    assert run.config["base_url"] == "http://h:1/v1" and run.config["flags"]["frontier_base_url"]
    assert ServerInfo(kind="x", base_url=url, model="m").base_url == "http://h:1/v1"


def test_secrets_handed_to_the_store_never_reach_the_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "s.db"
    key, quoted = "sk-SECRET-1234", 'pa"ss\\word'
    with ResultStore(db) as store:
        store.redact([key, quoted])
        store.save_run(RunRecord(run_id="r", created_at="t", config={"note": f"key {key}"}))
        store.add_episode(
            EpisodeResult(
                run_id="r", task_id="t", category="c", difficulty="easy", step_kind="execute",
                repeat=0, status="backend_error:http_400", score=None,
                explanation=f"server said: Bearer {key} and {quoted}",
            )
        )  # fmt: skip
        store.add_bench_result("r", 0, {"echo": key})
        episode = store.episodes("r")[0]
        assert store.run("r").config["note"] == "key [redacted]"
        assert store.bench_results("r") == [{"echo": "[redacted]"}]
    assert episode.explanation == "server said: Bearer [redacted] and [redacted]"
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert key.encode() not in raw and b"SECRET-1234" not in raw
