"""Result records: what a step, an episode and a run measured. Reports only render these.

Units are in the names (`_s` seconds, `_tok_s` tokens per second). A figure the server or the
client could not measure is `None`, never 0. Timing follows docs/design.md#timing-and-tokens:
client clock `perf_counter_ns`, every offset measured from `t_send` of the same request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, Field, field_validator

from router import LOCAL

SCHEMA_VERSION = 1
"""Version of the results contract (docs/design.md#results-contract): written in every run
record, in the run JSON and in the database (SQLite `user_version`). Bump it when a stable key
changes meaning or goes away; adding keys does not need a bump."""

_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@?#]*@")
_URL_KEYS = ("base_url", "frontier_base_url")


def strip_credentials(url: str) -> str:
    """The URL without user:password@ and without a query string (keys travel there too).

    A URL that does not parse (`http://[::1`, port 99999) still loses its user part."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return _USERINFO.sub(r"\1", url).split("?", 1)[0].rstrip("/")
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{port}" if port else host
    return urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))


def redact_urls(text: str) -> str:
    """Free text (an error line, a log line) with the user:password@ of every URL removed."""
    return _USERINFO.sub(r"\1", text)


def _public_config(config: dict[str, Any]) -> dict[str, Any]:
    """A stored run config with its base URLs (and their --resume flags) stripped."""
    out = dict(config)
    for key in _URL_KEYS:
        if isinstance(out.get(key), str):
            out[key] = strip_credentials(out[key])
    flags = out.get("flags")
    if isinstance(flags, dict) and any(isinstance(flags.get(k), str) for k in _URL_KEYS):
        out["flags"] = _public_config(flags)
    return out


TokensMethod = Literal["usage", "server_tokenizer", "estimated", "server_counter", "none"]
ToolCallMethod = Literal["native", "text_parsed", "prompt"]


class ToolCallRecord(BaseModel):
    """A tool call as the model produced it."""

    id: str | None = None
    name: str
    arguments: str = Field(description="Raw argument text as received (may be invalid JSON).")
    parsed: dict[str, Any] | None = Field(default=None, description="None when not valid JSON.")


class ToolFragmentRecord(BaseModel):
    """One tool-call delta as the server streamed it (before the pieces are joined)."""

    index: int = Field(description="The call's position in the answer.")
    t_s: float = Field(description="Arrival - t_send, seconds (client clock).")
    id: str | None = None
    name: str | None = None
    arguments: str | None = None


class RequestRecord(BaseModel):
    """What one step sent, as the agent built it: OpenAI chat messages, the tool schemas
    offered and the sampling parameters. Headers (credentials) are never part of it. The store
    keeps it compactly (docs/transcripts.md); a protocol adapter may translate it on the wire
    (Ollama's /api/chat), the content is the same."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    logprobs: bool = False
    extra_body: dict[str, Any] = Field(default_factory=dict)
    tool_mode: str = Field(default="native", description="native | prompt (tools in the text).")


TRANSCRIPT_FIELDS = frozenset({"request", "tool_call_fragments", "usage"})
"""Step fields kept in the transcript store, not in the episode row (they are large); read
back with ResultStore.episodes(..., transcripts=True)."""


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
    connect_s: float | None = Field(
        default=None,
        description="Pool wait + TCP connect + TLS before t_send (the first byte written); "
        "not part of ttft_s.",
    )
    connection_reused: bool | None = Field(
        default=None, description="A kept-alive connection carried the call (None: unknown)."
    )
    ttft_byte_s: float | None = Field(default=None, description="First SSE event - t_send.")
    ttft_s: float | None = Field(default=None, description="First token-bearing delta - t_send.")
    ttfa_s: float | None = Field(default=None, description="First answer/tool delta - t_send.")
    t_last_s: float | None = Field(default=None, description="Last token-bearing delta - t_send.")
    duration_s: float | None = Field(default=None, description="Stream end - t_send.")
    decode_tok_s: float | None = Field(
        default=None,
        description="(output_tokens - 1) / (t_last - t_first_token); None when the tokens did "
        "not arrive spread over time (decode_unmeasured_reason says why).",
    )
    decode_unmeasured_reason: str | None = Field(
        default=None, description="Why decode_tok_s, tpot_s and the ITL are None, if they are."
    )
    tpot_s: float | None = Field(
        default=None,
        description="Time per output token after the first: (stream end - t_first_token) / "
        "(output_tokens - 1), as vLLM bench serve's TPOT and AIPerf's per-request ITL.",
    )
    itl_s: list[float] | None = Field(
        default=None,
        exclude=True,
        description="Inter-token latency per token after the first (an event of k tokens "
        "shares its gap k ways); kept in memory for bench, not stored per step.",
    )
    itl_method: str | None = Field(
        default=None, description="one_token_per_event or apportioned_by_text_length."
    )
    chunk_gaps_s: list[float] | None = Field(
        default=None, exclude=True, description="Gap per token-bearing event (vLLM's ITL)."
    )
    prefill_tok_s: float | None = Field(
        default=None, description="Client view: uncached prompt tokens / ttft_s."
    )
    prefill_unmeasured_reason: str | None = None
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
    tool_call_fragments: list[ToolFragmentRecord] = Field(
        default_factory=list, description="Tool-call deltas as streamed (transcript)."
    )
    usage: dict[str, Any] | None = Field(
        default=None, description="The server's usage object, as reported (transcript)."
    )


class ChangeRecord(BaseModel):
    """A state change a tool call made (agentbench.sim.core.base.Change)."""

    system: str
    action: str
    target: str
    detail: str = ""


class AttemptedWriteRecord(BaseModel):
    """A write a call asked for, classified before it ran (agentbench.sim.shell.intent.classify)."""

    program: str
    target: str
    why: str


class ToolResultRecord(BaseModel):
    name: str
    output: str
    ok: bool
    kind: str
    latency_s: float
    source: str = Field(
        default="rule",
        description="Who answered: sim:<program> (a state-backed simulator), rule (a task "
        "rule), fallback (nothing covered the call: off-script), runtime_error.",
    )
    identity: list[str] | None = Field(
        default=None, description="What the simulator resolved the call to; None: nothing."
    )
    changes: list[ChangeRecord] = Field(
        default_factory=list, description="State changes the call made, in order."
    )
    attempted_writes: list[AttemptedWriteRecord] = Field(
        default_factory=list,
        description="Writes the call asked for, by intent (whether or not anything carried "
        "them out): every command of a shell line, SQL by statement type.",
    )
    limit: str | None = Field(
        default=None,
        description="The resource limit that ended the call (time, steps, value_bytes, "
        "total_bytes, fields, regex, yaml, cancelled; deadline: the agent loop abandoned it); "
        "None: it ran to its end.",
    )
    truncated_from: int | None = Field(
        default=None,
        description="The full output's length in characters when the model was sent a "
        "truncated one (its start and end around a marker); None: sent whole.",
    )


class RouterDecisionRecord(BaseModel):
    target: str
    policy: str
    reason: str
    decision_s: float = 0.0


class StepRecord(Completion):
    """One model call inside an episode, with what the agent did with it."""

    index: int
    target: str = LOCAL
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
    raw_content: str | None = Field(
        default=None,
        description="The answer text exactly as the model wrote it, when reading calls out of "
        "it changed `content` (text_parsed, prompt mode); `content` is what the episode kept "
        "and sent back. None: `content` is the model's text.",
    )
    error: str | None = None
    cost_usd: float | None = None
    request: RequestRecord | None = Field(
        default=None, description="What was sent (transcript; None when not recorded)."
    )


@dataclass
class EpisodeTrace:
    """What happened in one episode, before scoring (the agent loop fills it in)."""

    steps: list[StepRecord] = field(default_factory=list)
    final_answer: str | None = None
    status: str = "running"  # answered | budget_exhausted | truncated | timeout | backend_error:*
    error: str | None = None
    state: dict[str, Any] = field(default_factory=dict)
    time_to_done_s: float | None = None
    router_time_s: float = 0.0
    simulator_errors: list[str] = field(default_factory=list)  # the environment's, as it ended

    def kept_steps(self) -> list[StepRecord]:
        """The steps whose answer the episode went on with (discarded answers left out)."""
        return [s for s in self.steps if not s.discarded]

    def calls(self) -> list[tuple[str, dict[str, Any] | None]]:
        """Every tool call the agent made (kept steps only), in order, with parsed args."""
        return [(c.name, c.parsed) for s in self.kept_steps() for c in s.tool_calls]

    def call_results(self) -> list[tuple[str, dict[str, Any] | None, bool]]:
        """(tool, parsed args, result ok) of every call of the kept steps, in order."""
        return [
            (c.name, c.parsed, r.ok)
            for s in self.kept_steps()
            for c, r in zip(s.tool_calls, s.tool_results, strict=False)
        ]


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
    simulator_errors: list[str] = Field(
        default_factory=list,
        description="Calls the simulator could not answer, in order (each went off-script): "
        "'not simulated: CONSTRUCT' for what it does not cover (a jq builtin, docker exec, a "
        "shell function), or the simulator exception a call raised.",
    )

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

    @field_validator("base_url")
    @classmethod
    def _no_credentials(cls, url: str) -> str:
        return strip_credentials(url)


class RunRecord(BaseModel):
    """One invocation over a suite: its configuration, serving setup and (when done) summary."""

    run_id: str
    created_at: str
    schema_version: int = Field(
        default=SCHEMA_VERSION, description="Results contract version the run was written with."
    )
    status: str = "running"  # running | complete | interrupted | failed
    kind: str = "run"  # run | bench
    task_dir: str | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    server: ServerInfo | None = None
    summary: dict[str, Any] | None = None

    @field_validator("config")
    @classmethod
    def _no_credentials(cls, config: dict[str, Any]) -> dict[str, Any]:
        """Records never hold a URL's user:password, whoever built them (or an older store)."""
        return _public_config(config)
