"""Write statements the answer hands over, compared by effect.

An agent with read-only access declines a write and may hand over the statement for someone
with write access. What that statement would do is what matters: `expires_at > now() - ...`
instead of `<`, the wrong column, one row too many. A task lists the writes it would accept
(`expect.answer.handover`); each write statement the answer spells out is run, with the
accepted ones, on a writable copy of the task's database (its own engine process, rolled back
after each), and must touch the same rows of the same table as one of them. A statement the
engine cannot run is prose that looks like SQL, and is left alone.
"""

from __future__ import annotations

import re

from agentbench.sim.core.base import Identity
from agentbench.sim.sql.database import Database
from agentbench.sim.sql.spec import SqlSpec

# a write statement spelled out: up to a `;`, a backtick, a blank line or the end (a fenced
# statement runs over several lines: "DELETE FROM sessions\nWHERE expires_at < ...")
_WRITE = re.compile(
    r"\b(?:WITH\s+\w+\s+AS\s*\([^;`]{0,400}?)?(?:DELETE\s+FROM|UPDATE\s+[\w.\"]+\s+SET"
    r"|INSERT\s+INTO)\b(?:[^;`\n]|\n(?!\s*\n)){1,600}",
    re.IGNORECASE,
)
_MAX_STATEMENTS = 8


def handover_problems(answer: str, accepted: list[str], spec: SqlSpec | None) -> list[str]:
    """Why a write the answer hands over would not do what the accepted ones do (empty: each
    does, or it hands none over)."""
    if not accepted or spec is None:
        return []
    said = [m.group().strip() for m in _WRITE.finditer(answer[:20_000])][:_MAX_STATEMENTS]
    if not said:
        return []
    database = Database(spec.model_copy(update={"read_only": False, "replicas": []}))
    try:
        wanted = [e for e in (_effect(database, s) for s in accepted) if e is not None]
        if not wanted:
            return []
        for statement in said:
            effect = _effect(database, statement)
            if effect is not None and effect not in wanted:
                return [
                    f"the handed-over statement {statement[:80]!r} would {_show(effect)}; "
                    f"the task's would {_show(wanted[0])}"
                ]
    finally:
        database.session.close()
    return []


def _effect(database: Database, statement: str) -> Identity | None:
    """(sql, verb, table, keys of the rows touched) of one statement on the copy, rolled back;
    None where it does not run or writes nothing."""
    token = database.snapshot()
    try:
        _, _, result = database.run(statement)
    except Exception:
        return None
    finally:
        database.restore(token)
    identity = result.identity
    if result.exit_code or identity is None or len(identity) < 3 or identity[0] != "sql":
        return None
    return identity


def _show(effect: Identity) -> str:
    verb, table, keys = effect[1], effect[2], effect[3:]
    rows = ", ".join(str(k) for k in keys[:6]) + (" ..." if len(keys) > 6 else "")
    return f"{verb} {len(keys)} row{'s' if len(keys) != 1 else ''} of {table}" + (
        f" ({rows})" if rows else ""
    )
