"""Fault injection for the reference server: scripted per request or at a seeded rate.

Transport faults (the client must retry them, or classify them when retries run out):
    http_429 (with Retry-After: 0), http_500, http_503, reset (connection dropped mid-response),
    ttfb_timeout (no byte for `stall_s`), stall (stops mid-stream for `stall_s`),
    cut (stream ends without finish_reason or [DONE]), malformed (an SSE line that is not JSON)
Model-side faults (agent behaviour: recorded and scored, never retried):
    bad_tool_json, unknown_tool, tool_loop (repeats the first reference call), empty,
    huge (thousands of tokens: hits max_tokens), wrong_model (the response names another model)

Every injected fault is logged with the task it hit, so a soak test can tell clean episodes
from faulted ones.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from agentbench.refserver.answers import Answer

TRANSPORT = (
    "http_429",
    "http_500",
    "http_503",
    "reset",
    "ttfb_timeout",
    "stall",
    "cut",
    "malformed",
)
MODEL_SIDE = ("bad_tool_json", "unknown_tool", "tool_loop", "empty", "huge", "wrong_model")
ALL_FAULTS = TRANSPORT + MODEL_SIDE


@dataclass
class FaultPlan:
    rate: float = 0.0
    kinds: tuple[str, ...] = ALL_FAULTS
    seed: int = 0
    script: list[str | None] = field(default_factory=list)  # by request number, then `rate`
    stall_s: float = 3.0
    log: list[tuple[int, str, str]] = field(default_factory=list)  # (request, task id, kind)

    def __post_init__(self) -> None:
        unknown = set(self.kinds) - set(ALL_FAULTS)
        if unknown:
            raise ValueError(f"unknown fault kinds: {', '.join(sorted(unknown))}")

    def draw(self, request: int, task_id: str) -> str | None:
        if request - 1 < len(self.script):
            kind = self.script[request - 1]
        else:
            digest = hashlib.sha256(f"{self.seed}:{request}".encode()).digest()
            rng = random.Random(int.from_bytes(digest[:8], "big"))
            kind = rng.choice(self.kinds) if rng.random() < self.rate else None
        if kind:
            self.log.append((request, task_id, kind))
        return kind


def mutate_answer(ans: Answer, kind: str | None, first_call: tuple[str, str] | None) -> Answer:
    """Apply a model-side fault to the scripted answer."""
    if kind == "bad_tool_json":
        name = ans.tool_calls[0][0] if ans.tool_calls else (first_call or ("run_command", ""))[0]
        return Answer(reasoning=ans.reasoning, tool_calls=[(name, '{"cmd": "kubectl get')])
    if kind == "unknown_tool":
        return Answer(reasoning=ans.reasoning, tool_calls=[("nonexistent_tool", "{}")])
    if kind == "tool_loop" and first_call:
        return Answer(reasoning=ans.reasoning, tool_calls=[first_call])
    if kind == "empty":
        return Answer()
    if kind == "huge":
        return Answer(content="All systems nominal. " * 3000)
    return ans
