"""Prompts from natural text, cut to an exact token count, with a per-repetition nonce.

The text is plain technical prose shipped in agentbench/data/bench_corpus.txt (written for this
project). Random tokens or one repeated word would be processed at the same speed by prefill but
make drafters and n-gram speculators behave unlike real use, so we use prose.

Counting: the server's tokenizer (`/tokenize`, via `Backend.count_tokens`) where it has one, else
tiktoken's o200k_base, marked `estimated`. The measured user message (nonce + instruction + text)
is cut so that it is exactly `prompt_tokens` long by that count; the chat template and any
earlier context (`--depth`) come on top and are recorded from the server's `usage`.

The nonce opens every user message of the conversation, so prefix caching cannot serve a
repetition from an earlier one; `measure_prefix_cache=True` leaves it out on purpose.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from agentbench.bench.scenarios import Scenario
from agentbench.errors import ConfigError

Counter = Callable[[str], Awaitable[tuple[int, str]]]

DEPTH_INTRO = "Here is background material for the questions that follow.\n\n"
DEPTH_REPLY = "I have read the background material and am ready for your question."


def load_corpus() -> list[str]:
    text = resources.files("agentbench.data").joinpath("bench_corpus.txt").read_text("utf-8")
    return [p.strip() for p in text.split("\n\n") if p.strip()]


def new_nonce() -> str:
    return f"[request {secrets.token_hex(6)}]"


def prose(paragraphs: list[str], start: int, min_chars: int) -> str:
    """Paragraphs from `start` on, cycling (each cycle shifted by one), until min_chars long."""
    out: list[str] = []
    size, cycle, n = 0, 0, len(paragraphs)
    while size < min_chars:
        for i in range(n):
            para = paragraphs[(start + cycle + i) % n]
            out.append(para)
            size += len(para) + 2
            if size >= min_chars:
                break
        cycle += 1
    return "\n\n".join(out)


@dataclass
class CutText:
    text: str
    tokens: int  # by `method`
    method: str  # server_tokenizer | estimated
    body_chars: int  # how much of the body was kept (a hint for the next cut)


class TextCutter:
    """Cuts head + body[:k] to exactly `target` tokens by a counting function."""

    def __init__(self, count: Counter) -> None:
        self._count = count
        self.calls = 0
        self.method = "none"

    async def count(self, text: str) -> int:
        self.calls += 1
        n, method = await self._count(text)
        self.method = method
        return n

    async def cut(self, head: str, body: str, target: int, hint: int | None = None) -> CutText:
        """Largest k with count(head + body[:k]) <= target (== target unless a single character
        adds two tokens). Secant steps from `hint`, then bisection."""
        cache: dict[int, int] = {}

        async def f(k: int) -> int:
            if k not in cache:
                cache[k] = await self.count(head + body[:k])
            return cache[k]

        if hint is not None and 0 < hint <= len(body) and await f(hint) == target:
            # The last cut fits this head too (a new nonce seldom changes the count): exact in
            # one count. Bench builds a prompt per request, so this is most of its client cost.
            return CutText(head + body[:hint], target, self.method, hint)
        if await f(0) > target:
            raise ConfigError(
                f"a {target}-token prompt is too short for its own opening "
                f"({cache[0]} tokens); use a larger --pp"
            )
        if hint is None and await f(len(body)) <= target:
            return CutText(head + body, cache[len(body)], self.method, len(body))
        k = min(max(hint if hint is not None else 4 * target, 1), len(body))
        for _ in range(4):
            c = await f(k)
            if c == target and (k == len(body) or await f(k + 1) > target):
                return CutText(head + body[:k], c, self.method, k)
            rate = max(k / max(c - cache[0], 1), 1.0)  # chars per token
            step = round((target - c) * rate) or (1 if c < target else -1)
            k = min(max(k + step, 1), len(body) - 1)
        lo = max((j for j, v in cache.items() if v <= target), default=0)
        hi = min((j for j, v in cache.items() if v > target), default=len(body))
        while hi - lo > 1:  # invariant: f(lo) <= target < f(hi)
            mid = (lo + hi) // 2
            if await f(mid) <= target:
                lo = mid
            else:
                hi = mid
        return CutText(head + body[:lo], cache[lo], self.method, lo)


@dataclass
class Prompt:
    """One request's conversation; `prompt_text` is the measured last user message."""

    messages: list[dict[str, Any]]
    prompt_tokens: int  # the measured user message, by `method`
    depth_tokens: int  # the earlier context, by `method`
    method: str
    nonce: str | None


class PromptBuilder:
    """Builds the conversations of one scenario and depth; caches cut positions between calls."""

    def __init__(self, count: Counter, *, measure_prefix_cache: bool = False) -> None:
        self.cutter = TextCutter(count)
        self.paragraphs = load_corpus()
        self.measure_prefix_cache = measure_prefix_cache
        self._hints: dict[tuple[str, int], int] = {}
        self._instructed: dict[tuple[str, int], bool] = {}  # the instruction fits the prompt
        self._fixed: dict[tuple[str, int], Prompt] = {}

    def _body(self, start: int, tokens: int) -> str:
        return prose(self.paragraphs, start, 8 * tokens + 2000)

    async def _message(
        self, key: tuple[str, int], nonce: str | None, instruction: str, start: int, tokens: int
    ) -> CutText:
        head = f"{nonce} " if nonce else ""
        body = self._body(start, tokens)
        if instruction and self._instructed.get(key) is None:
            short = tokens < 100 and await self.cutter.count(f"{head}{instruction}\n\n") > tokens
            self._instructed[key] = not short  # too short for the instruction: text only
        bare = head
        if instruction and self._instructed[key]:
            head += f"{instruction}\n\n"
        while True:
            try:
                cut = await self.cutter.cut(head, body, tokens, self._hints.get(key))
            except ConfigError:
                if head == bare:
                    raise
                head = bare  # this nonce leaves no room for the instruction: text only
                continue
            if cut.body_chars < len(body):
                break
            body = prose(self.paragraphs, start, 2 * len(body))  # a frugal tokenizer
        self._hints[key] = cut.body_chars
        return cut

    async def build(self, scenario: Scenario, depth: int = 0) -> Prompt:
        """A fresh conversation: a new nonce unless measuring the prefix cache."""
        key = (scenario.name, depth)
        if self.measure_prefix_cache and key in self._fixed:
            return self._fixed[key]
        nonce = None if self.measure_prefix_cache else new_nonce()
        messages: list[dict[str, Any]] = []
        depth_tokens = 0
        if depth > 0:
            ctx = await self._message(
                ("depth", depth), nonce, DEPTH_INTRO.strip(), len(self.paragraphs) // 2, depth
            )
            messages += [
                {"role": "user", "content": ctx.text},
                {"role": "assistant", "content": DEPTH_REPLY},
            ]
            depth_tokens = ctx.tokens
        cut = await self._message(key, nonce, scenario.instruction, 0, scenario.prompt_tokens)
        messages.append({"role": "user", "content": cut.text})
        prompt = Prompt(messages, cut.tokens, depth_tokens, self.cutter.method, nonce)
        if self.measure_prefix_cache:
            self._fixed[key] = prompt
        return prompt
