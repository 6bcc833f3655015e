"""The price table: shipped defaults (agentbench/data/prices.yaml) merged with a user file."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from agentbench.errors import ConfigError

DEFAULT_SOURCE = "agentbench/data/prices.yaml"


@dataclass(frozen=True)
class ModelPrice:
    """US dollars per million tokens."""

    model: str
    input: float
    output: float
    cached_input: float | None = None
    as_of: str | None = None
    source: str | None = None

    def cost(self, prompt_tokens: int, cached_tokens: int, output_tokens: int) -> float:
        cached = min(max(cached_tokens, 0), prompt_tokens)
        cached_price = self.input if self.cached_input is None else self.cached_input
        return (
            (prompt_tokens - cached) * self.input
            + cached * cached_price
            + output_tokens * self.output
        ) / 1_000_000


@dataclass
class PriceTable:
    models: dict[str, ModelPrice] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    written: str | None = None

    def lookup(self, model: str | None) -> ModelPrice | None:
        """By exact name, then after a provider prefix (`openai/gpt-5`), then by alias."""
        if not model:
            return None
        for name in (model, model.rsplit("/", 1)[-1]):
            if name in self.models:
                return self.models[name]
            if name in self.aliases:
                return self.models[self.aliases[name]]
        return None


def _number(where: str, key: str, value: Any, required: bool) -> float | None:
    if value is None:
        if required:
            raise ConfigError(f"{where}: '{key}' is missing (US dollars per million tokens)")
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value < 0
    ):
        raise ConfigError(
            f"{where}: '{key}' must be a non-negative number of dollars per "
            f"million tokens, got {value!r}"
        )
    return float(value)


def _merge(table: PriceTable, raw: Any, source: str) -> None:
    if not isinstance(raw, dict) or not isinstance(raw.get("models"), dict):
        raise ConfigError(
            f"{source}: a price file needs a 'models:' mapping of model name to "
            "{input, cached_input, output, as_of}"
        )
    file_as_of = raw.get("as_of")
    for name, entry in raw["models"].items():
        where = f"{source}: model '{name}'"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: expected a mapping with input, cached_input, output")
        unknown = set(entry) - {
            "input",
            "cached_input",
            "output",
            "as_of",
            "source",
            "aliases",
            "note",
        }
        if unknown:
            raise ConfigError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        as_of = entry.get("as_of", file_as_of)
        if isinstance(as_of, date):
            as_of = as_of.isoformat()
        price = ModelPrice(
            model=str(name),
            input=_number(where, "input", entry.get("input"), True) or 0.0,
            output=_number(where, "output", entry.get("output"), True) or 0.0,
            cached_input=_number(where, "cached_input", entry.get("cached_input"), False),
            as_of=str(as_of) if as_of is not None else None,
            source=entry.get("source") or source,
        )
        table.models[str(name)] = price
        aliases = entry.get("aliases") or []
        if not isinstance(aliases, list):
            raise ConfigError(f"{where}: 'aliases' must be a list of model names")
        for alias in aliases:
            table.aliases[str(alias)] = str(name)
    table.sources.append(source)
    written = raw.get("written")
    if written is not None:
        table.written = written.isoformat() if isinstance(written, date) else str(written)


def load_prices(path: str | Path | None = None, *, defaults: bool = True) -> PriceTable:
    """The shipped table, with the entries of `path` (if given) added or replacing by model."""
    table = PriceTable()
    if defaults:
        text = resources.files("agentbench.data").joinpath("prices.yaml").read_text()
        _merge(table, yaml.safe_load(text), DEFAULT_SOURCE)
    if path is not None:
        p = Path(path)
        try:
            raw = yaml.safe_load(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"--prices {p}: cannot read it ({exc.strerror})") from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(
                f"--prices {p}: not UTF-8 text (byte {exc.start}); save it as UTF-8 YAML"
            ) from exc
        except yaml.YAMLError as exc:
            raise ConfigError(f"--prices {p}: not valid YAML ({exc})") from exc
        _merge(table, raw, str(p))
    return table
