"""How a declared entity is named in text beyond its own name: the names a host's responses
give it, and whether a user's name is written as the user (user names are often a program's
too: "Postgres crashed" is about the server, "as user postgres" about the account).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentbench.scoring.stance import Stance, stance_at
from agentbench.tasks.model import Environment

if TYPE_CHECKING:
    from agentbench.scoring.reading import Reading

_USER_BEFORE = re.compile(
    r"(?:\b(?:user|users|account|as|by|owner|uid|login|for|su|sudo\s+-u)|-u|~)\s*[:=]?\s*[`'\"]?$",
    re.IGNORECASE,
)
_USER_AFTER = re.compile(
    r"^[`'\"]?\s*(?:user|account|login|'s\s+(?:password|account|home))\b|^:\w", re.IGNORECASE
)


def as_user(text: str, start: int, end: int) -> bool:
    """Whether a user's name is written as the user ("as user indexer", "the backup user",
    "owned by postgres", "indexer:indexer"): user names are often a program's too."""
    return bool(
        _USER_BEFORE.search(text[max(0, start - 24) : start])
        or _USER_AFTER.match(text[end : end + 24])
    )


def service_names(host: str, body: str, environment: Environment) -> list[str]:
    """What a host's own responses call it: `warehouse-api` in warehouse.internal's "warehouse-api
    is in maintenance" (a token holding the host's first label that no other host is named by)."""
    label = host.split(".")[0].lower()
    others = {
        m.group(1).split(".")[0].lower()
        for r in environment.http
        if (m := re.match(r"https?://([^/:]+)", r.url)) and m.group(1) != host
    }
    found = re.findall(r"(?<![\w./-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?![\w.-])", body[:20_000])
    return sorted(
        {t for t in found if label in t.split("-") and t != label and t.lower() not in others}
    )




# a name written as an account: "for user \"postgres\"", "as the backup user", "role 'etl'"
_ACCOUNT = re.compile(
    r"\b(?:for|as|by|of)\s+(?:the\s+)?(?:user|role|account|login)\s+[`'\"]?(?P<a>[a-z_][\w.-]*\w)"
    r"|[`'\"](?P<b>[a-z_][\w.-]*\w)[`'\"]\s+(?:user|role|account|login)\b",
    re.IGNORECASE,
)


def unknown_user_problems(reading: Reading, outputs: list[str]) -> list[str]:
    """An account the answer names (`for user "postgres"`) where the environment declares its
    users, and neither they, the prompt nor any tool output holds that name: the right failure
    pinned on an account nothing shows."""
    entities = reading.entities
    users = {k.split(":", 1)[1].lower() for k in entities.by_key if k.startswith("user:")}
    if not users:
        return []
    seen = "\n".join([entities.global_evidence, *outputs]).lower()
    for group in reading.groups:
        for clause in group:
            for m in _ACCOUNT.finditer(clause.text):
                name = (m.group("a") or m.group("b")).lower()
                if name in users or re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", seen):
                    continue
                if stance_at(clause, m.span()) is Stance.asserted:
                    return [f"names the account {name!r}, which nothing in the environment holds"]
    return []


def crossed_parent_problems(reading: Reading) -> list[str]:
    """A record named under a table that is not its own: "the sessions table has three rows
    that expired: t-6716a, t-7151b and o-7151a" where o-7151a is a row of upload_links (the
    sentence naming no other table)."""
    by_key = reading.entities.by_key
    for s, group in enumerate(reading.groups):
        named = [(c, k) for c, m in enumerate(reading.mentions[s]) for _, _, k in m]
        tables = {k for _, k in named if k in by_key and by_key[k].kind == "table"}
        if len(tables) != 1:
            continue
        # the columns of the named table's rows the sentence lists ("t-6716a, t-7151b and ...")
        listed = {
            by_key[k].kind.rsplit(".", 1)[-1]
            for _, k in named
            if k in by_key and by_key[k].kind.startswith("row:") and by_key[k].parents & tables
        }
        for c, key in named:
            entity = by_key.get(key)
            if entity is None or not entity.kind.startswith("row:"):
                continue
            parents = {p for p in entity.parents if by_key.get(p) and by_key[p].kind == "table"}
            if not parents or parents & tables or entity.kind.rsplit(".", 1)[-1] not in listed:
                continue  # no list of the table's own records it stands in
            (table,) = tables
            held = reading.evidence(frozenset({table})).lower()
            if any(n.lower() in held for n in entity.names):
                continue  # a foreign key: the customer an order row holds
            clause = group[c]
            at = next((a for a, _, k in reading.mentions[s][c] if k == key), 0)
            if stance_at(clause, (at, at + 1)) is not Stance.asserted:
                continue
            return [
                f"names {sorted(entity.names)[0]} as a record of {table.split(':', 1)[1]}; it is "
                f"a row of {', '.join(sorted(p.split(':', 1)[1] for p in parents))}"
            ]
    return []
