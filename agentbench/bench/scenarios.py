"""Benchmark scenarios: a prompt length (pp) and a forced output length (tg).

The four built-in shapes follow the users' own write-up (seed 000): chat_short 128/256,
code_generation 512/1024, chat_long_context 8192/256, summarization 16384/128. `--pp N --tg M`
adds a custom scenario named `pp{N}_tg{M}`.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentbench.errors import ConfigError


@dataclass(frozen=True)
class Scenario:
    name: str
    prompt_tokens: int  # pp: tokens in the measured user prompt (nonce included)
    max_tokens: int  # tg: output tokens requested and, where the server allows, forced
    instruction: str  # what the prompt asks for, so the text reads as a real request

    def context_needed(self, depth: int, overhead: int = 0) -> int:
        """Tokens the server must hold: earlier context + prompt + template overhead + output."""
        return depth + self.prompt_tokens + overhead + self.max_tokens


BUILTIN: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario(
            "chat_short",
            128,
            256,
            "Explain the notes below to a colleague, in your own words and at length.",
        ),
        Scenario(
            "code_generation",
            512,
            1024,
            "Write a Python module that implements the ideas in the notes below, with "
            "docstrings, type hints and unit tests.",
        ),
        Scenario(
            "chat_long_context",
            8192,
            256,
            "Read the document below, then list its main points and answer: which "
            "trade-offs does it describe?",
        ),
        Scenario("summarization", 16384, 128, "Summarize the following document in one paragraph."),
    )
}

CUSTOM_INSTRUCTION = "Read the text below and continue writing about the same topics."


def custom(pp: int, tg: int) -> Scenario:
    if pp < 1 or tg < 1:
        raise ConfigError(f"--pp {pp} --tg {tg}: both must be at least 1 token")
    return Scenario(f"pp{pp}_tg{tg}", pp, tg, CUSTOM_INSTRUCTION)


def select(names: str | None, pp: int | None, tg: int | None) -> list[Scenario]:
    """The scenarios to run: --scenario NAME,... and/or a custom --pp/--tg (default: built-ins).

    `--pp` alone or `--tg` alone takes the other figure from chat_short's shape (128 / 256).
    """
    chosen: list[Scenario] = []
    if names:
        for name in (n.strip() for n in names.split(",")):
            if not name:
                continue
            if name not in BUILTIN:
                raise ConfigError(
                    f"--scenario {name}: unknown; built-in scenarios are "
                    f"{', '.join(BUILTIN)} (or give --pp N --tg M)"
                )
            chosen.append(BUILTIN[name])
    if pp is not None or tg is not None:
        chosen.append(custom(pp if pp is not None else 128, tg if tg is not None else 256))
    if not chosen:
        chosen = list(BUILTIN.values())
    return chosen
