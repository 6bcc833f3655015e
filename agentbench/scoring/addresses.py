"""Names the answer gives that nothing read holds: a host:port where the environment shows that
host only at other ports, and an identifier shaped like the declared ones (`A-1024` where
`A-1042` is declared) that neither the environment, the prompt nor any output holds."""

from __future__ import annotations

import re

from agentbench.scoring.entities import IDENT, kind_of_token
from agentbench.scoring.reading import Reading
from agentbench.scoring.stance import Stance, stance_at

_ADDRESS = re.compile(
    r"(?<![\w.:-])((?:\d{1,3}\.){3}\d{1,3}|[a-z][\w-]*(?:\.[\w-]+)+):(\d{2,5})(?![\w.:])"
)


def address_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """A host:port the answer names where the environment shows that host only at other
    ports ("10.0.3.21:6379" for the postgres the check reports at 10.0.3.21:5432)."""
    entities = reading.entities
    if not entities.simulated:
        return []
    seen = "\n".join([entities.global_evidence, *outputs])[:400_000].lower()
    for group in reading.groups:
        for clause in group:
            for m in _ADDRESS.finditer(clause.text):
                host, port = m.group(1).lower(), m.group(2)
                if f"{host}:{port}" in seen or stance_at(clause, m.span()) is not Stance.asserted:
                    continue
                ports = set(re.findall(rf"(?<![\w.-]){re.escape(host)}:(\d{{2,5}})(?!\d)", seen))
                if ports and port not in ports:
                    shown = ", ".join(sorted(ports))
                    return [
                        f"names {m.group()}, but the environment shows {host} only at port {shown}"
                    ]
    return []


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
