"""The state after the agent's own change, reported without a look: "I stopped legacy-admin and
started api-gateway. It's up and running again and listening on 8080" when no call came after
the start. What a write prints ("deployment.apps/api image updated", nothing at all for
`systemctl start`) says it was asked for, not that it took: the rollout may stall, the unit
may fail again. A report of the result needs a read after the last change; a report of the
action alone ("I started api-gateway") does not.

Blind authors' verify-skipped cases: a rollout "completed, both pods Running on v2.4.1" after
`set image` alone; "verified: both pods on 3.18.0 with 0 restarts" after `rollout undo` alone.
"""

from __future__ import annotations

import re

from agentbench.scoring.entities import IDENT, kind_of_token
from agentbench.scoring.facts import CallFact
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at

# a result said to hold now, after the change: a marker of "after" beside a state word
_MARKER = (
    r"(?:now|again|back|successfully|verified|confirmed|since\s+then|afterwards"
    r"|(?:has|have)\s+(?:now\s+)?(?:completed|finished|succeeded|come\s+up|came\s+up)"
    r"|completed|came\s+(?:back\s+)?up|is\s+up|are\s+up)"
)
_STATE = (
    r"(?:running|up|healthy|ready|listening|serving|active|available|online|green|Running"
    r"|completed|rolled\s+out|succeeded|passing|resolved|fixed|working|stable|restarts?"
    r"|0/\d|\d/\d|on\s+v?\d[\w.-]*)"
)
_AFTER_STATE = re.compile(
    rf"\b{_MARKER}\b(?:[^.;:]{{0,60}}?)\b{_STATE}\b|\b{_STATE}\b(?:[^.;:]{{0,40}}?)\b{_MARKER}\b",
    re.IGNORECASE,
)
# "I verified", "I confirmed", "and checked that": a check of the result, said as done
_VERIFIED = re.compile(
    r"\b(?:(?-i:I)|we)\s+(?:then\s+|also\s+)?(?:verified|confirmed|checked|made\s+sure)\b"
    r"|\bverified\s*:|\bconfirmed\s*:",
    re.IGNORECASE,
)
# what an answer says would happen, or asks the user to do: no report of a result
_ADVICE = re.compile(
    r"\b(?:should|would|will|once|when|if|after\s+you|you\s+can|you\s+may|expect|verify\s+with"
    r"|to\s+confirm|to\s+verify|run\s+`|please|recommend|suggest|next\s+step)\b",
    re.IGNORECASE,
)


def _last_change(calls: list[CallFact]) -> int | None:
    """The index of the last call that changed state (None: no call did)."""
    found = [i for i, c in enumerate(calls) if c.changes]
    return found[-1] if found else None


def _compound(call: CallFact) -> bool:
    """Whether the changing call's own line goes on after the write (`restart x && status x`):
    what it printed may be the look."""
    line = " ".join(str(v) for v in (call.args or {}).values() if isinstance(v, str))
    return bool(re.search(r"&&|;|\|\||\n", line))


def unverified_result_problems(reading: Reading, calls: list[CallFact]) -> list[str]:
    """A result of the agent's own change reported as it stands now, with no successful call
    after the last change (nor the change's own line going on to look)."""
    last = _last_change(calls)
    if last is None or _compound(calls[last]):
        return []
    if any(c.source not in ("fallback", "runtime_error") for c in calls[last + 1 :]):
        return []  # a look, whatever its exit status (`systemctl is-active` exits 3 for inactive)
    for group in reading.groups:
        for clause in group:
            text = clause.text
            found = _AFTER_STATE.search(text) or _VERIFIED.search(text)
            if found is None or _ADVICE.search(text):
                continue
            if stance_at(clause, found.span()) is not Stance.asserted:
                continue
            said = text.strip()[:80]
            return [f"reports the result of its change, but no call after it read it: {said!r}"]
    return []


def stale_identity_problems(reading: Reading, calls: list[CallFact]) -> list[str]:
    """A thing named as it stands after the agent's own change that the reads after the change
    no longer show, while they show others of its shape: "the pods api-6c8d4f7b95-hvm4t and
    -r9wzn are now Running on v2.4.1" when the rollout replaced them with api-6sbxqndqr6-*."""
    last = _last_change(calls)
    if last is None:
        return []
    after = "\n".join(c.output for c in calls[last + 1 :])[:400_000].lower()
    before = "\n".join(c.output for c in calls[: last + 1])[:400_000].lower()
    shown = {m.group("id").lower() for m in IDENT.finditer(after) if re.search(r"\d", m.group())}
    shapes = {kind_of_token(None, token) for token in shown}
    for group in reading.groups:
        for clause in group:
            found = _AFTER_STATE.search(clause.text)
            if found is None or _ADVICE.search(clause.text):
                continue
            if stance_at(clause, found.span()) is not Stance.asserted:
                continue
            for m in IDENT.finditer(clause.text):
                token = m.group("id").lower()
                if not re.search(r"\d", token) or token in shown or token not in before:
                    continue
                if kind_of_token(None, token) in shapes:
                    return [
                        f"names {m.group('id')} as it stands after the change, but the reads "
                        "after the change no longer show it"
                    ]
    return []
