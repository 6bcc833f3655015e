"""A hostile model through the real entry point (docs/robustness.md#streams-and-payloads).

Each test runs `python -m agentbench.cli.main run … --base-url http://127.0.0.1:PORT/v1 --model
ATTACK` against tests/hostile.py and asserts what a user sees: the exit code, no traceback, a
stored status per episode, the child's own peak RSS (VmHWM) under 400 MB, the run over within its
deadlines, and what is stored staying small.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from agentbench.backends.limits import MAX_STREAMED_TOOL_CALLS, STORED_CHARS
from agentbench.records import EpisodeResult
from agentbench.store import ResultStore

from ..hostile import hostile_server
from .cli import small_suite

PEAK_RSS_MB = 400
EPISODE_TIMEOUT_S = 60
RUN_DEADLINE_S = 120  # the episode's limit, plus the CLI's start-up on a shared machine
SHELL_TASK = "ops-crashloop-oomkilled"
SQL_TASK = "data-orders-top-customer-november"


@dataclass
class Played:
    returncode: int
    stderr: str
    peak_rss_mb: float
    took_s: float
    episode: EpisodeResult
    stored: str  # every row of the results database, as SQL text
    db_bytes: int
    results_json: str


@pytest.fixture(scope="module")
def host_secret(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A host file no task may read: the SQL attacks ask for it."""
    path = tmp_path_factory.mktemp("host") / "secret.txt"
    path.write_text(f"note\nagentbench-host-secret-{uuid.uuid4().hex}\n")  # a CSV row too
    return path


@pytest.fixture(scope="module")
def url(host_secret: Path) -> Iterator[str]:
    with hostile_server(str(host_secret)) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_suite(tmp_path_factory.mktemp("hostile") / "tasks")


def play(url: str, tasks: Path, tmp: Path, attack: str, task: str = SHELL_TASK) -> Played:
    db, out = tmp / f"{attack}.db", tmp / f"{attack}.json"
    argv = [
        sys.executable, "-m", "agentbench.cli.main", "run", str(tasks),
        "--base-url", url, "--model", attack, "--task", task,
        "--retries", "1", "--episode-timeout", str(EPISODE_TIMEOUT_S),
        "--request-timeout", "30", "--quiet", "--db", str(db), "--json", str(out),
    ]  # fmt: skip
    with (tmp / f"{attack}.err").open("w+") as err:
        started = time.monotonic()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        own_peak_kb = 0
        while True:  # wait4: the rusage of this child alone, whatever else the tests started
            own_peak_kb = max(own_peak_kb, _high_water_kb(child.pid))
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > RUN_DEADLINE_S:
                child.send_signal(signal.SIGKILL)
                child.wait()
                pytest.fail(f"{attack}: the run did not end within {RUN_DEADLINE_S} s")
            time.sleep(0.05)
        took = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read()
    assert "Traceback" not in stderr, stderr
    with ResultStore(db) as store:
        (episode,) = store.episodes(store.resolve("latest"), transcripts=True)
    with sqlite3.connect(db) as conn:
        stored = "\n".join(conn.iterdump())
    return Played(
        child.returncode,
        stderr,
        # the child's own high-water mark; ru_maxrss also counts the pages it shared with this
        # (large) test process between fork and exec, which the kernel carries across exec
        (own_peak_kb or usage.ru_maxrss) / 1024,
        took,
        episode,
        stored,
        db.stat().st_size,
        out.read_text() if out.exists() else "",
    )


def _high_water_kb(pid: int) -> int:
    """VmHWM of a running process (its peak resident set since exec), 0 when unreadable."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _bounded(played: Played) -> None:
    assert played.peak_rss_mb < PEAK_RSS_MB, f"peak RSS {played.peak_rss_mb:.0f} MB"
    assert played.took_s < RUN_DEADLINE_S


# -- streams without bounds: cut, the step truncated with the reason, what is stored small ---


@pytest.mark.parametrize(
    ("attack", "reason"),
    [
        ("flood", "bytes in one response"),  # 2,000 events of 30 KB
        ("text-flood", "characters of text"),  # 2,000 events of 30 KB of answer
        ("long-line", "a line over 1,048,576 bytes"),  # one 80 MB SSE line
        ("endless-line", "a line over 1,048,576 bytes"),  # 80 MB and never a newline
        ("gzip-bomb", "a line over 1,048,576 bytes"),  # 256 MB of one line behind gzip
        ("many-calls", f"over {MAX_STREAMED_TOOL_CALLS} tool calls"),  # 5,000 in one answer
    ],
)
def test_an_unbounded_stream_is_cut_and_the_step_truncated(
    attack: str, reason: str, url: str, tasks: Path, tmp_path: Path
) -> None:
    played = play(url, tasks, tmp_path, attack)
    _bounded(played)
    assert played.returncode == 0, played.stderr
    assert played.episode.status == "truncated"
    (step,) = played.episode.steps
    assert step.truncated and reason in (step.truncation_reason or ""), step.truncation_reason
    assert "agentbench cut the stream" in (step.truncation_reason or "")
    assert len(step.content) <= STORED_CHARS + 100 and not step.tool_results
    assert played.db_bytes < 2 << 20, played.db_bytes


def test_tool_calls_past_32_in_one_answer_are_answered_with_an_error(
    url: str, tasks: Path, tmp_path: Path
) -> None:
    played = play(url, tasks, tmp_path, "forty-calls")
    _bounded(played)
    first, last = played.episode.steps
    kinds = [r.kind for r in first.tool_results]
    assert len(kinds) == 40 and "too_many_calls" not in kinds[:32]
    assert kinds[32:] == ["too_many_calls"] * 8
    assert "at most 32 run per step" in first.tool_results[-1].output
    assert first.invalid_tool_call and "40 tool calls" in first.invalid_tool_call
    sent = [m for m in last.request.messages if m["role"] == "tool"]  # type: ignore[union-attr]
    assert len(sent) == 40  # every call is answered, as the protocol needs
    assert played.episode.status == "wrong"


# -- odd payloads: that step is a bad stream with the offending part stored, the run goes on --


@pytest.mark.parametrize(
    ("attack", "shown"),
    [
        ("deep-chunk", "nested deeper than 64 levels"),  # 100,000 levels
        ("index-int-and-str", "tool_calls[].index = '0': expected int"),
        ("model-type", "model = {'a': 1}: expected str"),
        ("finish-type", "finish_reason = ['stop']: expected str"),
        ("non-object", "not a JSON object"),
        ("choices-string", "choices = 'abc': expected list"),
        ("negative-usage", "usage.completion_tokens = -5"),
    ],
)
def test_an_odd_payload_is_a_bad_stream_with_the_part_stored(
    attack: str, shown: str, url: str, tasks: Path, tmp_path: Path
) -> None:
    played = play(url, tasks, tmp_path, attack)
    _bounded(played)
    assert played.returncode == 1  # no episode could be scored, said in one line
    assert "first bad_stream:" in played.stderr and "interrupted" not in played.stderr
    episode = played.episode
    assert episode.status == "backend_error:bad_stream"
    assert shown in episode.explanation and len(episode.explanation) < 1_000
    assert json.loads(played.results_json)["status"] == "complete"


@pytest.mark.parametrize("attack", ["brackets-args", "long-number-args", "tag-spaces"])
def test_a_malformed_call_is_fed_back_and_the_episode_goes_on(
    attack: str, url: str, tasks: Path, tmp_path: Path
) -> None:
    played = play(url, tasks, tmp_path, attack)
    _bounded(played)
    assert played.returncode == 0
    first, last = played.episode.steps
    assert first.invalid_tool_call, first
    assert last.content == "done" and played.episode.status == "wrong"
    fed_back = last.request.messages[-1]["content"]  # type: ignore[union-attr]
    assert "Error" in fed_back and len(fed_back) < 2_000


def test_an_answer_of_50000_brackets_is_scored_wrong(url: str, tasks: Path, tmp_path: Path) -> None:
    played = play(url, tasks, tmp_path, "brackets-answer")
    _bounded(played)
    assert played.returncode == 0 and played.episode.status == "wrong"
    assert played.episode.final_answer == "[" * 50_000


def test_a_lone_surrogate_is_stored_as_a_replacement_character(
    url: str, tasks: Path, tmp_path: Path
) -> None:
    played = play(url, tasks, tmp_path, "lone-surrogate")
    assert played.returncode == 0 and played.episode.final_answer == "a\ufffdb"


# -- hostile tool calls that other parts of the harness bound (the SQL sandbox, tool deadlines):
# -- here only that the run survives, ends in time, and stores no host data -------------------


@pytest.mark.hostile_tools
def test_an_awk_field_bomb_leaves_the_run_alive(url: str, tasks: Path, tmp_path: Path) -> None:
    played = play(url, tasks, tmp_path, "awk-field")  # `{$100000000=1}`
    assert played.took_s < RUN_DEADLINE_S
    assert played.returncode == 0 and played.episode.status in ("ok", "wrong")


@pytest.mark.hostile_tools
@pytest.mark.parametrize("attack", ["sql-read-text", "sql-read-csv"])
def test_model_sql_stores_no_host_file(
    attack: str, host_secret: Path, url: str, tasks: Path, tmp_path: Path
) -> None:
    played = play(url, tasks, tmp_path, attack, task=SQL_TASK)
    assert played.took_s < RUN_DEADLINE_S
    assert played.returncode == 0 and played.episode.status in ("ok", "wrong")
    secret = host_secret.read_text().split()[-1]
    assert secret not in played.stored and secret not in played.results_json


@pytest.mark.hostile_tools
def test_a_catastrophic_regex_ends_within_the_episode_deadline(
    url: str, tasks: Path, tmp_path: Path
) -> None:
    played = play(url, tasks, tmp_path, "grep-redos", task=SHELL_TASK)  # grep -E '(a+)+b'
    assert played.took_s < RUN_DEADLINE_S
    assert played.episode.status in ("ok", "wrong", "timeout")
