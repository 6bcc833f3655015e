"""SQLite result store: one transaction per finished episode, so a crash loses only what was in
flight. WAL mode lets several runs write to the same database file at once.

The database carries the results contract's version (records.SCHEMA_VERSION) as SQLite's
`user_version`: a database written by a newer agentbench is refused with one line.

Secrets handed to `redact` (API keys, header values) are blanked out of every record before it
is written, wherever they turn up (a server echoing a key in an error body, a tool output)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from agentbench.errors import ConfigError, StorageError
from agentbench.records import SCHEMA_VERSION, TRANSCRIPT_FIELDS, EpisodeResult, RunRecord
from agentbench.store import transcripts

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id     TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    kind       TEXT NOT NULL,
    status     TEXT NOT NULL,
    record     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS episodes (
    run_id   TEXT NOT NULL REFERENCES runs(run_id),
    task_id  TEXT NOT NULL,
    repeat   INTEGER NOT NULL,
    category TEXT NOT NULL,
    status   TEXT NOT NULL,
    score    REAL,
    record   TEXT NOT NULL,
    PRIMARY KEY (run_id, task_id, repeat)
);
CREATE TABLE IF NOT EXISTS bench_results (
    run_id   TEXT NOT NULL REFERENCES runs(run_id),
    seq      INTEGER NOT NULL,
    record   TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
"""


REDACTED = "[redacted]"


class ResultStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._secrets: tuple[str, ...] = ()
        try:
            self.conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA busy_timeout=30000")
            self.conn.executescript(SCHEMA + transcripts.TABLES)
            self.schema_version = self._schema_version()
        except sqlite3.DatabaseError as exc:
            raise ConfigError(f"{self.path}: not a usable agentbench database ({exc})") from exc

    def _schema_version(self) -> int:
        """The database's results-contract version; stamps a new (or pre-versioning) database."""
        found = int(self.conn.execute("PRAGMA user_version").fetchone()[0])
        if found > SCHEMA_VERSION:
            self.conn.close()
            raise ConfigError(
                f"{self.path}: written with results schema version {found}, this agentbench "
                f"reads up to {SCHEMA_VERSION}; upgrade agentbench or use another --db"
            )
        if found < SCHEMA_VERSION:
            self.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        return SCHEMA_VERSION

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def redact(self, secrets: Iterable[str]) -> None:
        """Blank these values out of everything this store writes from now on."""
        # records are written as JSON, where a value only ever appears JSON-escaped
        forms = {json.dumps(s)[1:-1] for s in secrets if s}
        self._secrets = tuple(sorted(forms, key=len, reverse=True))

    def _scrub(self, text: str) -> str:
        """`text` (a record as JSON) with every secret replaced; it stays valid JSON, as only the
        escaped form, found inside a string, is replaced."""
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text

    def _write(self, sql: str, params: tuple[Any, ...], also: Any = None) -> None:
        """One transaction: `sql`, then `also(conn)` when given; retried while locked."""
        for attempt in range(5):
            try:
                with self.conn:
                    self.conn.execute("BEGIN IMMEDIATE")
                    self.conn.execute(sql, params)
                    if also is not None:
                        also(self.conn)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 4:
                    raise StorageError(
                        f"{self.path}: cannot store results ({exc}); what was stored before is "
                        "kept — free disk space, then resume the run with --resume"
                    ) from exc
                time.sleep(0.2 * (attempt + 1))
            except sqlite3.DatabaseError as exc:
                raise StorageError(f"{self.path}: cannot store results ({exc})") from exc

    def save_run(self, run: RunRecord) -> None:
        self._write(
            "INSERT INTO runs(run_id, created_at, kind, status, record) VALUES (?,?,?,?,?) "
            "ON CONFLICT(run_id) DO UPDATE SET status=excluded.status, record=excluded.record",
            (run.run_id, run.created_at, run.kind, run.status, self._scrub(run.model_dump_json())),
        )

    def add_episode(self, episode: EpisodeResult) -> None:
        """Commit one finished episode and its transcript (replacing an earlier attempt at the
        same key); the transcript fields go to the transcript tables, not the episode row."""
        if self._secrets:
            text = episode.model_dump_json()
            if self._scrub(text) != text:
                episode = EpisodeResult.model_validate_json(self._scrub(text))

        def transcript(conn: sqlite3.Connection) -> None:
            transcripts.write(conn, episode.run_id, episode.task_id, episode.repeat, episode.steps)

        self._write(
            "INSERT OR REPLACE INTO episodes(run_id, task_id, repeat, category, status, score, "
            "record) VALUES (?,?,?,?,?,?,?)",
            (
                episode.run_id,
                episode.task_id,
                episode.repeat,
                episode.category,
                episode.status,
                episode.score,
                episode.model_dump_json(exclude={"steps": {"__all__": set(TRANSCRIPT_FIELDS)}}),
            ),
            transcript,
        )

    def add_bench_result(self, run_id: str, seq: int, record: dict[str, Any]) -> None:
        self._write(
            "INSERT OR REPLACE INTO bench_results(run_id, seq, record) VALUES (?,?,?)",
            (run_id, seq, self._scrub(json.dumps(record))),
        )

    def bench_results(self, run_id: str) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT record FROM bench_results WHERE run_id=? ORDER BY seq", (run_id,)
        )
        return [json.loads(r[0]) for r in rows]

    def run(self, run_id: str) -> RunRecord:
        resolved = self.resolve(run_id)
        row = self.conn.execute("SELECT record FROM runs WHERE run_id=?", (resolved,)).fetchone()
        return RunRecord.model_validate_json(row[0])

    def resolve(self, run_id: str, kind: str | None = None) -> str:
        """`latest` -> the newest run's id; a unique id prefix -> the full id."""
        where, params = ("", ()) if kind is None else (" WHERE kind=?", (kind,))
        if run_id == "latest":
            row = self.conn.execute(
                f"SELECT run_id FROM runs{where} ORDER BY created_at DESC, rowid DESC LIMIT 1",
                params,
            ).fetchone()
            if row is None:
                raise ConfigError(f"{self.path} holds no runs yet; run `agentbench run` first")
            return str(row[0])
        rows = self.conn.execute(
            "SELECT run_id FROM runs WHERE run_id = ? OR (run_id LIKE ? ESCAPE '\\' AND NOT EXISTS "
            "(SELECT 1 FROM runs WHERE run_id = ?))",
            (run_id, _like(run_id) + "%", run_id),
        ).fetchall()
        if not rows:  # a short id: the unique end of a run id (see short_ids)
            rows = self.conn.execute(
                "SELECT run_id FROM runs WHERE run_id LIKE ? ESCAPE '\\'", ("%" + _like(run_id),)
            ).fetchall()
        if len(rows) == 1:
            return str(rows[0][0])
        if not rows:
            raise ConfigError(f"no run '{run_id}' in {self.path}; `agentbench runs` lists them")
        raise ConfigError(f"run id prefix '{run_id}' is ambiguous in {self.path}")

    def latest_unfinished(self, kind: str = "run") -> str | None:
        """The newest run of `kind` that did not complete (running, interrupted, failed)."""
        row = self.conn.execute(
            "SELECT run_id FROM runs WHERE kind=? AND status != 'complete' "
            "ORDER BY created_at DESC, rowid DESC LIMIT 1",
            (kind,),
        ).fetchone()
        return None if row is None else str(row[0])

    def runs(self, kind: str | None = None) -> list[RunRecord]:
        sql, params = "SELECT record FROM runs", tuple[str, ...]()
        if kind:
            sql, params = sql + " WHERE kind=?", (kind,)
        rows = self.conn.execute(sql + " ORDER BY created_at, rowid", params)
        return [RunRecord.model_validate_json(r[0]) for r in rows]

    def iter_episodes(self, run_id: str, transcripts: bool = False) -> Iterator[EpisodeResult]:
        """A run's episodes; with `transcripts`, each step's request and raw stream parts too."""
        rows = self.conn.execute(
            "SELECT record FROM episodes WHERE run_id=? ORDER BY task_id, repeat", (run_id,)
        )
        for (record,) in rows:
            episode = EpisodeResult.model_validate_json(record)
            if transcripts:
                self.attach_transcript(episode)
            yield episode

    def episodes(self, run_id: str, transcripts: bool = False) -> list[EpisodeResult]:
        return list(self.iter_episodes(run_id, transcripts))

    def episode(self, run_id: str, task_id: str, repeat: int) -> EpisodeResult | None:
        """One episode with its transcript; None when the run has no such episode."""
        row = self.conn.execute(
            "SELECT record FROM episodes WHERE run_id=? AND task_id=? AND repeat=?",
            (run_id, task_id, repeat),
        ).fetchone()
        if row is None:
            return None
        episode = EpisodeResult.model_validate_json(row[0])
        self.attach_transcript(episode)
        return episode

    def episode_count(self, run_id: str) -> int:
        row = self.conn.execute("SELECT count(*) FROM episodes WHERE run_id=?", (run_id,))
        return int(row.fetchone()[0])

    def runs_with_task(self, task_id: str) -> list[str]:
        """Ids of the runs holding an episode of `task_id`, newest first."""
        rows = self.conn.execute(
            "SELECT DISTINCT e.run_id FROM episodes e JOIN runs r ON r.run_id = e.run_id "
            "WHERE e.task_id=? ORDER BY r.created_at DESC",
            (task_id,),
        )
        return [str(r[0]) for r in rows]

    def attach_transcript(self, episode: EpisodeResult) -> None:
        stored = transcripts.read(self.conn, episode.run_id, episode.task_id, episode.repeat)
        transcripts.attach(episode.steps, stored)

    def done_keys(self, run_id: str) -> set[tuple[str, int]]:
        """Episodes already finished (any status but an unscored backend error)."""
        rows = self.conn.execute(
            "SELECT task_id, repeat FROM episodes WHERE run_id=? AND status NOT LIKE "
            "'backend_error%'",
            (run_id,),
        )
        return {(str(t), int(r)) for t, r in rows}


def check_database(path: Path, flag: str = "--db") -> None:
    """Refuse, with one line and without writing to it, a file that is not an agentbench
    results database (a text file, another program's SQLite file)."""
    try:
        with path.open("rb") as f:
            header = f.read(16)
    except OSError as exc:
        raise ConfigError(f"{flag} {path}: cannot read it ({exc.strerror})") from exc
    if header != b"SQLite format 3\x00":
        raise ConfigError(
            f"{flag} {path}: not a usable agentbench database (not SQLite); give another path"
        )
    try:
        conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, timeout=30)
        try:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise ConfigError(f"{flag} {path}: not a usable agentbench database ({exc})") from exc
    if not {"runs", "episodes"} <= names:
        raise ConfigError(
            f"{flag} {path}: not a usable agentbench database (a SQLite file without its "
            "tables); give another path"
        )


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def short_ids(run_ids: list[str], minimum: int = 6) -> dict[str, str]:
    """Each run id's shortest unique ending (at least `minimum` characters), like git's short
    hashes; `resolve` accepts it. Run ids end in random hex, so 6 characters nearly always do."""
    out: dict[str, str] = {}
    for run_id in run_ids:
        n = min(minimum, len(run_id))
        while n < len(run_id) and sum(r.endswith(run_id[-n:]) for r in run_ids) > 1:
            n += 1
        out[run_id] = run_id[-n:]
    return out
