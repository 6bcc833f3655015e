"""Coherence gate: a few prompts with checkable answers, asked before any timing.

A server that answers fast but wrongly (a broken quantisation, a wrong chat template, a
synthetic server) would otherwise produce impressive throughput figures for garbage. A model
that fails the gate gets no throughput figures, only the failure. `--skip-gate` exists for
synthetic servers that are not language models.

The expected answer never appears in its question, so a server that echoes the prompt fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agentbench.backends.base import Backend, ChatRequest
from agentbench.errors import BackendError

# Faults that mean there is no model to judge: the run cannot be done (exit 1), not "failed".
FATAL = {"connection_refused", "not_llm_server", "model_not_found", "auth", "timeout"}


@dataclass(frozen=True)
class GateQuestion:
    prompt: str
    pattern: str  # regex searched (case-insensitive) in the answer text, reasoning excluded
    expected: str  # shown to the user


# Coherence, not knowledge: questions any working chat model answers, whatever its size. The
# gate catches a broken server (wrong chat template, corrupt weights, an echo); it is not a
# quality test. SmolLM2-135M passes it; it fails 17+25 and 'bonjour' in English.
QUESTIONS: tuple[GateQuestion, ...] = (
    GateQuestion("What is the capital of France? Answer with one word.", r"\bparis\b", "Paris"),
    GateQuestion("What colour is a clear daytime sky? Answer with one word.", r"\bblue\b", "blue"),
    GateQuestion("Complete the sequence with the next number only: 2, 4, 6, 8,", r"\b10\b", "10"),
    GateQuestion("What is 2+2? Answer with the number only.", r"(?<![\d.])4(?!\d|\.\d)", "4"),
)


@dataclass
class GateResult:
    passed: bool
    checks: list[dict[str, Any]] = field(default_factory=list)
    skipped: bool = False

    @property
    def summary(self) -> str:
        if self.skipped:
            return "coherence gate skipped (--skip-gate)"
        ok = sum(c["passed"] for c in self.checks)
        return f"coherence gate {'passed' if self.passed else 'FAILED'}: {ok}/{len(self.checks)}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "skipped": self.skipped,
            "checks": self.checks,
            "summary": self.summary,
        }


def check_answer(question: GateQuestion, answer: str) -> bool:
    return re.search(question.pattern, answer, re.IGNORECASE) is not None


async def run_gate(
    backend: Backend, questions: tuple[GateQuestion, ...] = QUESTIONS, max_tokens: int = 2048
) -> GateResult:
    """Ask each question once at temperature 0; every answer must be right to pass.

    max_tokens is generous so that reasoning models can think before they answer.
    """
    checks = []
    for q in questions:
        request = ChatRequest(
            messages=[{"role": "user", "content": q.prompt}], max_tokens=max_tokens, temperature=0.0
        )
        try:
            completion = await backend.complete(request)
            answer, error = completion.content, None
        except BackendError as exc:
            if exc.kind in FATAL:
                raise
            answer, error = "", f"{exc.kind}: {exc}"
        passed = error is None and check_answer(q, answer)
        checks.append(
            {
                "prompt": q.prompt,
                "expected": q.expected,
                "answer": " ".join(answer.split())[:200],
                "passed": passed,
                "error": error,
            }
        )
    return GateResult(passed=all(c["passed"] for c in checks), checks=checks)
