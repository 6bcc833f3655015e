"""Entities inside structured documents: the records of a JSON or YAML body or file.

A record (a mapping in a list, such as one deploy of a deploy history) is one entity named by
its distinguishing values (`dep-9b77e0`, `2.14.0`, `c4d92b7`: values no other record of the
list shares), with the record itself as its evidence, so "2.14.1 succeeded" is held against
2.14.1's own `status: rolled_back`. A mapping of scalars under a key (`checks: {postgres: ok,
stripe: timeout}`) gives one entity per key, a child of the document's owner.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import yaml

Add = Callable[[str, str, list[str], str, list[str]], object]
_NAMEISH = re.compile(r"^(?=.*[A-Za-z0-9])[\w.@:/+-]{3,80}$|^[A-Z][a-z]+(?: [A-Z][a-z'-]+){1,3}$")
_SKIP = re.compile(r"^\d{4}-\d\d-\d\d|^(?:true|false|null|none|ok|yes|no)$", re.IGNORECASE)
_MAX_RECORDS = 2000
_NAME_KEY = re.compile(
    r"(?:^|_)(?:id|name|host|user|person|primary|secondary|owner|email|sku)$", re.I
)


def parse(text: str) -> Any:
    """A JSON or YAML document, or None (bounded: large or odd text is not parsed)."""
    if len(text) > 500_000:
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


def add_records(
    data: Any,
    owner: str,
    add: Add,
    prefix: str = "",
    budget: list[int] | None = None,
    within: tuple[str, ...] = (),
) -> None:
    """Register the records and checks of one document under the owner entity's key
    (`prefix` keeps apart the records of several documents of one owner). A record nested in
    an object that an identifier names (`{"sku": "E-1742", "warehouses": [...]}`) belongs to
    that identifier's entity too (`id:E-1742`): the warehouses are the SKU's."""
    budget = budget if budget is not None else [_MAX_RECORDS]
    prefix = prefix or owner
    if isinstance(data, dict):
        within = (*within, *(f"id:{v}" for v in data.values() if _identifier(v)))
        for key, value in data.items():
            if isinstance(value, dict) and value and all(_scalar(v) for v in value.values()):
                if not isinstance(key, str) or key in ("metadata", "labels", "annotations"):
                    continue
                for sub, text in value.items():
                    if isinstance(sub, str) and len(sub) >= 3:
                        add(
                            f"{owner}/{key}/{sub}", f"check:{key}", [sub], f"{sub}: {text}", [owner]
                        )
            elif isinstance(value, (dict, list)):
                add_records(value, owner, add, f"{prefix}/{key}", budget, within)
    elif isinstance(data, list):
        records = [r for r in data if isinstance(r, dict)]
        if len(records) >= 2:
            _list_records(records, owner, add, prefix, budget, within)
        for index, item in enumerate(data):
            if isinstance(item, (dict, list)):
                add_records(item, owner, add, f"{prefix}#{index}", budget, within)


def nodes(document: Any, limit: int = 50_000) -> Iterator[Any]:
    """Every value of a parsed document (the document, its lists, objects and scalars),
    depth-first, at most `limit` of them."""
    stack = [document]
    seen = 0
    while stack and seen < limit:
        item = stack.pop()
        seen += 1
        yield item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9]*[-_][A-Za-z0-9-]*\d[A-Za-z0-9-]*$")


def _identifier(value: Any) -> bool:
    """An identifier-shaped string value ("E-1742", "dep-9b77e0"), not a word or a date."""
    return isinstance(value, str) and len(value) <= 40 and bool(_IDENTIFIER.match(value))


def _list_records(
    records: list[dict[str, Any]],
    owner: str,
    add: Add,
    prefix: str,
    budget: list[int],
    within: tuple[str, ...] = (),
) -> None:
    counts: dict[str, int] = {}
    for record in records:
        for value in record.values():
            if isinstance(value, str):
                counts[value] = counts.get(value, 0) + 1
    for index, record in enumerate(records):
        if budget[0] <= 0:
            return
        budget[0] -= 1
        names = [
            value
            for key, value in record.items()
            if isinstance(value, str)
            and counts[value] == 1
            and _NAMEISH.match(value)
            and not _SKIP.match(value)
            and (re.search(r"[\d@]", value) or _NAME_KEY.search(str(key)))
        ]
        if names:
            key = f"{prefix}#{index}"
            add(key, "record", names, json.dumps(record, default=str), [owner, *within])
