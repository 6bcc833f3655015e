"""Transcripts, stored compactly: what each step sent and the raw parts of what came back.

A step's request messages extend the previous step's, so each row keeps only the messages that
are new (`prefix`: how many of the previous request's messages it starts with, `new`: the rest).
System prompts and tool lists are content-addressed in `blobs` (sha256), so a run's system
prompt and tool schemas are stored once, whatever the number of steps and episodes.
docs/transcripts.md describes the format. Headers never reach a transcript: the request record
holds the body the agent built, not the HTTP exchange.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from agentbench.records import TRANSCRIPT_FIELDS, RequestRecord, StepRecord, ToolFragmentRecord

TABLES = """
CREATE TABLE IF NOT EXISTS blobs (
    hash TEXT PRIMARY KEY,
    text TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS transcript_steps (
    run_id  TEXT NOT NULL,
    task_id TEXT NOT NULL,
    repeat  INTEGER NOT NULL,
    step    INTEGER NOT NULL,
    record  TEXT NOT NULL,
    PRIMARY KEY (run_id, task_id, repeat, step)
);
"""

Row = tuple[str, str, int, int, str]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _common_prefix(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def compact(steps: list[StepRecord]) -> tuple[list[tuple[str, str]], list[tuple[int, str]]]:
    """(blobs to store as (hash, text), rows as (step index, record JSON)) for an episode."""
    blobs: dict[str, str] = {}
    rows: list[tuple[int, str]] = []
    previous: list[dict[str, Any]] = []
    for step in steps:
        row: dict[str, Any] = {
            "tool_call_fragments": [
                f.model_dump(exclude_none=True) for f in step.tool_call_fragments
            ],
            "usage": step.usage,
        }
        if step.request is not None:
            request = step.request.model_dump()
            messages = request.pop("messages")
            prefix = _common_prefix(previous, messages)
            new = []
            for m in messages[prefix:]:
                if m.get("role") == "system" and isinstance(m.get("content"), str):
                    h = digest(m["content"])
                    blobs[h] = m["content"]
                    m = {**{k: v for k, v in m.items() if k != "content"}, "content_ref": h}
                new.append(m)
            tools = request.pop("tools")
            if tools is not None:
                text = json.dumps(tools, sort_keys=True)
                blobs[digest(text)] = text
                request["tools_ref"] = digest(text)
            row["request"] = {**request, "prefix": prefix, "new": new}
            previous = messages
        rows.append((step.index, json.dumps(row)))
    return list(blobs.items()), rows


def expand(records: list[str], blobs: dict[str, str]) -> list[dict[str, Any]]:
    """The rows of one episode (in step order) back as the transcript fields of each step."""
    out: list[dict[str, Any]] = []
    previous: list[dict[str, Any]] = []
    for record in records:
        row = json.loads(record)
        request = row.pop("request", None)
        if request is not None:
            messages = previous[: request.pop("prefix")]
            for m in request.pop("new"):
                ref = m.pop("content_ref", None)
                if ref is not None:
                    m["content"] = blobs[ref]
                messages.append(m)
            tools_ref = request.pop("tools_ref", None)
            request["tools"] = json.loads(blobs[tools_ref]) if tools_ref else None
            row["request"] = RequestRecord(messages=messages, **request)
            previous = messages
        row["tool_call_fragments"] = [
            ToolFragmentRecord(**f) for f in row.get("tool_call_fragments", [])
        ]
        out.append(row)
    return out


def write(
    conn: sqlite3.Connection, run_id: str, task_id: str, repeat: int, steps: list[StepRecord]
) -> None:
    """Store an episode's transcript (inside the caller's transaction), replacing an earlier one."""
    blobs, rows = compact(steps)
    conn.execute(
        "DELETE FROM transcript_steps WHERE run_id=? AND task_id=? AND repeat=?",
        (run_id, task_id, repeat),
    )
    conn.executemany("INSERT OR IGNORE INTO blobs(hash, text) VALUES (?,?)", blobs)
    conn.executemany(
        "INSERT INTO transcript_steps(run_id, task_id, repeat, step, record) VALUES (?,?,?,?,?)",
        [(run_id, task_id, repeat, i, r) for i, r in rows],
    )


def read(conn: sqlite3.Connection, run_id: str, task_id: str, repeat: int) -> list[dict[str, Any]]:
    """An episode's transcript fields per step (empty when none was stored: older runs)."""
    records = [
        str(r[0])
        for r in conn.execute(
            "SELECT record FROM transcript_steps WHERE run_id=? AND task_id=? AND repeat=? "
            "ORDER BY step",
            (run_id, task_id, repeat),
        )
    ]
    refs = {ref for r in records for ref in _refs(r)}
    blobs: dict[str, str] = {}
    if refs:
        marks = ",".join("?" * len(refs))
        blobs = dict(
            conn.execute(
                f"SELECT hash, text FROM blobs WHERE hash IN ({marks})", tuple(refs)
            ).fetchall()
        )
    return expand(records, blobs)


def _refs(record: str) -> list[str]:
    request = json.loads(record).get("request") or {}
    refs = [m["content_ref"] for m in request.get("new", []) if "content_ref" in m]
    return refs + ([request["tools_ref"]] if request.get("tools_ref") else [])


def attach(steps: list[StepRecord], transcript: list[dict[str, Any]]) -> None:
    """Put an episode's stored transcript fields back on its steps."""
    for step, fields in zip(steps, transcript, strict=False):
        for name in TRANSCRIPT_FIELDS:
            if name in fields and fields[name] is not None:
                setattr(step, name, fields[name])
