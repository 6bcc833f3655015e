"""Claims of this field that are false whatever the environment holds.

A simulated environment can contradict what it shows; it cannot contradict knowledge. A
strong model's near-misses include confident statements of how a program behaves that are
simply wrong, and an answer built on one misleads whoever follows it: "nginx re-reads its
configuration by itself when the file changes" (it loads configuration at start and on a
reload or SIGHUP only); "`nginx -s reopen` makes it pick up the new configuration" (reopen
re-opens the log files); "raise the memory request, the limit can stay at 64Mi, and it will
no longer be OOM-killed" (the kernel kills at the limit; a request only reserves memory for
scheduling); a 503 is permanent, a client error, or must carry Retry-After (it is a
temporary server condition; Retry-After is optional). Each entry: the statement's patterns
(one sentence), and the correction the failure names. A statement the sentence denies,
hedges or sets aside is not made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentbench.scoring.claims import clause_span
from agentbench.scoring.reading import Reading


@dataclass(frozen=True)
class Misconception:
    name: str
    said: re.Pattern[str]  # the statement, within one sentence
    context: re.Pattern[str] | None  # what the sentence must also be about
    correction: str


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


MISCONCEPTIONS = (
    Misconception(
        "nginx reloads changed configuration by itself",
        _re(
            r"\b(?:watch(?:es|ing)?|re-?reads?|reloads?|picks?\s+up|detects?|applies)\b"
            r"[^.\n]{0,80}?\b(?:automatically|by\s+itself|on\s+its\s+own|without\s+(?:a\s+)?"
            r"(?:reload|restart|signal))\b"
        ),
        _re(r"\bnginx\b"),
        "nginx loads its configuration at start and on a reload (SIGHUP, `nginx -s reload`)",
    ),
    Misconception(
        "nginx's reopen signal loads new configuration",
        _re(
            r"(?:-s\s*`?\s*reopen|\breopen\s+signal|\bSIGUSR1)\b[^.\n]{0,80}?\b(?:pick\w*\s+up"
            r"|load\w*|reload\w*|appl\w*|re-?read\w*)\b[^.\n]{0,40}?\bconfig"
        ),
        None,
        "`nginx -s reopen` (SIGUSR1) re-opens the log files; `nginx -s reload` loads config",
    ),
    Misconception(
        "a higher memory request, the limit unchanged, stops OOM kills",
        _re(
            r"\blimits?\b[^.\n]{0,30}?\b(?:can|could|may|should)\s+(?:stay|remain)\b"
            r"|\b(?:keep|leave)\s+(?:the\s+)?(?:memory\s+)?limits?\b"
            r"|\blimits?\s+(?:unchanged|as\s+(?:is|it\s+is))\b"
        ),
        _re(
            r"\brequests?\b[^.\n]{0,60}?\b(?:raise|increase|bump|set|to)\b|\b(?:raise|increase"
            r"|bump)\w*\s+(?:the\s+)?(?:`[^`]*)?(?:memory\s+)?requests?\b"
        ),
        "the kernel OOM-kills at the memory limit; a request only reserves memory for scheduling",
    ),
    Misconception(
        "a 503 is permanent",
        _re(r"\bpermanent(?:ly)?\b|\b(?:give\s+up|stop\s+retrying)\b"),
        _re(r"\b503\b|\bservice\s+unavailable\b"),
        "503 Service Unavailable is a temporary condition; a client may retry later",
    ),
    Misconception(
        "a 503 is a client error",
        _re(
            r"\b503\b[^.\n]{0,60}?\b(?:is|are|was|means?|indicates?|signals?)\s+(?:an?\s+)?"
            r"(?:4xx|4\d\d|client(?:-side)?)\b"
        ),
        None,
        "503 is a 5xx server error: the server is unable to handle the request",
    ),
    Misconception(
        "a 503 must carry Retry-After",
        _re(
            r"\bRetry-After\b[^.\n]{0,60}?\b(?:is\s+(?:required|mandatory)|must\s+(?:be\s+)?"
            r"(?:sent|included|present|set))\b|\bmust\s+(?:include|send|set|return)\s+(?:an?\s+)?"
            r"`?Retry-After\b"
        ),
        None,
        "a server may send Retry-After with a 503 (RFC 9110); it is not required",
    ),
)


def misconception_problems(reading: Reading) -> list[str]:
    """Why the answer states a claim of this field that is false (module docstring; empty:
    it states none)."""
    for s in range(len(reading.groups)):
        sentence = reading.sentence(s)[:4_000]
        for entry in MISCONCEPTIONS:
            m = entry.said.search(sentence)
            if m is None or (entry.context is not None and not entry.context.search(sentence)):
                continue
            if not _asserted(sentence, m.start(), m.end()):
                continue
            return [f"states that {entry.name}: {entry.correction}"]
    return []


# a statement denied, doubted, set aside or named as a myth is not made
_DENIED = re.compile(
    r"\b(?:not|no|never|nor|cannot|can't|won't|doesn't|don't|isn't|aren't|didn't|myth|"
    r"misconception|wrong(?:ly)?|false|incorrect|contrary|unlike|rather\s+than|instead\s+of|"
    r"if|whether|might|may|maybe|perhaps|unless)\b|n't\b",
    re.IGNORECASE,
)


def _asserted(sentence: str, start: int, end: int) -> bool:
    """Whether the statement at [start, end) is made: no denial, doubt or condition in it or
    before it in its clause (`clause_span`), and the sentence asks nothing."""
    lo, _ = clause_span(sentence, start, end)
    return not _DENIED.search(sentence[lo:end]) and not sentence.rstrip().endswith("?")
