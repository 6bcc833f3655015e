"""`agentbench view` on a database of 10,000 episodes: start-up time and page times.

1. One real run of the whole suite against the reference server (oracle, 24 thinking tokens a
   step) gives the episodes and their transcripts; its transcript size per episode is printed.
2. Its episodes are copied, through ResultStore.add_episode (transcripts included), under new
   run ids until the database holds --episodes episodes.
3. `agentbench view` is started as a subprocess: start-up = process start to the first answered
   request for `/`. Then each page type is fetched 1 + --repeats times over HTTP (loopback):
   the first request (figures computed) and the median and worst of the next ones (a run's
   figures come from the viewer's cache), in milliseconds.

    python benchmarks/view_pages.py [--episodes 10000] [--repeats 5] [--keep DIR]
"""

from __future__ import annotations

import argparse
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import httpx
from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.refserver.app import RefServer, RefServerState
from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore
from agentbench.tasks.loader import load_suite

ROOT = Path(__file__).resolve().parent.parent
TASKS = ROOT / "tasks"


def real_run(db: Path) -> str:
    suite = load_suite(TASKS)
    schedule = Schedule(ttft_s=0.005, rate_tok_s=3000.0, chunks=(1, 3, 2), reasoning_tokens=24)
    with RefServer(RefServerState(suite.tasks, schedule)) as server:
        result = CliRunner().invoke(
            app,
            [
                "run",
                str(TASKS),
                "--base-url",
                server.base_url,
                "--model",
                "oracle",
                "--concurrency",
                "8",
                "--db",
                str(db),
                "--quiet",
                "--note",
                "view benchmark",
            ],
        )
    if result.exit_code != 0:
        sys.exit(f"the reference run failed: {result.output}")
    with ResultStore(db) as store:
        return store.resolve("latest")


def transcript_bytes(db: Path, run_id: str) -> tuple[int, int, int]:
    """(episodes, transcript row bytes, blob bytes) of one run."""
    conn = sqlite3.connect(db)
    episodes = conn.execute("SELECT count(*) FROM episodes WHERE run_id=?", (run_id,)).fetchone()
    rows = conn.execute(
        "SELECT sum(length(record)) FROM transcript_steps WHERE run_id=?", (run_id,)
    ).fetchone()
    blobs = conn.execute("SELECT sum(length(text)) FROM blobs").fetchone()
    conn.close()
    return int(episodes[0]), int(rows[0] or 0), int(blobs[0] or 0)


def fill(db: Path, source: str, target: int) -> list[str]:
    """Copies of `source` under new run ids until the database holds `target` episodes."""
    with ResultStore(db) as store:
        store.conn.execute("PRAGMA synchronous=OFF")  # building the fixture, not measuring it
        run = store.run(source)
        episodes = store.episodes(source, transcripts=True)
        have, ids, n = len(episodes), [source], 0
        while have < target:
            n += 1
            copy = run.model_copy(update={"run_id": f"copy{n:04d}-{source}"})
            store.save_run(copy)
            for e in episodes[: target - have]:
                store.add_episode(e.model_copy(update={"run_id": copy.run_id}))
            have += min(len(episodes), target - have)
            ids.append(copy.run_id)
    return ids


def in_process_start(db: Path) -> float:
    """Seconds from create_app (imports done) to the first answered `/`, served by uvicorn on
    loopback in a thread: the viewer's own start-up, without the CLI's imports."""
    import threading

    import uvicorn

    from agentbench.view import create_app

    started = time.perf_counter()
    config = uvicorn.Config(create_app(db), host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.002)
    port = server.servers[0].sockets[0].getsockname()[1]
    httpx.get(f"http://127.0.0.1:{port}/", timeout=60).raise_for_status()
    elapsed = time.perf_counter() - started
    server.should_exit = True
    thread.join(timeout=10)
    return elapsed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="Build the database here and keep it.")
    args = parser.parse_args()
    workdir = args.keep or Path(tempfile.mkdtemp(prefix="view-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "big.db"
    db.unlink(missing_ok=True)

    t = time.perf_counter()
    source = real_run(db)
    n, rows, blobs = transcript_bytes(db, source)
    print(
        f"reference run {source}: {n} episodes in {time.perf_counter() - t:.1f} s; transcript "
        f"rows {rows / n / 1024:.1f} KiB per episode (mean), blobs (system prompts, tool "
        f"lists) {blobs / 1024:.1f} KiB in all"
    )
    t = time.perf_counter()
    ids = fill(db, source, args.episodes)
    print(
        f"database: {args.episodes} episodes in {len(ids)} runs, {db.stat().st_size / 2**20:.1f}"
        f" MiB, filled in {time.perf_counter() - t:.1f} s"
    )

    with ResultStore(db) as store:
        e = max(store.episodes(source), key=lambda x: len(x.steps))
    last = ids[-1]
    pages = {
        "runs list": "/",
        "runs list, filtered": "/?model=oracle&since=2000-01-01",
        "run": f"/runs/{source}",
        "episode": f"/runs/{source}/episodes/{quote(e.task_id, safe='')}/{e.repeat}",
        "side by side": f"/side?a={source}&b={ids[1]}&task={quote(e.task_id)}&repeat=0",
        "compare (2 runs)": f"/compare?run={source}&run={ids[1]}",
        "plots": f"/runs/{last}/plots",
    }
    print(
        f"start-up in process (create_app to the first answered request): "
        f"{in_process_start(db) * 1000:.0f} ms"
    )
    port = free_port()
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "agentbench.cli.main", "view", "--db", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            while True:
                try:
                    client.get("/").raise_for_status()
                    break
                except httpx.TransportError:
                    if time.perf_counter() - started > 30:
                        sys.exit("the viewer did not start within 30 s")
                    time.sleep(0.01)
            print(
                f"start-up of `agentbench view` (process start to the first answered request): "
                f"{(time.perf_counter() - started) * 1000:.0f} ms"
            )
            print(
                f"| page | first request (ms) | median of the next {args.repeats} (ms) | "
                "worst of those (ms) | bytes |"
            )
            print("| --- | ---: | ---: | ---: | ---: |")
            for name, path in pages.items():
                times, size = [], 0
                for _ in range(args.repeats + 1):
                    t = time.perf_counter()
                    response = client.get(path)
                    times.append((time.perf_counter() - t) * 1000)
                    response.raise_for_status()
                    size = len(response.content)
                first, rest = times[0], times[1:]
                print(
                    f"| {name} | {first:.0f} | {statistics.median(rest):.0f} | "
                    f"{max(rest):.0f} | {size:,} |"
                )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
