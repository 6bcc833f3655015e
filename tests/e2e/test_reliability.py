"""Nothing lost, nothing leaked: interruption, kill -9 + resume, exact concurrency, secrets."""

import json
import signal
import subprocess
import sys

from typer.testing import CliRunner

from agentbench.backends.base import strip_credentials
from agentbench.cli.main import app
from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore

from ..conftest import TASKS_DIR
from .cli import wait_for_episodes

CATEGORY = "ops-diagnosis"


def start_run(base_url: str, db, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "run",
            str(TASKS_DIR),
            "--base-url",
            base_url,
            "--model",
            "oracle",
            "--category",
            CATEGORY,
            "--db",
            str(db),
            "--quiet",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def scores(db) -> dict[tuple[str, int], float]:
    with ResultStore(db) as store:
        return {(e.task_id, e.repeat): e.score for e in store.episodes(store.resolve("latest"))}


def test_kill_9_then_resume_equals_an_uninterrupted_run(refserver_factory, tmp_path, suite):
    server = refserver_factory(Schedule(ttft_s=0.15, rate_tok_s=400.0))
    n_tasks = len([t for t in suite.tasks if t.category == CATEGORY])
    clean_db, killed_db = tmp_path / "clean.db", tmp_path / "killed.db"
    assert start_run(server.base_url, clean_db).wait(timeout=300) == 0

    proc = start_run(server.base_url, killed_db)
    wait_for_episodes(killed_db, 2)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    with ResultStore(killed_db) as store:
        kept = len(store.episodes(store.resolve("latest")))
    assert 2 <= kept < n_tasks

    resumed = start_run(server.base_url, killed_db, "--resume", "latest")
    assert resumed.wait(timeout=300) == 0, resumed.stdout.read() if resumed.stdout else ""
    assert scores(killed_db) == scores(clean_db)
    with ResultStore(killed_db) as store:
        (run,) = store.runs()
        assert run.status == "complete"
        assert len(store.episodes(run.run_id)) == n_tasks  # none missing, none duplicated


def test_sigint_stops_cleanly_and_keeps_finished_episodes(refserver_factory, tmp_path):
    server = refserver_factory(Schedule(ttft_s=0.3, rate_tok_s=200.0))
    db = tmp_path / "int.db"
    proc = start_run(server.base_url, db)
    wait_for_episodes(db, 1)
    proc.send_signal(signal.SIGINT)
    output, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130, output
    assert "Traceback" not in output
    with ResultStore(db) as store:
        run = store.run("latest")
        assert run.status == "interrupted"
        assert run.summary and run.summary["episodes"] >= 1


def test_concurrency_is_respected_exactly(refserver_factory, tmp_path):
    server = refserver_factory(Schedule(ttft_s=0.2, rate_tok_s=500.0))
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(TASKS_DIR),
            "--base-url",
            server.base_url,
            "--model",
            "oracle",
            "--concurrency",
            "3",
            "--db",
            str(tmp_path / "c.db"),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    assert server.state.max_in_flight == 3


def test_api_key_never_reaches_results(refserver_factory, tmp_path, monkeypatch):
    secret = "sk-test-DO-NOT-LEAK-4242"
    monkeypatch.setenv("AGENTBENCH_TEST_KEY", secret)
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=2000.0))
    db, out, csv = tmp_path / "s.db", tmp_path / "s.json", tmp_path / "s.csv"
    url = server.base_url
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(TASKS_DIR),
            "--base-url",
            url,
            "--model",
            "oracle",
            "--category",
            CATEGORY,
            "--api-key-env",
            "AGENTBENCH_TEST_KEY",
            "--db",
            str(db),
            "--json",
            str(out),
            "--quiet",
            "--note",
            "key test",
        ],
    )
    assert result.exit_code == 0, result.output
    assert server.state.authorization_seen[0] == f"Bearer {secret}"  # it was used...
    full, jsonl = tmp_path / "s-full.json", tmp_path / "s.jsonl"
    report = CliRunner().invoke(
        app,
        [
            "report",
            "latest",
            "--db",
            str(db),
            "--csv",
            str(csv),
            "--json",
            str(full),
            "--transcripts",
            "--jsonl",
            str(jsonl),
        ],
    )
    assert report.exit_code == 0, report.output
    # the transcripts were stored and exported (what the key must stay out of)
    steps = [s for e in json.loads(full.read_text())["episodes"] for s in e["steps"]]
    assert steps and all(s["request"]["messages"] for s in steps)
    assert len(jsonl.read_text().splitlines()) == len(json.loads(full.read_text())["episodes"])
    blobs = [
        db.read_bytes(),
        out.read_bytes(),
        csv.read_bytes(),
        full.read_bytes(),
        jsonl.read_bytes(),
        result.output.encode(),
        report.output.encode(),
    ]
    for extra in tmp_path.glob("s.db-*"):
        blobs.append(extra.read_bytes())
    for blob in blobs:  # ...and stored nowhere, nor the URL's credentials
        assert secret.encode() not in blob


def test_base_urls_are_stored_without_credentials() -> None:
    url = "https://user:pa55@api.example.com:8443/v1/?api_key=sk-123"
    assert strip_credentials(url) == "https://api.example.com:8443/v1"


def test_two_runs_writing_one_database_at_once(refserver_factory, tmp_path, suite):
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=2000.0))
    db = tmp_path / "shared.db"
    procs = [start_run(server.base_url, db, "--concurrency", "4") for _ in range(2)]
    for proc in procs:
        output, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0, output
    n_tasks = len([t for t in suite.tasks if t.category == CATEGORY])
    with ResultStore(db) as store:
        runs = store.runs()
        assert len(runs) == 2 and all(r.status == "complete" for r in runs)
        for run in runs:
            episodes = store.episodes(run.run_id)
            assert len(episodes) == n_tasks and all(e.score == 1.0 for e in episodes)
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
