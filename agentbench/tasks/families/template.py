"""A family's task template: case overlays merged in, `{{name}}` placeholders filled.

`{{name}}` inside a string is replaced by the value's text (`{{name.key}}`: a key of a drawn
row); a string that is exactly one `{{name}}` takes the value itself (an int stays an int).
`{{name:spec}}` formats the value with a Python format spec (`{{revenue:,}}`, `{{ratio:.1f}}`,
`{{n:03d}}`); widths and precisions above 64 are refused, so no placeholder can blow a variant
up. Mapping keys are filled as text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

PLACEHOLDER = re.compile(r"\{\{\s*([^{}:\s]*)\s*(?::([^{}]*))?\}\}")
# Python's format-spec mini-language, with width and precision captured to bound them.
_SPEC = re.compile(
    r"^(?:[^{}]?[<>=^])?[-+ ]?z?#?0?(?P<width>\d+)?[,_]?"
    r"(?:\.(?P<precision>\d+))?[bcdeEfFgGnosxX%]?$"
)
MAX_WIDTH = 64
MAX_VARIANT_CHARS = 1_000_000  # characters one variant's placeholders fill in (~19x the largest)


class TemplateError(ValueError):
    """A placeholder or an overlay is wrong; `field` is its dotted path in the template."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


class Budget:
    """Characters a fill may still produce: a placeholder repeated 10,000 times over a drawn
    block of text is refused while it is filled, not after it took gigabytes."""

    def __init__(self, chars: int) -> None:
        self.limit = self.left = chars

    def spend(self, value: Any, field: str) -> None:
        self.left -= len(value) if isinstance(value, str) else 1
        if self.left < 0:
            raise TemplateError(
                field, f"the filled placeholders come to over {self.limit:,} characters in one "
                "variant; refer to large values fewer times",
            )


def merge(base: Any, overlay: Any, field: str = "") -> Any:
    """`overlay` deep-merged over `base`: mappings merge by key, anything else replaces; a key
    written `name+` appends its list to the base's list `name` (`wrong+: [...]`)."""
    if isinstance(base, Mapping) and isinstance(overlay, Mapping):
        out = dict(base)
        for key, value in overlay.items():
            here = f"{field}.{key}" if field else str(key)
            if isinstance(key, str) and key.endswith("+"):
                name = key[:-1]
                if not isinstance(value, list) or not isinstance(base.get(name, []), list):
                    raise TemplateError(here, f"'{key}' appends a list to the list '{name}'")
                out[name] = [*base.get(name, []), *value]
            else:
                out[key] = merge(base[key], value, here) if key in base else value
        return out
    return overlay


def check_spec(spec: str, field: str) -> None:
    """Refuse a format spec that is not one or asks for more than MAX_WIDTH characters."""
    found = _SPEC.match(spec)
    if found is None:
        raise TemplateError(field, f"'{spec}' is not a format spec (e.g. ',', '.1f', '03d')")
    for part in ("width", "precision"):
        number = found.group(part)
        if number is not None and int(number) > MAX_WIDTH:
            raise TemplateError(field, f"format spec '{spec}': {part} above {MAX_WIDTH}")


def placeholders(template: Any) -> list[tuple[str, str, str | None]]:
    """Every placeholder in the template: (field, name, spec), for checking before any draw."""
    found: list[tuple[str, str, str | None]] = []
    stack: list[tuple[Any, str]] = [(template, "")]
    while stack:
        value, field = stack.pop()
        if isinstance(value, Mapping):
            for key, child in value.items():
                here = f"{field}.{key}" if field else str(key)
                if isinstance(key, str):
                    found += [(here, n, s) for n, s in _names(key)]
                stack.append((child, here))
        elif isinstance(value, list):
            stack.extend((child, f"{field}.{i}") for i, child in enumerate(value))
        elif isinstance(value, str):
            found += [(field, n, s) for n, s in _names(value)]
    return found


def _names(text: str) -> list[tuple[str, str | None]]:
    return [(m.group(1), m.group(2)) for m in PLACEHOLDER.finditer(text)] if "{{" in text else []


def fill(
    template: Any, values: Mapping[str, Any], field: str = "", budget: Budget | None = None
) -> Any:
    """A copy of `template` with every placeholder replaced by its value; what the placeholders
    fill in is charged to `budget` (unbounded without one)."""
    if isinstance(template, Mapping):
        out: dict[Any, Any] = {}
        for key, child in template.items():
            here = f"{field}.{key}" if field else str(key)
            name = _text(key, values, here, budget) if isinstance(key, str) else key
            out[name] = fill(child, values, here, budget)
        return out
    if isinstance(template, list):
        return [fill(child, values, f"{field}.{i}", budget) for i, child in enumerate(template)]
    if isinstance(template, str) and "{{" in template:
        whole = PLACEHOLDER.fullmatch(template)
        if whole is not None and whole.group(2) is None:
            value = _value(whole.group(1), values, field)
            if budget is not None:
                budget.spend(value, field)
            return value
        return _text(template, values, field, budget)
    return template


def _value(name: str, values: Mapping[str, Any], field: str) -> Any:
    base, _, key = name.partition(".")
    value = values.get(base)
    if key and isinstance(value, Mapping) and key in value:
        return value[key]
    if key or base not in values:
        known = ", ".join(sorted(values)) or "none"
        raise TemplateError(field, f"{{{{{name}}}}} names no parameter (known: {known})")
    return value


def _text(text: str, values: Mapping[str, Any], field: str, budget: Budget | None = None) -> str:
    def one(match: re.Match[str]) -> str:
        piece = _piece(match)
        if budget is not None:
            budget.spend(piece, field)  # before the next piece is joined on
        return piece

    def _piece(match: re.Match[str]) -> str:
        value = _value(match.group(1), values, field)
        if isinstance(value, Mapping):
            raise TemplateError(field, f"{{{{{match.group(1)}}}}} is a row; name a key of it")
        spec = match.group(2)
        if spec is None:
            return str(value)
        check_spec(spec, field)
        try:
            return format(value, spec)
        except (ValueError, TypeError, OverflowError) as exc:
            raise TemplateError(field, f"{{{{{match.group(0)[2:-2]}}}}}: {exc}") from exc

    return PLACEHOLDER.sub(one, text)
