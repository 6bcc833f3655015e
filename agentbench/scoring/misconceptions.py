"""Claims of this field that are false whatever the environment holds.

A simulated environment can contradict what it shows; it cannot contradict knowledge. A
strong model's near-misses include confident statements of how a program behaves that are
simply wrong, and an answer built on one misleads whoever follows it: "nginx re-reads its
configuration by itself when the file changes" (it loads configuration at start and on a
reload or SIGHUP only); "`nginx -s reopen` makes it pick up the new configuration" (reopen
re-opens the log files); "raise the memory request, the limit can stay at 64Mi, and it will
no longer be OOM-killed" (the kernel kills at the limit; a request only reserves memory for
scheduling); a 503 is permanent, a client error, or must carry Retry-After (it is a
temporary server condition; Retry-After is optional); a NoSchedule taint evicting running pods;
a restart as the graceful choice over a reload; a client CA bundle fixing an expired server
certificate. Each entry: the statement's patterns
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
    anywhere: bool = False  # the context may stand anywhere in the answer


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
        "a NoSchedule taint evicts running pods",
        _re(
            r"\bNoSchedule\b[^.;\n]{0,80}?\b(?:evicts|evicted|evicting)\b"
            r"|\b(?:the|this|that)\s+taint\s+(?:evicts?|is\s+evicting|kicks)\b"
            r"|\bevict\w*\s+(?:\w+\s+){0,6}?(?:because\s+of|due\s+to|by)\s+(?:the\s+|that\s+|this\s+)?"
            r"(?:[\w./:-]+\s+)?taint\b"
            r"|(?<=taint,\s)so\s+(?:they|the\s+pods?|it)\s+(?:get|got|are|were|is|was)\s+evicted\b"
        ),
        _re(r"\bNoSchedule\b"),
        "a NoSchedule taint only keeps new pods off the node; running pods are evicted by the "
        "kubelet under node pressure (or by a NoExecute taint)",
        anywhere=True,
    ),
    Misconception(
        "a restart is graceful and a reload drops connections",
        _re(
            # the words between are the restart's (or the reload's) own: "restart nginx  # or:
            # reload to pick up the config without dropping connections" praises the reload
            r"\brestart\w*\b(?:(?!reload)[^.;\n]){0,80}?\b(?:gracefully|without\s+dropping|in-?flight\s+"
            r"(?:connections|requests)\s+finish|finish\w*\s+(?:the\s+)?in-?flight)"
            r"|\breload\w*`?\s(?:(?!restart)[^.;\n]){0,60}?\b(?:drops?|kills?|cuts?|terminates?)\s+(?:all\s+|open\s+|"
            r"active\s+|existing\s+|in-?flight\s+)*(?:connections|requests|them)\b"
        ),
        None,
        "a reload re-reads the configuration and lets in-flight requests finish (nginx starts "
        "new workers); a restart stops the process and drops open connections",
    ),
    Misconception(
        "a client's CA bundle fixes an expired server certificate",
        _re(
            r"\b(?:refresh|update|renew|replace|re-?install)\w*\s+(?:the\s+)?(?:client\w*\W+)?"
            r"(?:CA\s+bundles?|trust\s*stores?|ca-certificates|root\s+CAs?)"
            r"|\bupdate-ca-certificates\b"
        ),
        _re(r"\bexpired\b"),
        "an expired certificate stays expired whatever the clients trust; the server's "
        "certificate must be renewed",
        anywhere=True,
    ),
    Misconception(
        "a 503 is permanent",
        _re(
            r"\b(?:503|unavailable|it|this|that|the\s+(?:error|condition|status|response))\b"
            r"[^.;\n]{0,60}?\bpermanent(?:ly)?\b"
            r"(?!\s+(?:fix|solution|remedy|change|resolution|workaround))"
        ),
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
    whole = "\n".join(reading.sentence(s)[:4_000] for s in range(len(reading.groups)))
    for s in range(len(reading.groups)):
        sentence = reading.sentence(s)[:4_000]
        for entry in MISCONCEPTIONS:
            m = entry.said.search(sentence)
            about = whole if entry.anywhere else sentence
            if m is None or (entry.context is not None and not entry.context.search(about)):
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
