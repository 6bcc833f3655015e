"""Task families: one scenario written once, its variants drawn from a seed (tasks/README.md).

A family file `tasks/families/<category>/<name>.yaml` holds `family`, `category`, `variants`,
`description`, `params`, optional `cases` and the `task` template. Variant i (1-based) of family
F under seed S draws from `random.Random(sha256("S:F:i"))`: common params, then one case
(uniformly or by `weight`), then the case's params; the case overlay is deep-merged into the
template and the placeholders are filled. A draw whose prompt repeats an earlier variant's is
redrawn from `sha256("S:F:i:k")`, k = 1, 2, ... (prompts identify tasks). The variant is then a
Task like any hand-written one: id `F-NN`, the family's category.

Every error is a TaskFileError naming the family file and the field.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agentbench.errors import TaskFileError
from agentbench.tasks.families.params import (
    MAX_DRAWS,
    RESERVED,
    Draws,
    Param,
    ParamError,
    draw,
    names,
    parse_params,
)
from agentbench.tasks.families.template import (
    MAX_VARIANT_CHARS,
    Budget,
    TemplateError,
    check_spec,
    fill,
    merge,
    placeholders,
)
from agentbench.tasks.loader import MAX_EXPANDED, expanded_size
from agentbench.tasks.model import Task

FAMILY_ID = re.compile(r"^[a-z0-9][a-z0-9-]{1,60}$")
CASE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
MAX_VARIANTS = 100  # per family
MAX_CASES = 20
MAX_FAMILY_VALUES = MAX_EXPANDED // 2  # values of one family's variants together (~45x the largest)
PROMPT_REDRAWS = 20  # draws tried for a variant whose prompt repeats an earlier one's
TOP_KEYS = frozenset({"family", "category", "variants", "description", "params", "cases", "task"})
CASE_KEYS = frozenset({"params", "task", "weight"})
SET_BY_GENERATOR = frozenset({"id", "category"})
TASK_KEYS = frozenset(Task.model_fields) - SET_BY_GENERATOR


@dataclass
class Case:
    name: str
    params: list[Param]
    overlay: dict[str, Any]
    weight: float = 1.0


@dataclass
class Family:
    """One parsed family file."""

    path: Path
    family: str
    category: str
    variants: int
    description: str
    params: list[Param]
    template: dict[str, Any]
    cases: list[Case] = field(default_factory=list)

    def generate(self, seed: int, limit: int | None = None) -> list[Task]:
        """Its first min(variants, limit) variants under `seed`, each a validated Task."""
        return self.generate_sized(seed, limit)[0]

    def generate_sized(
        self, seed: int, limit: int | None = None, room: int = MAX_FAMILY_VALUES, tier: int = 0
    ) -> tuple[list[Task], int]:
        """The variants and how many values they hold, refused past MAX_FAMILY_VALUES, or past
        `room`, what is left of the tier's cap `tier` after the families before this one."""
        count = self.variants if limit is None else min(self.variants, limit)
        tasks: list[Task] = []
        prompts: set[str] = set()
        total, budget = 0, [MAX_DRAWS]
        for number in range(1, count + 1):
            data = self._draw(seed, number, prompts, budget)
            total += expanded_size(data) or 0
            if total > MAX_FAMILY_VALUES:
                raise self.error(
                    "variants", f"variants expand to over {MAX_FAMILY_VALUES:,} values; draw "
                    "fewer or smaller variants",
                )
            if total > room:
                raise self.error(
                    "variants", f"with the families before it, the full tier expands to over "
                    f"{tier:,} values; draw fewer or smaller variants",
                )
            tasks.append(self._task(data))
        return tasks, total

    def error(self, where: str, message: str) -> TaskFileError:
        return TaskFileError(str(self.path), where, message)

    def _draw(
        self, seed: int, number: int, prompts: set[str], budget: list[int]
    ) -> dict[str, Any]:
        for attempt in range(PROMPT_REDRAWS):
            key = f"{seed}:{self.family}:{number}" + (f":{attempt}" if attempt else "")
            rng = Draws(int.from_bytes(hashlib.sha256(key.encode()).digest(), "big"), budget)
            values: dict[str, Any] = {"variant": number, "case": ""}
            try:
                draw(self.params, rng, values, "params")
                case = self._pick_case(rng)
                template = self.template
                if case is not None:
                    values["case"] = case.name
                    draw(case.params, rng, values, f"cases.{case.name}.params")
                    template = merge(self.template, case.overlay, "task")
                data = fill(template, values, "task", Budget(MAX_VARIANT_CHARS))
            except ParamError as exc:
                raise self.error(exc.field, str(exc)) from exc
            except TemplateError as exc:
                raise self.error(exc.field, str(exc)) from exc
            prompt = str(data.get("prompt", "")).strip()
            if prompt not in prompts:
                prompts.add(prompt)
                data["id"] = f"{self.family}-{number:02d}"
                data["category"] = self.category
                data.setdefault("description", self.description)
                return data
        raise self.error(
            "params",
            f"variant {number}: {PROMPT_REDRAWS} draws gave prompts of earlier variants; draw "
            "from more names or figures, or ask for fewer variants",
        )

    def _pick_case(self, rng: random.Random) -> Case | None:
        if not self.cases:
            return None
        weights = [c.weight for c in self.cases]
        return rng.choices(self.cases, weights)[0]

    def _task(self, data: dict[str, Any]) -> Task:
        size = expanded_size(data)
        if size is None or size > MAX_EXPANDED:
            raise self.error(
                "task", f"variant {data['id']} expands to over {MAX_EXPANDED:,} values"
            )
        try:
            return Task.model_validate(data)
        except ValidationError as exc:
            error = exc.errors()[0]
            loc = [str(p) for p in error["loc"] if not str(p).startswith("function-after")]
            where = ".".join(["task", *loc])
            raise self.error(where, f"variant {data['id']}: {error['msg']}") from exc


def parse_family(data: Any, path: Path, category: str) -> Family:
    """A family from a loaded family file; `category` is its folder's name."""

    def fail(where: str, message: str) -> TaskFileError:
        return TaskFileError(str(path), where, message)

    if not isinstance(data, Mapping):
        raise fail("-", "a family file holds a mapping: family, category, variants, params, task")
    unknown = sorted(map(str, set(data) - TOP_KEYS))
    if unknown:
        raise fail(unknown[0], f"unknown key; a family file has {', '.join(sorted(TOP_KEYS))}")
    name = data.get("family")
    if not isinstance(name, str) or not FAMILY_ID.match(name):
        raise fail("family", "required: an id of lowercase letters, digits and -, 2-61 long")
    if data.get("category") != category:
        raise fail("category", f"{data.get('category')!r} must match its folder '{category}'")
    variants = data.get("variants")
    if not isinstance(variants, int) or isinstance(variants, bool) or variants < 1:
        raise fail("variants", f"required: how many variants to draw, 1 to {MAX_VARIANTS}")
    if variants > MAX_VARIANTS:
        raise fail("variants", f"{variants} is too many; a family draws at most {MAX_VARIANTS}")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise fail("description", "must be text")
    template = data.get("task")
    if not isinstance(template, Mapping) or not template:
        raise fail("task", "required: the task template (prompt, tools, environment, expect, ...)")
    _check_keys(dict(template), "task", fail)
    try:
        params = parse_params(data.get("params"), "params")
        cases = _parse_cases(data.get("cases"), {p.name: p.fields for p in params}, fail)
    except ParamError as exc:
        raise fail(exc.field, str(exc)) from exc
    family = Family(path, name, category, variants, description, params, dict(template), cases)
    _check_placeholders(family, fail)
    return family


def _check_keys(template: dict[str, Any], where: str, fail: Any, overlay: bool = False) -> None:
    for raw in template:
        key = raw[:-1] if overlay and isinstance(raw, str) and raw.endswith("+") else raw
        if key in SET_BY_GENERATOR:
            raise fail(f"{where}.{key}", f"'{key}' is set by the generator; remove it")
        if key not in TASK_KEYS:
            raise fail(f"{where}.{key}", f"not a task key (known: {', '.join(sorted(TASK_KEYS))})")


def _parse_cases(raw: Any, common: dict[str, tuple[str, ...]], fail: Any) -> list[Case]:
    if raw is None:
        return []
    if not isinstance(raw, Mapping) or not 1 <= len(raw) <= MAX_CASES:
        raise fail("cases", f"must map 1 to {MAX_CASES} case names to {{params, task, weight}}")
    cases: list[Case] = []
    for name, spec in raw.items():
        where = f"cases.{name}"
        if not isinstance(name, str) or not CASE_NAME.match(name):
            raise fail(where, "a case name is lowercase letters, digits, - and _")
        if not isinstance(spec, Mapping):
            raise fail(where, "must be a mapping with params, task and/or weight")
        unknown = sorted(map(str, set(spec) - CASE_KEYS))
        if unknown:
            raise fail(f"{where}.{unknown[0]}", "unknown key; a case has params, task, weight")
        weight = spec.get("weight", 1.0)
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 < weight <= 1e6:
            raise fail(f"{where}.weight", "must be a positive number")
        overlay = spec.get("task", {})
        if not isinstance(overlay, Mapping):
            raise fail(f"{where}.task", "must be a mapping of task keys to merge in")
        _check_keys(dict(overlay), f"{where}.task", fail, overlay=True)
        params = parse_params(spec.get("params"), f"{where}.params", common)
        cases.append(Case(name, params, dict(overlay), float(weight)))
    return cases


def _check_placeholders(family: Family, fail: Any) -> None:
    """Every placeholder names a parameter drawn in every case it appears in, with a valid
    spec: caught when the file loads, not in the one variant that happens to draw it."""
    common = names(family.params) | RESERVED
    cases: list[Case | None] = [*family.cases] or [None]
    for case in cases:
        known = common | (names(case.params) if case else set())
        if case is not None:
            for where, name, spec in placeholders(case.overlay):
                _check_one(f"cases.{case.name}.task.{where}", name, spec, known, fail)
        try:
            merged = merge(family.template, case.overlay, "task") if case else family.template
        except TemplateError as exc:
            raise fail(f"cases.{case.name if case else ''}.{exc.field}", str(exc)) from exc
        for where, name, spec in placeholders(merged):
            suffix = f" (in case '{case.name}')" if case else ""
            _check_one(f"task.{where}", name, spec, known, fail, suffix)


def _check_one(
    where: str, name: str, spec: str | None, known: set[str], fail: Any, suffix: str = ""
) -> None:
    if name not in known:
        shown = ", ".join(sorted(known))
        raise fail(where, f"{{{{{name}}}}} names no parameter{suffix} (known: {shown})")
    if spec is not None:
        try:
            check_spec(spec, where)
        except TemplateError as exc:
            raise fail(where, str(exc)) from exc
