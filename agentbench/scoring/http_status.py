"""HTTP status codes given another code's meaning: "503 Bad Gateway", "a 503 is a client error".

A status code's reason phrase and class are fixed by RFC 9110 (and RFC 6585 for 429). An
answer that writes a code beside the reason phrase of another code ("503 (Bad Gateway)",
"Gateway Timeout (502)") or puts a code in the wrong class ("503 is a client error", "the
404 is a server-side failure") states something false whatever the task. Phrases are matched
in their common spellings; a code the clause denies or hedges is not stated. A sentence about
one code that defines it by another's meaning (504's "no timely response from upstream" for a
503) or names another header for a 503's or a 429's wait than Retry-After is false too.
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
    _CODE + r"(?:\s+[\"'“”]?[\w-]+[\"'”]?){0,3}?\s+(?:is|are|means|=|indicates|signals)\s+"
    r"(?:an?\s+|the\s+)?(?P<side>client|server)(?:-side)?\s+(?:error|failure|fault|problem)",
    re.IGNORECASE,
)


# what a code means, in the words a definition uses; a sentence about one code alone that
# gives another's meaning ("503 ... a gateway did not receive a timely response") is false
_MEANINGS: dict[int, re.Pattern[str]] = {
    504: re.compile(
        r"\b(?:did\s+not|didn.t|does\s+not|doesn.t|failed\s+to|never)\s+(?:receive|get)\s+"
        r"(?:a\s+)?(?:timely|prompt|an?\s+in-time)\s+response"
        r"|\bupstream\b[^.;]{0,30}\b(?:timed?\s*out|did\s*n.t\s+(?:respond|answer)\s+in\s+time)",
        re.IGNORECASE,
    ),
    502: re.compile(r"\binvalid\s+response\s+from\s+(?:the\s+|an?\s+)?upstream", re.IGNORECASE),
}
# the header a 503 or a 429 names the wait in is Retry-After
_RETRY_HEADER = re.compile(
    r"\b(?:retry|try\s+again|come\s+back|wait)\w*\b[^.;]{0,60}?\b(?:with|via|using|in|through|"
    r"by)\s+(?:an?\s+|the\s+)?[`\"']?(?P<header>Expires|Cache-Control|Last-Modified|Age|"
    r"Keep-Alive|Date|Location|Refresh)[`\"']?\s+header"
    r"|\b[`\"']?(?P<header2>Expires|Cache-Control|Last-Modified|Age|Keep-Alive|Refresh)[`\"']?"
    r"\s+header\b[^.;]{0,50}\b(?:when|how\s+long|retry|try\s+again)",
    re.IGNORECASE,
)
_ANY_CODE = re.compile(_CODE)


def _meaning_problem(whole: Clause) -> str:
    codes = {int(m.group("code")) for m in _ANY_CODE.finditer(whole.text)}
    codes = {c for c in codes if 400 <= c < 600}  # 110 is an errno, 200 no failure
    if len(codes) != 1:
        return ""
    code = codes.pop()
    for other, meaning in _MEANINGS.items():
        m = meaning.search(whole.text)
        if other != code and m and stance_at(whole, m.span()) is Stance.asserted:
            return f"gives {code} the meaning of {other} ({m.group()!r})"
    h = _RETRY_HEADER.search(whole.text)
    if code in (429, 503) and h and stance_at(whole, h.span()) is Stance.asserted:
        name = h.group("header") or h.group("header2")
        return f"names {name} as {code}'s retry hint (that header is Retry-After)"
    return ""


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
        problem = _meaning_problem(whole)
        if problem:
            return [problem]
    return []


# a status code as an answer names it: "HTTP 503", "status 429", "returns 503", "503 Service ..."
_SAID_CODE = re.compile(
    r"\b(?:HTTP(?:/[\d.]+)?|status(?:\s+code)?|code|returns?|returned|answer(?:s|ed)?|with)"
    r"\W{0,3}(?P<a>[45]\d\d)\b|(?<![\w.:/-])(?P<b>[45]\d\d)\s+(?:" + _ANY_PHRASE + r")\b",
    re.IGNORECASE,
)
# a name written as an identifier ("es-data-1", "search-api-7c9f6d5b8-2kqzv")
_IDENTIFIER = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w/-])")
# where a clause turns to another subject: "… from es-data-1 and the API answers 503"
_JOIN = re.compile(r"\s(?:and|but|while|whereas|so|then)\s|[,;]\s", re.IGNORECASE)
# a status code as a log or a response line prints it: "failed: 429 circuit_breaking", " 503 ("
_PRINTED_CODE = re.compile(r"(?:^|[\s:=\"'(])([45]\d\d)(?=[\s)\"',]|$)")


def status_party_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """A status code said of a name whose own output lines print another code, while the code
    said is printed only on lines that do not name it: "es-data-1 rejects searches with HTTP
    503" where each line naming es-data-1 prints 429 and the 503 is what the API answered its
    own client on another line."""
    lines = [line for o in outputs for line in o[:400_000].splitlines()[:5_000]]
    if not lines:
        return []
    for s, group in enumerate(reading.groups):
        for c, clause in enumerate(group):
            codes = [
                (m, int(m.group("a") or m.group("b"))) for m in _SAID_CODE.finditer(clause.text)
            ]
            if not codes:
                continue
            declared = {
                n
                for _, _, k in reading.mentions[s][c]
                for n in reading.entities.by_key[k].names
                if len(n) >= 4
            }
            for m, code in codes:
                # the names of the code's own part of the clause: "fails with 429 from
                # es-data-1 and the API answers 503" gives the 503 to the API
                starts = [j.end() for j in _JOIN.finditer(clause.text, 0, m.start())]
                after = _JOIN.search(clause.text, m.end())
                part = clause.text[starts[-1] if starts else 0 : after.start() if after else None]
                names = {n for n in declared if n in part} | set(_IDENTIFIER.findall(part))
                own = [line for line in lines if any(n in line for n in names)]
                printed = {int(x) for line in own for x in _PRINTED_CODE.findall(line)}
                if not printed or code in printed:
                    continue
                elsewhere = any(str(code) in _PRINTED_CODE.findall(line) for line in lines)
                if not elsewhere or stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                shown = ", ".join(str(x) for x in sorted(printed))
                return [
                    f"says {code} of {', '.join(sorted(names))[:60]}; the lines naming it print "
                    f"{shown}, and {code} is printed only on lines that do not"
                ]
    return []
