"""How a declared entity is named in text beyond its own name: the names a host's responses
give it, and whether a user's name is written as the user (user names are often a program's
too: "Postgres crashed" is about the server, "as user postgres" about the account).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentbench.scoring.claims import Stance, stance_at
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
