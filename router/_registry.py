"""Policies registered by name; `NAME[:key=value,...]` specs parsed and checked."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from router._base import Policy, PolicyFactory

_REGISTRY: dict[str, Callable[..., Policy]] = {}


class PolicySpecError(ValueError):
    """An unknown policy or a bad parameter; the message is one line for the user."""


def register(name: str) -> Callable[[Callable[..., Policy]], Callable[..., Policy]]:
    def decorate(cls: Callable[..., Policy]) -> Callable[..., Policy]:
        _REGISTRY[name] = cls
        return cls

    return decorate


def available_policies() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY)


def _coerce(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    name, _, rest = spec.partition(":")
    raw: dict[str, str] = {}
    last: str | None = None
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            if last is None:
                raise PolicySpecError(f"router parameter '{item}' must be key=value")
            raw[last] += "," + item  # a list value: `frontier_models=a,b`
            continue
        last = key.strip().replace("-", "_")
        raw[last] = value.strip()
    params = {k: (v if "," in v else _coerce(v)) for k, v in raw.items()}
    return name.strip(), params


def build_policy(spec: str) -> PolicyFactory:
    """A factory of fresh per-episode policies from `NAME[:key=value,...]`."""
    _load_builtins()
    name, params = parse_spec(spec)
    cls = _REGISTRY.get(name)
    if cls is None:
        known = ", ".join(sorted(_REGISTRY))
        raise PolicySpecError(f"unknown router policy '{name}'; known policies: {known}")
    accepted = set(inspect.signature(cls).parameters)
    unknown = set(params) - accepted
    if unknown:
        raise PolicySpecError(
            f"router policy '{name}' takes no parameter {', '.join(sorted(unknown))}; "
            f"it takes: {', '.join(sorted(accepted)) or 'none'}"
        )
    try:
        cls(**params)  # fail now, at the CLI, on bad values
    except (TypeError, ValueError) as exc:
        raise PolicySpecError(f"router policy '{name}': {exc}") from exc
    return lambda: cls(**params)


def _load_builtins() -> None:
    from router import policies  # noqa: F401  (registers the built-in policies)
