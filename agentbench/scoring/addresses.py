"""Names the answer gives that nothing read holds: a host:port where the environment shows that
host only at other ports, and an identifier shaped like the declared ones (`A-1024` where
`A-1042` is declared) that neither the environment, the prompt nor any output holds."""

from __future__ import annotations

import re
from collections.abc import Sequence

from agentbench.scoring.entities import IDENT, kind_of_token
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at

_ADDRESS = re.compile(
    r"(?<![\w.:-])((?:\d{1,3}\.){3}\d{1,3}|[a-z][\w-]*(?:\.[\w-]+)+):(\d{2,5})(?![\w:]|\.\w)"
)


def address_problems(reading: Reading, outputs: list[str], called: Sequence[str] = ()) -> list[str]:
    """A host:port the answer names where the environment shows that host only at other
    ports ("10.0.3.21:6379" for the postgres the check reports at 10.0.3.21:5432), or where a
    record gives that port another role than the one the sentence names (the exporter's 9114
    called the HTTP API, which the registry puts at 9200). An address one of the agent's own
    calls used is its own to recount."""
    entities = reading.entities
    if not entities.simulated:
        return []
    seen = "\n".join([entities.global_evidence, *outputs])[:400_000].lower()
    used = "\n".join(called).lower()
    for group in reading.groups:
        for clause in group:
            for m in _ADDRESS.finditer(clause.text):
                host, port = m.group(1).lower(), m.group(2)
                if f"{host}:{port}" in seen or f"{host}:{port}" in used:
                    continue
                if stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                roles = _host_records(host, seen)
                crossed = _crossed_role(port, roles, clause.sentence or clause.text)
                if crossed:
                    return [f"names {m.group()}, {crossed}"]
                ports = set(re.findall(rf"(?<![\w.-]){re.escape(host)}:(\d{{2,5}})(?!\d)", seen))
                ports |= set(roles)
                if ports and port not in ports:
                    shown = ", ".join(sorted(ports))
                    return [
                        f"names {m.group()}, but the environment shows {host} only at port {shown}"
                    ]
    return _email_problems(reading, seen)


# an email address, and the domain it is at
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@((?:[\w-]+\.)+[A-Za-z][\w-]*)(?![\w-])")


def _email_problems(reading: Reading, seen: str) -> list[str]:
    """An email address at a domain nothing the episode read or was told names: a draft to
    `oncall@corp.com` where the prompt says `oncall@corp.example`."""
    for group in reading.groups:
        for clause in group:
            for m in _EMAIL.finditer(clause.text):
                if m.group().lower() in seen or m.group(1).lower() in seen:
                    continue
                if stance_at(clause, m.span()) is Stance.asserted:
                    return [f"names {m.group()}, an address at a domain nothing read gives"]
    return []


_FIELD = r"[\"']?\s*[:=]\s*[\"']?"
_LABEL_FIELD = rf"\b(?:role|kind|type|purpose){_FIELD}([\w-]+)"


def _host_records(host: str, seen: str) -> dict[str, set[str]]:
    """The ports records give this host as fields of their own (`host: 10.0.4.17`, `port:
    9114` in a registry's JSON or YAML), each with the roles its record names: the address is
    shown even though no output writes it."""
    roles: dict[str, set[str]] = {}
    for m in re.finditer(rf"\bhost{_FIELD}{re.escape(host)}(?![\w.])", seen):
        record = _record_at(seen, m.start())
        at = re.search(rf"\bport{_FIELD}(\d{{2,5}})\b", record)
        if at:
            roles.setdefault(at.group(1), set()).update(re.findall(_LABEL_FIELD, record))
    return roles


def _crossed_role(port: str, roles: dict[str, set[str]], sentence: str) -> str:
    """Why the sentence gives the port another record's role: the records of this host give
    the port one role ("metrics-exporter") and another port the role the sentence names
    ("HTTP API" for `http-api` at 9200), and the sentence names only that other one."""
    words = set(re.findall(r"[a-z]{4,}", sentence.lower()))
    own = {w for label in roles.get(port, ()) for w in re.findall(r"[a-z]{4,}", label)}
    if not own or own & words:
        return ""
    for other, given in roles.items():
        theirs = {w for label in given for w in re.findall(r"[a-z]{4,}", label)} - own
        if other != port and theirs & words:
            return (
                f"which the environment gives as {'/'.join(sorted(roles[port]))}; "
                f"{'/'.join(sorted(given))} is at port {other}"
            )
    return ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" -"))


def _record_at(text: str, at: int) -> str:
    """The record holding position `at`: its JSON object, else its YAML list item (from the
    item's `- ` line to the next item or a shallower line)."""
    opened, closed = text.rfind("{", 0, at), text.rfind("}", 0, at)
    if opened > closed:
        end = text.find("}", at)
        return text[opened : end if end >= 0 else at + 300]
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    indent = _indent(text[start:end])
    for _ in range(12):  # back to the item's first line: `port: 9114` may come before `host:`
        if start == 0 or text[start:end].lstrip(" ").startswith("- "):
            break
        previous = text.rfind("\n", 0, start - 1) + 1
        if _indent(text[previous : start - 1]) != indent:
            break
        start = previous
    lines = [text[start:end]]
    for line in text[end + 1 :].splitlines()[:12]:
        if line.lstrip().startswith("- ") or len(line) - len(line.lstrip()) < indent:
            break
        lines.append(line)
    return "\n".join(lines)


def identifier_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """An identifier shaped like the declared ones (`A-1024` where `A-1042` is declared) that
    neither the environment, the prompt nor any tool output holds is invented."""
    entities = reading.entities
    if not entities.simulated:
        return []
    names = {n.lower() for e in entities.by_key.values() for n in e.names}
    shapes = {kind_of_token(None, n) for n in names if IDENT.fullmatch(n) and re.search(r"\d", n)}
    seen = "\n".join([entities.prompt, *outputs]).lower()
    for group in reading.groups:
        for clause in group:
            for m in IDENT.finditer(clause.text):
                token = m.group("id")
                if not re.search(r"\d", token) or kind_of_token(None, token.lower()) not in shapes:
                    continue
                if token.lower() in names or token.lower() in seen:
                    continue
                if stance_at(clause, m.span()) is Stance.asserted:
                    return [
                        f"names {token}, which nothing in the environment or the tool outputs holds"
                    ]
    return []


# "12 unassigned shards", "2 of the 8 nodes", "6 data nodes"
