"""Parsing of `agentbench bench` options that typer cannot check alone: lists given as repeats
or commas, the arrival process and SLO limits. Bad input is a usage error naming the flag."""

from __future__ import annotations

from enum import StrEnum

import typer

from agentbench.bench.records import SloRecord


def ints(
    values: list[str] | None, flag: str, default: list[int], minimum: int, maximum: int
) -> list[int]:
    """`--depth 0 --depth 4096` or `--depth 0,4096`: a sorted list without repeats."""
    if not values:
        return default
    out: list[int] = []
    for value in values:
        for part in str(value).split(","):
            if not part.strip():
                continue
            try:
                n = int(part)
            except ValueError:
                raise typer.BadParameter(
                    f"{part!r} is not a whole number", param_hint=flag
                ) from None
            if n < minimum:
                raise typer.BadParameter(f"{n} is below {minimum}", param_hint=flag)
            if n > maximum:
                raise typer.BadParameter(f"{n} is over the limit of {maximum}", param_hint=flag)
            if n not in out:
                out.append(n)
    return out


def floats(values: list[str] | None, flag: str) -> list[float]:
    out: list[float] = []
    for value in values or []:
        for part in str(value).split(","):
            if not part.strip():
                continue
            try:
                rate = float(part)
            except ValueError:
                raise typer.BadParameter(f"{part!r} is not a number", param_hint=flag) from None
            if not 0 < rate <= MAX_RATE:  # also refuses nan and inf
                raise typer.BadParameter(
                    f"{rate:g} must be above 0 and at most {MAX_RATE:g}", param_hint=flag
                )
            if rate not in out:
                out.append(rate)
    return out


MAX_RATE = 1e6  # requests per second


class Arrival(StrEnum):
    poisson = "poisson"
    constant = "constant"


SLO_KEYS = {"ttft": "ttft_s", "tpot": "tpot_s", "e2e": "e2e_latency_s", "e2el": "e2e_latency_s"}


def parse_slo(text: str) -> SloRecord:
    """`ttft=500ms,tpot=50ms,e2e=10s`: a limit per figure, in ms or s (a bare number is ms, as
    in vLLM's --goodput)."""
    limits: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, _, value = part.partition("=")
        key = SLO_KEYS.get(name.strip().lower())
        if key is None:
            raise typer.BadParameter(
                f"{name!r}: use ttft, tpot or e2e (e.g. ttft=500ms,tpot=50ms)", param_hint="--slo"
            )
        value = value.strip().lower()
        scale = 1.0 if value.endswith("s") and not value.endswith("ms") else 0.001
        try:
            number = float(value.removesuffix("ms").removesuffix("s"))
        except ValueError:
            raise typer.BadParameter(
                f"{part!r}: the limit must be a number of ms or s", param_hint="--slo"
            ) from None
        if not 0 < number < float("inf"):  # also refuses nan
            raise typer.BadParameter(
                f"{part!r}: the limit must be a finite number above 0", param_hint="--slo"
            )
        limits[key] = number * scale
    return SloRecord(**limits)
