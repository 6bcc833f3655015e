"""HTTP status codes given another code's meaning: "503 Bad Gateway", "a 503 is a client error".

A status code's reason phrase and class are fixed by RFC 9110 (and RFC 6585 for 429). An
answer that writes a code beside the reason phrase of another code ("503 (Bad Gateway)",
"Gateway Timeout (502)") or puts a code in the wrong class ("503 is a client error", "the
404 is a server-side failure") states something false whatever the task. Phrases are matched
in their common spellings; a code the clause denies or hedges is not stated.
"""

from __future__ import annotations

import re

from agentbench.scoring.claims import Clause
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at

_PHRASES: dict[int, str] = {
    400: r"bad\s+request",
    401: r"unauthori[sz]ed",
    403: r"forbidden",
    404: r"not\s+found",
    405: r"method\s+not\s+allowed",
    408: r"request\s+time-?out",
    409: r"conflict",
    413: r"(?:payload|request\s+entity|content)\s+too\s+large",
    429: r"too\s+many\s+requests",
    500: r"internal\s+server\s+error",
    501: r"not\s+implemented",
    502: r"bad\s+gateway",
    503: r"service\s+(?:temporarily\s+)?unavailable",
    504: r"gateway\s+time-?out",
}
_CODE = r"(?<![\w.:/-])(?P<code>[1-5]\d\d)(?![\w.:/%-])"
_ANY_PHRASE = "|".join(f"(?P<p{code}>{p})" for code, p in _PHRASES.items())
_BESIDE = re.compile(
    _CODE + r"\s*(?:\(|:|-|–|—|=)?\s*[\"'“]?(?:" + _ANY_PHRASE + r")\b"
    r"|\b(?:"
    + _ANY_PHRASE.replace("?P<p", "?P<q")
    + r")[\"'”]?\s*[(:–—-]?\s*"
    + _CODE.replace("code", "after")
    + r"\)?",
    re.IGNORECASE,
)
_CLASS = re.compile(
    _CODE
    + r"(?:\s+[\"'“”]?[\w-]+[\"'”]?){0,3}?\s+(?:is|are|means|=|indicates|signals)\s+"
    r"(?:an?\s+|the\s+)?(?P<side>client|server)(?:-side)?\s+(?:error|failure|fault|problem)",
    re.IGNORECASE,
)


def _named(match: re.Match[str], prefix: str) -> int | None:
    for code in _PHRASES:
        if match.group(f"{prefix}{code}"):
            return code
    return None


def status_problems(reading: Reading) -> list[str]:
    """Why a status code is given another code's meaning (module docstring; empty: none is)."""
    for group in reading.groups:
        if not group:
            continue  # a table row of empty cells
        # "503 (Bad Gateway)" is one sentence's two clauses: read the sentence whole
        whole = Clause(text=group[0].sentence or " ".join(c.text for c in group))
        for m in _BESIDE.finditer(whole.text):
            code = int(m.group("code") or m.group("after"))
            meant = _named(m, "p") if m.group("code") else _named(m, "q")
            if meant is None or meant == code or code not in _PHRASES:
                continue
            if stance_at(whole, m.span()) is Stance.asserted:
                return [f"calls {code} {m.group().strip()!r}: that is {meant}'s meaning"]
        for m in _CLASS.finditer(whole.text):
            code, side = int(m.group("code")), m.group("side").lower()
            wrong = (side == "client" and code >= 500) or (side == "server" and code < 500)
            if wrong and 400 <= code < 600 and stance_at(whole, m.span()) is Stance.asserted:
                return [f"calls {code} a {side} error"]
    return []
