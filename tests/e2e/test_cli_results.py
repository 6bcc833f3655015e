"""The CLI never loses results and never shows a secret — through the real entry point.

An output path that resolves to the results database (or to another output of the same
command) is refused before anything runs, and the database keeps every run; a password in a
base URL, an API key and header values reach no stored or printed artefact; malformed keys,
headers, URLs and numbers are one line each. docs/robustness.md#cli-results-and-credentials
lists each guarantee with its test here.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from agentbench.store import ResultStore

from .cli import agentbench, one_error_line, small_suite

TASK = "data-inventory-available-units"
PASSWORD = "PASSW0RDinURL"
KEY = "sk-KEYSECRET0123"
HEADER_VALUE = "HDRSECRETvalue"


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, str]]:
    """(tasks, a database holding one finished run, the refserver's URL)."""
    from agentbench.refserver.app import RefServer, RefServerState
    from agentbench.refserver.schedule import Schedule
    from agentbench.tasks.loader import load_suite

    root = tmp_path_factory.mktemp("results")
    tasks = small_suite(root / "tasks")
    state = RefServerState(load_suite(tasks).tasks, Schedule(ttft_s=0.0, rate_tok_s=5000.0))
    with RefServer(state) as server:
        db = root / "k.db"
        result = agentbench(
            "run", str(tasks), "--base-url", server.base_url, "--model", "oracle",
            "--task", TASK, "--db", str(db), "--quiet",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        yield tasks, db, server.base_url


def _fingerprint(db: Path) -> tuple[str, list[str]]:
    with ResultStore(db) as store:
        runs = [r.run_id for r in store.runs()]
    return hashlib.sha256(db.read_bytes()).hexdigest(), runs


def _outputs_onto_db(tasks: Path, db: Path, url: str) -> dict[str, list[str]]:
    d = str(db)
    link = db.parent / "link-to-k.db"
    if not link.exists():
        link.symlink_to(db.name)
    relative = os.path.relpath(db, Path.cwd())
    run = ["run", str(tasks), "--base-url", url, "--model", "oracle", "--task", TASK, "--db", d]
    return {
        "report --html the db": ["report", "latest", "--db", d, "--html", d],
        "report --json the db's -wal": ["report", "latest", "--db", d, "--json", d + "-wal"],
        "report --csv a symlink to the db": ["report", "latest", "--db", d, "--csv", str(link)],
        "report --jsonl the db by a relative path": ["report", "--db", d, "--jsonl", relative],
        "runs --json the db": ["runs", "--db", d, "--json", str(db.parent / "." / db.name)],
        "compare --html the db": ["compare", "latest", "latest", "--db", d, "--html", d],
        "routes --json the db": ["routes", "--db", d, "--json", d + "-journal"],
        "run --json the db": [*run, "--json", d],
        "bench --csv the db": ["bench", "--base-url", url, "--model", "oracle", "--db", d,
                               "--csv", d],
    }  # fmt: skip


CASES = (
    "report --html the db",
    "report --json the db's -wal",
    "report --csv a symlink to the db",
    "report --jsonl the db by a relative path",
    "runs --json the db",
    "compare --html the db",
    "routes --json the db",
    "run --json the db",
    "bench --csv the db",
)


@pytest.mark.parametrize("case", CASES)
def test_an_output_onto_the_database_is_refused_and_every_run_kept(stored, case) -> None:  # type: ignore[no-untyped-def]
    tasks, db, url = stored
    before = _fingerprint(db)
    args = _outputs_onto_db(tasks, db, url)[case]
    result = agentbench(*args)
    assert result.returncode == 1, (case, result.stdout, result.stderr)
    line = one_error_line(result)
    assert "would overwrite the results database (--db" in line, line
    assert _fingerprint(db) == before  # same bytes, same runs


def test_an_output_onto_an_input_file_is_refused(stored, tmp_path) -> None:  # type: ignore[no-untyped-def]
    tasks, _, url = stored
    prices = tmp_path / "prices.yaml"
    prices.write_text("models: {}\n")
    result = agentbench(
        "run", str(tasks), "--base-url", url, "--model", "oracle", "--task", TASK,
        "--db", str(tmp_path / "p.db"), "--prices", str(prices), "--json", str(prices),
    )  # fmt: skip
    assert result.returncode == 1
    assert "would overwrite the input --prices" in one_error_line(result)
    assert prices.read_text() == "models: {}\n" and not (tmp_path / "p.db").exists()


def test_two_outputs_naming_one_file_are_refused(stored, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _, db, _ = stored
    out = tmp_path / "out.json"
    result = agentbench(
        "report", "--db", str(db), "--json", str(out), "--html", f"{tmp_path}/./out.json"
    )
    line = one_error_line(result)
    assert result.returncode == 1 and "--json" in line and "--html" in line and "same file" in line
    assert not out.exists()


class _EchoingServer(BaseHTTPRequestHandler):
    """Answers every request 400 with the request's headers in the body, as a careless proxy
    might: the error line must still not show the key or the header value. With `models_ok`,
    GET /v1/models lists the model, so the run starts and the echo lands in stored episodes."""

    models_ok = False

    def do_GET(self) -> None:
        if self.models_ok and self.path.endswith("/models"):
            body = json.dumps({"object": "list", "data": [{"id": "oracle"}]}).encode()
            self.send_response(200)
        else:
            body = json.dumps({"error": {"message": f"denied: {dict(self.headers)}"}}).encode()
            self.send_response(400)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args: object) -> None:
        pass


def test_a_key_echoed_back_by_the_server_is_not_printed(stored) -> None:  # type: ignore[no-untyped-def]
    tasks, db, _ = stored
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoingServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://user:{PASSWORD}@127.0.0.1:{server.server_port}/v1"
        result = agentbench(
            "run", str(tasks), "--base-url", url, "--model", "oracle", "--task", TASK,
            "--db", str(db.parent / "echo.db"), "--api-key-env", "AB_TEST_KEY",
            "--header", f"X-Team:{HEADER_VALUE}", "--retries", "0",
            env_extra={"AB_TEST_KEY": KEY},
        )  # fmt: skip
    finally:
        server.shutdown()
    line = one_error_line(result)
    assert result.returncode == 1 and "[redacted]" in line, line
    for secret in (KEY, HEADER_VALUE, PASSWORD):
        assert secret not in result.stderr + result.stdout


def test_a_key_echoed_into_stored_episodes_is_redacted_in_the_database(stored, tmp_path) -> None:  # type: ignore[no-untyped-def]
    tasks, _, _ = stored
    handler = type("Echo", (_EchoingServer,), {"models_ok": True})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    db, out = tmp_path / "e.db", tmp_path / "e.json"
    try:
        result = agentbench(
            "run", str(tasks), "--base-url", f"http://127.0.0.1:{server.server_port}/v1",
            "--model", "oracle", "--task", TASK, "--db", str(db), "--json", str(out),
            "--api-key-env", "AB_TEST_KEY", "--header", f"X-Team:{HEADER_VALUE}",
            "--retries", "0", "--quiet", env_extra={"AB_TEST_KEY": KEY},
        )  # fmt: skip
    finally:
        server.shutdown()
    assert "Traceback" not in result.stderr
    with ResultStore(db) as store:
        episodes = store.episodes(store.resolve("latest"), transcripts=True)
    assert episodes and episodes[0].status.startswith("backend_error")
    assert "[redacted]" in episodes[0].model_dump_json()  # the echo was stored, blanked out
    for secret in (KEY, HEADER_VALUE):
        assert secret not in result.stdout + result.stderr
        for path in (db, out, *tmp_path.glob("e.db-*")):
            assert secret.encode() not in path.read_bytes(), (secret, path)


def test_credentials_reach_no_stored_or_printed_artefact(stored, tmp_path) -> None:  # type: ignore[no-untyped-def]
    tasks, _, url = stored
    db = tmp_path / "c.db"
    with_password = url.replace("http://", f"http://user:{PASSWORD}@")
    names = ("run.json", "r.json", "r.html", "r.jsonl", "r.csv", "runs.json")
    outputs = {name: tmp_path / name for name in names}
    run = agentbench(
        "run", str(tasks), "--base-url", with_password, "--model", "oracle", "--task", TASK,
        "--db", str(db), "--json", str(outputs["run.json"]), "--api-key-env", "AB_TEST_KEY",
        "--header", f"X-Team:{HEADER_VALUE}", "--quiet", env_extra={"AB_TEST_KEY": KEY},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    report = agentbench(
        "report", "--db", str(db), "--json", str(outputs["r.json"]), "--transcripts",
        "--html", str(outputs["r.html"]), "--jsonl", str(outputs["r.jsonl"]),
        "--csv", str(outputs["r.csv"]),
    )  # fmt: skip
    runs = agentbench("runs", "--db", str(db), "--json", str(outputs["runs.json"]))
    assert report.returncode == 0 and runs.returncode == 0, report.stderr + runs.stderr
    artefacts = [db, *outputs.values(), *db.parent.glob("c.db-*")]
    printed = run.stdout + run.stderr + report.stdout + report.stderr + runs.stdout
    for secret in (PASSWORD, KEY, HEADER_VALUE):
        assert secret not in printed
        for path in artefacts:
            assert secret.encode() not in path.read_bytes(), (secret, path)
    with ResultStore(db) as store:
        record = store.run("latest")
    assert record.config["base_url"] == url and record.server and record.server.base_url == url
    assert record.config["flags"]["base_url"] == url


@pytest.mark.parametrize(
    ("what", "args", "env", "needle"),
    [
        ("non-ASCII key", ["--api-key-env", "AB_K"], {"AB_K": "kéy-value-1"}, "$AB_K"),
        ("key with a CR", ["--api-key-env", "AB_K"], {"AB_K": "abc\rSECRETPART"}, "$AB_K"),
        ("non-ASCII header", ["--header", "X-A:valué-SECRETPART"], {}, "--header X-A"),
        ("header with a CR", ["--header", "X-A:abc\rSECRETPART"], {}, "--header X-A"),
    ],
)
def test_a_malformed_secret_is_named_never_shown(stored, tmp_path, what, args, env, needle) -> None:  # type: ignore[no-untyped-def]
    tasks, _, url = stored
    result = agentbench(
        "run", str(tasks), "--base-url", url, "--model", "oracle", "--task", TASK,
        "--db", str(tmp_path / "s.db"), *args, env_extra=env,
    )  # fmt: skip
    assert result.returncode == 1, what
    line = one_error_line(result)
    assert needle in line and "not shown" in line, line
    assert "SECRETPART" not in result.stderr and "valué" not in result.stderr and "kéy" not in line


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--base-url", "http://[::1", "--model", "m"], "--base-url http://[::1: not a valid URL"),
        (["--base-url", "http://127.0.0.1:99999/v1", "--model", "m"], "Port out of range"),
        (["--base-url", "ftp://host/v1", "--model", "m"], "expected http://HOST"),
        (["--base-url", "http://127.0.0.1:0/v1", "--model", "m"], "port 0"),
        (
            ["--base-url", "http://u:PWD123x@[::1/v1", "--model", "m"],
            "--base-url http://[::1/v1: not a valid URL",
        ),
        (
            ["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--router", "cascade",
             "--frontier", "f", "--frontier-base-url", "http://h:123456/v1"],
            "--frontier-base-url",
        ),
        (["--base-url", "http://x/v1", "--model", "m", "--extra-body", '{"model": "other"}'],
         "--extra-body key 'model'"),
        (["--base-url", "http://x/v1", "--model", "m", "--extra-body", '{"messages": []}'],
         "--extra-body key 'messages'"),
        (["--base-url", "http://x/v1", "--model", "m", "--extra-body", '{"tools": []}'],
         "--extra-body key 'tools'"),
        (["--base-url", "http://x/v1", "--model", "m", "--extra-body", '{"stream": false}'],
         "--extra-body key 'stream'"),
        (["--base-url", "http://x/v1", "--model", "m", "--extra-body", "[" * 100_000],
         "--extra-body"),
        (["--base-url", "http://x/v1", "--model", "m", "--extra-body", '{"top_k": NaN}'],
         "--extra-body holds NaN"),
        (["--base-url", "http://x/v1", "--model", "m", "--extra-body", '{"a": [1e999]}'],
         "--extra-body holds 1e999"),
        (["--base-url", "http://x/v1", "--model", "m", "--header", "Xé:v"], "plain ASCII name"),
    ],
)  # fmt: skip
def test_a_bad_url_or_body_is_one_line(stored, tmp_path, args, needle) -> None:  # type: ignore[no-untyped-def]
    tasks, _, _ = stored
    db = tmp_path / "u.db"
    result = agentbench("run", str(tasks), "--task", TASK, "--db", str(db), *args)
    assert result.returncode == 1, result.stderr
    assert needle in one_error_line(result)
    assert "PWD123x" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--repeats", "1000000000"],
        ["--repeats", "0"],
        ["--concurrency", "100000000"],
        ["--episode-timeout", "inf"],
        ["--request-timeout", "nan"],
        ["--temperature", "inf"],
        ["--max-tokens", "100000000000000000000"],
        ["--seed", "100000000000000000000000"],
        ["--retries", "1000000000000"],
    ],
)
def test_a_number_out_of_bounds_is_one_usage_line_and_no_run(stored, tmp_path, args) -> None:  # type: ignore[no-untyped-def]
    tasks, _, url = stored
    db = tmp_path / "n.db"
    result = agentbench(
        "run", str(tasks), "--base-url", url, "--model", "oracle", "--db", str(db), *args
    )
    assert result.returncode == 2, result.stderr
    line = one_error_line(result)
    assert f"'{args[0]}'" in line and "--help" in line, line
    assert not db.exists()  # refused by the option parser, before anything ran


def test_a_plan_over_the_episode_limit_is_refused_before_the_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ..conftest import TASKS_DIR

    db = tmp_path / "big.db"
    result = agentbench(
        "run", str(TASKS_DIR), "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
        "--repeats", "10000", "--db", str(db),
    )  # fmt: skip
    assert result.returncode == 1
    assert "over the limit of 100,000 per run" in one_error_line(result)
    with ResultStore(db) as store:
        assert store.runs() == []  # nothing left "running"


def test_a_task_nested_900_deep_is_refused_at_load_by_run_and_validate(stored, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    tasks, _, url = stored
    copy = tmp_path / "deep"
    shutil.copytree(tasks, copy)
    path = next((copy / "ops-diagnosis").glob("*.yaml"))
    text = path.read_text()
    probe = "  nested_probe: {d: " + "[" * 900 + "]" * 900 + "}\n"
    path.write_text(text.replace("\nenvironment:\n", "\nenvironment:\n" + probe, 1))
    assert "nested_probe: {d: [[[" in path.read_text()
    run = ["run", str(copy), "--base-url", url, "--model", "oracle"]
    for args in (run, ["tasks", "validate", str(copy)]):
        result = (
            agentbench(*args, "--db", str(tmp_path / "d.db"))
            if args[0] == "run"
            else agentbench(*args)
        )
        assert result.returncode == 1
        line = one_error_line(result)
        assert path.name in line and "nested deeper than 64 levels" in line, line


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["view", "--port", "70000"], 2, "'--port'"),
        (["view", "--port", "-1"], 2, "'--port'"),
        (["view", "--host", "no-such-host.invalid", "--port", "0"], 1, "--host no-such-host"),
        (["nosuch"], 2, "No such command"),
        (["run"], 2, "Missing argument"),
    ],
)
def test_view_and_usage_errors_are_one_line(stored, args, code, needle) -> None:  # type: ignore[no-untyped-def]
    _, db, _ = stored
    extra = ["--db", str(db)] if args[0] == "view" else []
    result = agentbench(*args, *extra, timeout=30)
    assert result.returncode == code, result.stderr
    assert needle in one_error_line(result)


def test_view_refuses_a_file_that_is_not_its_database_at_start(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import sqlite3

    text = tmp_path / "notdb.txt"
    text.write_text("hello\n")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    before = other.read_bytes()
    for path in (text, other):
        result = agentbench("view", "--db", str(path), "--port", "0", timeout=30)
        assert result.returncode == 1
        assert "not a usable agentbench database" in one_error_line(result)
    assert other.read_bytes() == before  # read, never altered


def test_a_yaml_alias_bomb_in_a_task_file_is_refused_at_load(stored, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    tasks, _, url = stored
    copy = tmp_path / "bomb"
    shutil.copytree(tasks, copy)
    path = next((copy / "ops-diagnosis").glob("*.yaml"))
    levels = ["  l0: &l0 [" + ", ".join(["x"] * 9) + "]\n"]
    for i in range(1, 9):  # 9**9 values once expanded, a few hundred bytes written
        levels.append(f"  l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n")
    path.write_text(
        path.read_text().replace(
            "\nenvironment:\n", "\nbomb:\n" + "".join(levels) + "environment:\n", 1
        )
    )
    run = ["run", str(copy), "--base-url", url, "--model", "oracle", "--db", str(tmp_path / "b.db")]
    for args in (run, ["tasks", "validate", str(copy)]):
        result = agentbench(*args)
        assert result.returncode == 1
        line = one_error_line(result)
        assert path.name in line and "expand to over 1,000,000 values" in line, line


def test_a_backtracking_pattern_in_a_task_file_fails_its_check_instead_of_hanging(
    stored, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    """`^(a|a)+$` on `aaa…a!` never returns under Python's `re` and holds the GIL, so not even
    SIGTERM stopped `tasks validate`; on the bounded engine it fails one check, named."""
    import shutil

    tasks, _, _ = stored
    copy = tmp_path / "evil"
    shutil.copytree(tasks, copy)
    (copy / "ops-diagnosis" / "evil-regex.yaml").write_text(
        """id: evil-regex
category: ops-diagnosis
difficulty: easy
description: A hostile task whose answer pattern backtracks.
prompt: Say hello.
tools: [run_command]
environment:
  files: {/tmp/x: "hello"}
expect:
  answer:
    regex: '^(a|a)+$'
reference:
  - answer: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"
wrong:
  - name: w
    steps: [{answer: "no"}]
"""
    )
    result = agentbench("tasks", "validate", str(copy), "--lenient")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    line = result.stderr.splitlines()[0]
    assert "evil-regex.yaml" in line and "the task's pattern /^(a|a)+$/" in line, line


def test_an_output_onto_a_task_file_of_the_run_is_refused(stored, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    tasks, _, url = stored
    copy = tmp_path / "suite"
    shutil.copytree(tasks, copy)
    victim = next((copy / "ops-diagnosis").glob("*.yaml"))
    before = victim.read_bytes()
    for target in (victim, copy / "tools" / "run_command.yaml"):
        result = agentbench(
            "run", str(copy), "--base-url", url, "--model", "oracle",
            "--db", str(tmp_path / "o.db"), "--json", str(target),
        )  # fmt: skip
        assert result.returncode == 1
        assert "would overwrite the input TASKS_DIR" in one_error_line(result)
    assert victim.read_bytes() == before
