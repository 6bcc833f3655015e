"""Result records: what a step, an episode and a run measured. Reports only render these.

Units are in the names (`_s` seconds, `_tok_s` tokens per second). A figure the server or the
client could not measure is `None`, never 0. Timing follows DESIGN.md: client clock
`perf_counter_ns`, every offset measured from `t_send` of the same request.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

TokensMethod = Literal["usage", "server_tokenizer", "estimated", "server_counter", "none"]
ToolCallMethod = Literal["native", "text_parsed", "prompt"]


class ToolCallRecord(BaseModel):
    """A tool call as the model produced it."""

    id: str | None = None
    name: str
    arguments: str = Field(description="Raw argument text as received (may be invalid JSON).")
    parsed: dict[str, Any] | None = Field(default=None, description="None when not valid JSON.")


class Completion(BaseModel):
    """One model call as a backend measured it."""

    model: str = Field(description="Model name the server reported (or the one requested).")
    requested_model: str
    prompt_tokens: int | None = None
    cached_prompt_tokens: int | None = None
    prompt_tokens_method: TokensMethod = "none"
    output_tokens: int | None = None
    reasoning_tokens: int | None = None
    tokens_method: TokensMethod = "none"
    reasoning_method: TokensMethod = "none"
    ttft_byte_s: float | None = Field(default=None, description="First SSE event - t_send.")
    ttft_s: float | None = Field(default=None, description="First token-bearing delta - t_send.")
    ttfa_s: float | None = Field(default=None, description="First answer/tool delta - t_send.")
    t_last_s: float | None = Field(default=None, description="Last token-bearing delta - t_send.")
    duration_s: float | None = Field(default=None, description="Stream end - t_send.")
    decode_tok_s: float | None = Field(
        default=None, description="(output_tokens - 1) / (t_last - t_first_token)."
    )
    prefill_tok_s: float | None = Field(
        default=None, description="Client view: uncached prompt tokens / ttft_s."
    )
    server_decode_tok_s: float | None = None
    server_prefill_tok_s: float | None = None
    server_counters: dict[str, Any] = Field(
        default_factory=dict, description="Raw server-side timing counters, as reported."
    )
    token_events: int = Field(default=0, description="SSE events that carried any token text.")
    finish_reason: str | None = None
    truncated: bool = False
    truncation_reason: str | None = None
    content: str = ""
    reasoning: str = ""
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    mean_logprob: float | None = None
    min_logprob: float | None = None
    retries: int = 0
    retry_errors: list[str] = Field(default_factory=list)


class ToolResultRecord(BaseModel):
    name: str
    output: str
    ok: bool
    kind: str
    latency_s: float


class RouterDecisionRecord(BaseModel):
    target: str
    policy: str
    reason: str
    decision_s: float = 0.0


class StepRecord(Completion):
    """One model call inside an episode, with what the agent did with it."""

    index: int
    target: str = "local"
    t_start_s: float = Field(description="t_send relative to the episode's first t_send.")
    tool_results: list[ToolResultRecord] = Field(default_factory=list)
    tool_time_s: float = 0.0
    router: RouterDecisionRecord | None = None
    discarded: bool = Field(default=False, description="Answer discarded (e.g. escalated).")
    invalid_tool_call: str | None = Field(
        default=None, description="Why the model's tool call was not a valid call, if it was not."
    )
    tool_call_method: ToolCallMethod | None = Field(
        default=None,
        description="How the step's calls were read: the server's tool_calls (native), the "
        "model's text in native mode (text_parsed), or prompt mode's JSON (prompt).",
    )
    error: str | None = None
    cost_usd: float | None = None


class CheckRecord(BaseModel):
    name: str
    passed: bool
    detail: str


EpisodeStatus = str  # ok | wrong | truncated | budget_exhausted | timeout | backend_error:<kind>


class EpisodeResult(BaseModel):
    run_id: str
    task_id: str
    category: str
    difficulty: str
    step_kind: str
    repeat: int
    status: EpisodeStatus
    score: float | None = Field(description="In [0, 1]; None when not scored (backend error).")
    checks: list[CheckRecord] = Field(default_factory=list)
    explanation: str = ""
    final_answer: str | None = None
    steps: list[StepRecord] = Field(default_factory=list)
    time_to_done_s: float | None = None
    model_time_s: float = 0.0
    tool_time_s: float = 0.0
    router_time_s: float = 0.0
    output_tokens: int | None = None
    reasoning_tokens: int | None = None
    thinking_tokens_per_step: float | None = None
    tool_mode: str = "native"
    started_at: str = ""
    spec_decode: dict[str, Any] | None = None
    cost_usd: float | None = None

    @property
    def success(self) -> bool:
        return self.status == "ok"


class ServerInfo(BaseModel):
    """The serving setup a result was measured on."""

    kind: str = Field(description="vllm, llama.cpp, ollama, refserver, openai-compatible, ...")
    base_url: str = Field(description="Endpoint, credentials stripped.")
    model: str
    version: str | None = None
    max_context: int | None = None
    spec_decode_seen: bool | None = None
    provider: str = "openai"
    note: str | None = None
    extra: dict[str, Any] = Field(default_factory=dict)


class RunRecord(BaseModel):
    """One invocation over a suite: its configuration, serving setup and (when done) summary."""

    run_id: str
    created_at: str
    status: str = "running"  # running | complete | interrupted | failed
    kind: str = "run"  # run | bench
    task_dir: str | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    server: ServerInfo | None = None
    summary: dict[str, Any] | None = None
