"""What the answer quotes, held against what the tools printed.

A model quotes an error to say what the system said: `'too many connections for role postgres'`.
A quote that is nearly a line of a tool output, one or two words changed, is a misquote: the
changed word is usually the fact (the role, the port, the path). Quotes that match an output
word for word (spacing, case and quote marks aside) pass, and so do quotes of nothing printed
(a config value the agent proposes, a phrase of its own): only a near-copy is held against its
line. A quote that is a program's own message (`curl: (60) SSL certificate problem: …`) is
what that program printed: when no call ran the program and no output holds the quote, the
quote is of a run that never happened.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r'"([^"\n]{12,300})"|`([^`\n]{12,300})`|(?<!\w)\'([^\'\n]{12,300})\'(?!\w)')
_TOKEN = re.compile(r"[a-z0-9][a-z0-9_.:/-]*[a-z0-9]|[a-z0-9]")
_MIN_TOKENS = 4


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _contains(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def misquote_problems(answer: str, outputs: list[str]) -> list[str]:
    """A quote that is a line of what was read with a word or two changed."""
    quotes = list(_QUOTED.finditer(answer[:20_000]))
    if not quotes:
        return []  # the common case: nothing quoted, no output to tokenise
    lines = _output_lines(outputs)
    for m in quotes:
        quote = m.group(1) or m.group(2) or m.group(3)
        for part in re.split(r"\.\.\.|…", quote):  # an ellipsis: each part is quoted
            said = _tokens(part)
            if len(said) < _MIN_TOKENS or any(_contains(line, said) for line in lines):
                continue
            near = _nearest(said, lines)
            if near:
                return [f"quotes {part.strip()!r}, but what was read says {near!r}"]
    return []


def _output_lines(outputs: list[str]) -> list[list[str]]:
    """Every non-empty line of the outputs, as tokens."""
    return [t for o in outputs for line in o[:400_000].splitlines() if (t := _tokens(line))]


def _nearest(said: list[str], lines: list[list[str]]) -> str:
    """The stretch of an output line the quote copies with at most two words changed (the
    same length, the same words elsewhere), else ""."""
    n = len(said)
    allowed = 1 if n < 6 else 2
    for line in lines:
        for i in range(len(line) - n + 1):
            window = line[i : i + n]
            changed = sum(1 for a, b in zip(window, said, strict=True) if a != b)
            if 0 < changed <= allowed and window[0] == said[0] and window[-1] == said[-1]:
                return " ".join(window)
    return ""


# a program's own message: its name, a colon, then what it says ("curl: (60) …", "psql: error:")
_PROGRAM_MESSAGE = re.compile(r"^\s*([a-z][\w.-]{1,30}):\s+\S")
# command-line programs that open their messages with their own name ("curl: (60) …"); a
# word before a colon is otherwise a label of the answer's own ("row: …", "instead: …")
_PROGRAMS_TEXT = (
    "curl wget psql pg_dump pg_dumpall pg_restore pg_ctl pg_basebackup mysql mysqldump redis-cli"
    " kubectl docker docker-compose podman helm terraform systemctl journalctl ssh scp rsync git"
    " nginx openssl dig nslookup host ping tar gzip gunzip cp mv rm ls cat sudo aws gcloud az"
    " python python3 node npm pip make bash sh crontab patronictl etcdctl"
)
_PROGRAMS = frozenset(_PROGRAMS_TEXT.split())


def unrun_program_quote_problems(
    answer: str, outputs: list[str], called: list[str]
) -> list[str]:
    """A quoted message of a program no call ran, which no output printed."""
    ran = "\n".join(called).lower()
    candidates = []
    for m in _QUOTED.finditer(answer[:20_000]):
        quote = m.group(1) or m.group(2) or m.group(3)
        program = _PROGRAM_MESSAGE.match(quote)
        name = program.group(1) if program else ""
        if name not in _PROGRAMS or re.search(rf"(?<![\w-]){re.escape(name)}\b", ran):
            continue
        if any(f"{name}:" in o.lower() for o in outputs):
            continue  # its messages were printed (into a log that was read)
        candidates.append((quote, name))
    if not candidates:
        return []  # the common case: no output to tokenise
    lines = _output_lines(outputs)
    for quote, name in candidates:
        said = _tokens(quote)
        if len(said) >= _MIN_TOKENS and not any(_contains(line, said) for line in lines):
            return [f"quotes {quote.strip()[:80]!r}, a message of {name}, which no call ran"]
    return []
