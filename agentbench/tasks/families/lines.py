"""The `lines` parameter kind: a block of text drawn line by line (the filler of a long log).

    noise:
      lines:
        count: [200, 300]                  # how many drawn lines (an int, or [LO, HI] inclusive)
        fields:                            # drawn afresh for every line, after the earlier params
          hh: {int: [0, 23]}               #   (any kind but lines; an expr may use both)
          rid: {hex: 32}
        line:                              # one template drawn per line (or a single string)
          - '2026-11-29T{{hh:02d}}:00:00Z GET /healthz 200 rid={{rid}}'
        insert:                            # lines that matter, filled from the earlier params and
          - '2026-11-29T{{kh:02d}}:00:00Z POST /api/pay 502 rid={{key_rid}}'   # put at drawn places
        sort: true                         # sort all lines as text (timestamp-first logs), so an
                                           # inserted line lands where its drawn time puts it

The value is the lines joined by newlines, with a final newline. Every size is bounded: at most
MAX_LINES lines, MAX_CHARS characters in all, so a family cannot blow a variant up.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agentbench.tasks.families.params import Param, ParamError, draw, names, parse_params
from agentbench.tasks.families.template import TemplateError, check_spec, fill, placeholders

MAX_LINES = 2000  # drawn plus inserted lines of one value
MAX_CHARS = 256 * 1024  # characters of one value
MAX_TEMPLATES = 200  # line templates, and inserted lines, of one declaration
KEYS = frozenset({"count", "fields", "line", "insert", "sort"})


@dataclass(frozen=True)
class Lines:
    count: tuple[int, int]
    fields: list[Param]  # drawn afresh for every line
    templates: list[str]
    inserts: list[str]
    sort: bool


def parse_lines(value: Any, field: str, known: Mapping[str, tuple[str, ...]]) -> Lines:
    """A `lines:` declaration; `known` are the earlier params (their row keys)."""
    if not isinstance(value, Mapping):
        raise ParamError(
            field, "must be a mapping with count, line, and optional fields, insert, sort"
        )
    unknown = sorted(map(str, set(value) - KEYS))
    if unknown:
        raise ParamError(
            f"{field}.{unknown[0]}", f"unknown key; lines has {', '.join(sorted(KEYS))}"
        )
    count = _count(value.get("count"), f"{field}.count")
    fields = parse_params(value.get("fields"), f"{field}.fields", known)
    if any(p.kind == "lines" for p in fields):
        raise ParamError(f"{field}.fields", "a line's fields cannot themselves be lines")
    templates = _texts(value.get("line"), f"{field}.line", required=True)
    inserts = _texts(value.get("insert", []), f"{field}.insert", required=False)
    sort = value.get("sort", False)
    if not isinstance(sort, bool):
        raise ParamError(f"{field}.sort", "must be true or false")
    outer = {*known, *(f"{n}.{k}" for n, keys in known.items() for k in keys)}
    line_names = outer | names(fields)
    for where, texts, allowed in (("line", templates, line_names), ("insert", inserts, outer)):
        for i, text in enumerate(texts):
            for _, name, spec in placeholders(text):
                if name not in allowed:
                    scope = (
                        "earlier parameter" if where == "insert" else "field or earlier parameter"
                    )
                    raise ParamError(f"{field}.{where}.{i}", f"{{{{{name}}}}} names no {scope}")
                if spec is not None:
                    try:
                        check_spec(spec, f"{field}.{where}.{i}")
                    except TemplateError as exc:
                        raise ParamError(exc.field, str(exc)) from exc
    return Lines(count, fields, templates, inserts, sort)


def draw_lines(spec: Lines, rng: random.Random, values: Mapping[str, Any], field: str) -> str:
    """The drawn text: `count` lines from the templates, the inserted lines at drawn places
    (or, with sort, wherever their text sorts), joined with newlines."""
    out: list[str] = []
    size = 0
    for _ in range(rng.randint(*spec.count)):
        local = dict(values)
        draw(spec.fields, rng, local, f"{field}.fields")
        out.append(_fill(rng.choice(spec.templates), local, f"{field}.line"))
        size += len(out[-1]) + 1
        if size > MAX_CHARS:
            raise ParamError(field, f"the lines come to over {MAX_CHARS:,} characters; draw fewer")
    for template in spec.inserts:
        text = _fill(template, values, f"{field}.insert")
        out.insert(rng.randint(0, len(out)), text)
        size += len(text) + 1
    if size > MAX_CHARS:
        raise ParamError(field, f"the lines come to over {MAX_CHARS:,} characters; draw fewer")
    if spec.sort:
        out.sort()
    return "\n".join(out) + "\n"


def _fill(text: str, values: Mapping[str, Any], field: str) -> str:
    try:
        return str(fill(text, values, field))
    except TemplateError as exc:
        raise ParamError(exc.field, str(exc)) from exc


def _count(value: Any, field: str) -> tuple[int, int]:
    pair = [value, value] if not isinstance(value, list) else value
    if (
        len(pair) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
        or not 0 <= pair[0] <= pair[1] <= MAX_LINES
    ):
        raise ParamError(
            field, f"must be a number of lines or [LO, HI], 0 <= LO <= HI <= {MAX_LINES}"
        )
    return (pair[0], pair[1])


def _texts(value: Any, field: str, required: bool) -> list[str]:
    texts = [value] if isinstance(value, str) else value
    if (
        not isinstance(texts, list)
        or (required and not texts)
        or len(texts) > MAX_TEMPLATES
        or not all(isinstance(t, str) and "\n" not in t and len(t) <= 4096 for t in texts)
    ):
        need = "1" if required else "0"
        raise ParamError(
            field, f"must be {need} to {MAX_TEMPLATES} one-line templates (<= 4096 chars each)"
        )
    return list(texts)
