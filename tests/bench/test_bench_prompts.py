"""Prompts: natural text, exact length by the server's tokenizer, a nonce at the start."""

from __future__ import annotations

import re

import pytest

from agentbench.backends.base import Backend
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.bench.prompts import PromptBuilder, TextCutter, load_corpus
from agentbench.bench.scenarios import BUILTIN, custom
from agentbench.refserver.schedule import ref_tokenize
from agentbench.tokens import estimate_tokens

from .conftest import CoherentBackend

NONCE = re.compile(r"^\[request [0-9a-f]{12}\] ")


def test_corpus_is_natural_prose_of_a_few_thousand_words() -> None:
    paragraphs = load_corpus()
    words = sum(len(p.split()) for p in paragraphs)
    assert words > 2500
    assert all(p.rstrip().endswith(".") for p in paragraphs)


async def test_prompt_cut_to_exact_token_count_with_server_tokenizer(refserver) -> None:
    backend = OpenAICompatBackend(refserver.base_url, "echo")
    builder = PromptBuilder(backend.count_tokens)
    try:
        for scenario in (custom(37, 8), BUILTIN["code_generation"], BUILTIN["chat_long_context"]):
            for _ in range(2):  # second build reuses the cut as a hint
                prompt = await builder.build(scenario)
                text = prompt.messages[-1]["content"]
                assert prompt.method == "server_tokenizer"
                assert prompt.prompt_tokens == scenario.prompt_tokens
                assert len(ref_tokenize(text)) == scenario.prompt_tokens  # the server's count
    finally:
        await backend.aclose()


async def test_every_prompt_starts_with_its_own_nonce(refserver) -> None:
    backend = OpenAICompatBackend(refserver.base_url, "echo")
    builder = PromptBuilder(backend.count_tokens)
    try:
        prompts = [await builder.build(custom(64, 8), depth=40) for _ in range(4)]
    finally:
        await backend.aclose()
    nonces = [p.nonce for p in prompts]
    assert len(set(nonces)) == 4
    for p in prompts:
        user_messages = [m["content"] for m in p.messages if m["role"] == "user"]
        assert len(user_messages) == 2  # the depth context, then the measured prompt
        for content in user_messages:
            assert NONCE.match(content) and content.startswith(p.nonce)
        assert p.depth_tokens == 40


async def test_measure_prefix_cache_sends_the_same_prompt_without_nonce(refserver) -> None:
    backend = OpenAICompatBackend(refserver.base_url, "echo")
    builder = PromptBuilder(backend.count_tokens, measure_prefix_cache=True)
    try:
        a = await builder.build(custom(50, 8))
        b = await builder.build(custom(50, 8))
    finally:
        await backend.aclose()
    assert a.nonce is None and a.messages == b.messages
    assert not NONCE.match(a.messages[-1]["content"])


async def test_without_server_tokenizer_the_count_is_a_marked_tiktoken_estimate() -> None:
    backend: Backend = CoherentBackend()  # base Backend.count_tokens: tiktoken
    prompt = await PromptBuilder(backend.count_tokens).build(custom(120, 8))
    assert prompt.method == "estimated"
    assert estimate_tokens(prompt.messages[-1]["content"]) == 120


async def test_cutter_returns_largest_prefix_within_target() -> None:
    async def count(text: str) -> tuple[int, str]:
        return len(text.split()), "test"

    cutter = TextCutter(count)
    cut = await cutter.cut("head ", "one two three four five six seven", 4)
    assert cut.tokens == 4 and cut.text.startswith("head one two three")
    assert cutter.calls < 20


async def test_a_nonce_that_leaves_no_room_for_the_instruction_gives_text_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tokenizer whose count depends on the nonce (each digit of it one more token): the
    first nonce fits the instruction, the next does not; every prompt is still exact, and the
    one without room carries text only (the decision is per prompt, not remembered)."""
    import agentbench.bench.prompts as prompts

    nonces = iter(["[request abcdefabcdef]", "[request 123456789012]"] * 5)
    monkeypatch.setattr(prompts, "new_nonce", lambda: next(nonces))

    async def count(text: str) -> tuple[int, str]:
        nonce = NONCE.match(text)
        digits = sum(ch.isdigit() for ch in nonce.group(0)) if nonce else 0
        return len(ref_tokenize(text)) + digits, "server_tokenizer"

    probe = custom(8, 4)
    room = (await count(f"[request abcdefabcdef] {probe.instruction}\n\n"))[0] + 4
    scenario = custom(room, 4)  # 4 tokens of text after the instruction, or none for 12 digits
    builder = PromptBuilder(count)
    texts = []
    for _ in range(10):
        prompt = await builder.build(scenario)
        text = prompt.messages[-1]["content"]
        assert prompt.prompt_tokens == room and (await count(text))[0] == room
        texts.append(text)
    assert [scenario.instruction in t for t in texts] == [True, False] * 5
