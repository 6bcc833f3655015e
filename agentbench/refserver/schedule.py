"""The reference server's timing schedule and its tokenizer: the ground truth tests measure against.

Truth, per response: the first token-bearing chunk leaves `ttft_s` after the request arrived; after
that the n-th token (1-based) is out by `ttft_s + (n - 1) / rate_tok_s`, each chunk leaving when its
last token is due. Chunks carry `chunks` tokens in turn (e.g. 1,3,2 — bursts like speculative
decoding). So a correct client measures ttft_s and, by the definition in
docs/design.md#timing-and-tokens (output_tokens - 1) / (t_last - t_first), exactly rate_tok_s.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

_TOKEN = re.compile(r"\s*\w+|\s*[^\w\s]|\s+")


def ref_tokenize(text: str) -> list[str]:
    """The reference server's tokenizer: words and punctuation with their leading space."""
    return _TOKEN.findall(text)


@dataclass(frozen=True)
class Schedule:
    ttft_s: float = 0.05
    rate_tok_s: float = 100.0
    chunks: tuple[int, ...] = (1,)
    reasoning_tokens: int = 0
    reasoning_style: str = "reasoning"  # reasoning | reasoning_content | think
    max_context: int = 262144  # Nemotron's context in Ollama's default load

    def send_offsets(self, n_tokens: int) -> Iterator[tuple[int, float]]:
        """(tokens in chunk, seconds after arrival) for each chunk of an n-token answer."""
        sent = 0
        for size in itertools.cycle(self.chunks or (1,)):
            if sent >= n_tokens:
                return
            size = min(size, n_tokens - sent)
            sent += size
            yield size, self.ttft_s + (sent - 1) / self.rate_tok_s if sent > size else self.ttft_s


@dataclass
class SpecCounters:
    """vLLM-named speculative-decoding counters, driven by the chunk pattern.

    A chunk of k tokens stands for one verification step that drafted `depth` tokens and
    accepted k - 1 of them (the last token is the target model's own).
    """

    depth: int = 3
    drafts: int = 0
    draft_tokens: int = 0
    accepted: int = 0
    accepted_per_pos: list[int] = field(default_factory=lambda: [0, 0, 0])

    def record(self, chunk_tokens: int) -> None:
        self.drafts += 1
        self.draft_tokens += self.depth
        accepted = min(max(chunk_tokens - 1, 0), self.depth)
        self.accepted += accepted
        for pos in range(accepted):
            self.accepted_per_pos[pos] += 1

    @staticmethod
    def chunks_for(depth: int, acceptance: float, steps: int = 100) -> tuple[int, ...]:
        """A chunk pattern whose drafts accept `acceptance` of `depth` drafted tokens on
        average (error diffusion, so the share is exact over the cycle): chunk = accepted + 1."""
        chunks, carried = [], 0.0
        for _ in range(steps):
            carried += acceptance * depth
            accepted = min(int(carried), depth)
            carried -= accepted
            chunks.append(accepted + 1)
        return tuple(chunks)

    def render(self, model: str) -> str:
        label = f'{{model_name="{model}"}}'
        lines = [
            "# TYPE vllm:spec_decode_num_drafts_total counter",
            f"vllm:spec_decode_num_drafts_total{label} {float(self.drafts)}",
            "# TYPE vllm:spec_decode_num_draft_tokens_total counter",
            f"vllm:spec_decode_num_draft_tokens_total{label} {float(self.draft_tokens)}",
            "# TYPE vllm:spec_decode_num_accepted_tokens_total counter",
            f"vllm:spec_decode_num_accepted_tokens_total{label} {float(self.accepted)}",
            "# TYPE vllm:spec_decode_num_accepted_tokens_per_pos_total counter",
        ]
        for pos, count in enumerate(self.accepted_per_pos):
            lines.append(
                f'vllm:spec_decode_num_accepted_tokens_per_pos_total{{model_name="{model}",'
                f'position="{pos}"}} {float(count)}'
            )
        return "\n".join(lines) + "\n"
