"""Ollama's native chat API (`POST /api/chat`, streaming NDJSON), for its own eval counters.

Why native and not Ollama's OpenAI-compatible `/v1`: only `/api/chat` reports the server's view
of the request — `prompt_eval_count` / `prompt_eval_duration` (prefill), `eval_count` /
`eval_duration` (decode, nanoseconds) and `load_duration` — and only `prompt_eval_count` reveals
Ollama's *silent* context truncation: a prompt longer than `num_ctx` is cut from the front
without an error, and the model answers a conversation it never fully saw (seed 002: an "8,194
token prompt" that was really a much longer one, cut).

Timing follows docs/design.md#timing-and-tokens exactly as the OpenAI adapter does: every NDJSON
line is timestamped on arrival (perf_counter_ns), read into a Delta for the same
StreamAccumulator, and the Completion made by the same backends.stream.assemble. Token counts
come from the server's counters (`tokens_method = "server_counter"`); Ollama gives no separate count
of thinking tokens, so `reasoning_tokens` is the thinking text counted by estimate, marked so.

The agent loop speaks OpenAI-style messages; they are translated here (assistant `tool_calls`
with JSON-text arguments become Ollama's argument objects, `tool` messages carry `tool_name`).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Any

import httpx

from agentbench.backends.base import ChatRequest, RetryPolicy, strip_credentials
from agentbench.backends.http import HttpBackend, unknown_model
from agentbench.backends.limits import trim_cut
from agentbench.backends.ollama_wire import (
    NdjsonReader,
    digest,
    estimate_prompt_tokens,
    int_or_none,
    to_ollama_messages,
)
from agentbench.backends.providers import OLLAMA, api_root
from agentbench.backends.stream import StreamAccumulator, assemble
from agentbench.errors import NotAnLLMServer, RetryableBackendError
from agentbench.records import Completion, ServerInfo

# A prompt_eval_count below this share of our (conservative) estimate of the prompt is a clear
# sign that Ollama dropped part of the prompt. The estimate uses o200k_base, not the model's
# tokenizer, and leaves out the chat template and the tool schemas, so it errs low.
TRUNCATION_RATIO = 0.6
_PREFIX_MEMORY = 4096
# The counters of the `done` line kept with the step.
_COUNTERS = (
    "total_duration",
    "load_duration",
    "prompt_eval_count",
    "prompt_eval_duration",
    "eval_count",
    "eval_duration",
    "done_reason",
)


def ollama_root(base_url: str) -> str:
    """`http://h:11434/v1` or `…/api` -> `http://h:11434` (the native API lives at the root)."""
    return api_root(base_url)


class OllamaBackend(HttpBackend):
    """Ollama's native `/api/chat`, streamed (NDJSON), with its eval counters recorded."""

    provider = "ollama"
    protocol = OLLAMA
    kind = OLLAMA.kind

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        retry: RetryPolicy | None = None,
        client: httpx.AsyncClient | None = None,
        headers: dict[str, str] | None = None,
        think: bool | str | None = None,
        num_ctx: int | None = None,
        options: dict[str, Any] | None = None,
        keep_alive: str | None = None,
        truncation_ratio: float = TRUNCATION_RATIO,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            api_root(base_url),
            model,
            headers=headers,
            client=client,
            retry=retry,
            extra_body=extra_body,
        )
        self.think = think
        self.options: dict[str, Any] = dict(options or {})
        if num_ctx is not None:
            self.options["num_ctx"] = num_ctx
        self.keep_alive = keep_alive
        self.truncation_ratio = truncation_ratio
        # digest of a message list -> prompt_eval_count it was given (bounded, oldest dropped)
        self._prefix_counts: OrderedDict[str, int] = OrderedDict()

    @property
    def num_ctx(self) -> int | None:
        value = self.options.get("num_ctx")
        return int(value) if isinstance(value, int | float) else None

    def build_body(self, request: ChatRequest) -> dict[str, Any]:
        options = dict(self.options)
        if request.temperature is not None:
            options.setdefault("temperature", request.temperature)
        if request.max_tokens is not None:
            options.setdefault("num_predict", request.max_tokens)
        body: dict[str, Any] = {
            "model": self.model,
            "messages": to_ollama_messages(request.messages),
            "stream": True,
        }
        if options:
            body["options"] = options
        if request.tools:
            # Ollama takes OpenAI function schemas as they are; it has no tool_choice.
            body["tools"] = request.tools
        if self.think is not None:
            body["think"] = self.think
        if self.keep_alive is not None:
            body["keep_alive"] = self.keep_alive
        body.update(self.extra_body)
        body.update(request.extra_body)
        return body

    async def _complete_once(self, request: ChatRequest) -> Completion:
        url = self.protocol.url(self.base_url, self.protocol.chat_path)
        reader = NdjsonReader(strip_credentials(url), self.model)
        result = await self.stream(
            url,
            self.build_body(request),
            reader,
            accept=self.protocol.accept,
            max_tokens=request.max_tokens,
        )
        result.acc.finish(time.perf_counter_ns())
        final = reader.final
        if final is None and result.cut_reason:
            final = {"done_reason": "length"}
        if final is None:
            raise RetryableBackendError(
                "stream_cut", f"{reader.url}: stream ended before its `done` line"
            )
        completion = await self._finish(result.acc, reader, final, request.messages)
        if result.cut_reason:
            completion.truncated, completion.truncation_reason = True, result.cut_reason
            trim_cut(completion)
        return completion

    async def _finish(
        self,
        acc: StreamAccumulator,
        reader: NdjsonReader,
        final: dict[str, Any],
        messages: list[dict[str, Any]],
    ) -> Completion:
        answer = acc.answer()
        for i, call in enumerate(answer.tool_calls):
            call.id = call.id or f"call_ollama_{i}"
        done_reason = final.get("done_reason")
        answer.finish_reason = done_reason
        if done_reason in (None, "stop") and answer.tool_calls:
            answer.finish_reason = "tool_calls"
        counters: dict[str, Any] = {k: final[k] for k in _COUNTERS if k in final}
        reported = reader.reported(final)
        estimate = estimate_prompt_tokens(messages)
        counters["prompt_tokens_estimate"] = estimate
        if self.num_ctx is not None:
            counters["num_ctx"] = self.num_ctx
        if self.think is not None:
            counters["think"] = self.think
        truncated, reason = self._truncation(final, reported.prompt, estimate, messages)
        return await assemble(
            acc,
            answer,
            reported,
            self.count_tokens,
            self.model,
            Completion,
            server_decode_tok_s=_rate(reported.output, final.get("eval_duration")),
            server_prefill_tok_s=_rate(reported.prompt, final.get("prompt_eval_duration")),
            server_counters=counters,
            truncated=truncated,
            truncation_reason=reason,
        )

    def _truncation(
        self,
        final: dict[str, Any],
        prompt_count: int | None,
        estimate: int,
        messages: list[dict[str, Any]],
    ) -> tuple[bool, str | None]:
        """Ollama cuts a prompt longer than num_ctx without saying so: find it in the counters."""
        reasons: list[str] = []
        if final.get("done_reason") == "length":
            reasons.append("done_reason=length (num_predict reached)")
        if prompt_count is not None:
            ctx = f" (num_ctx={self.num_ctx})" if self.num_ctx else " (num_ctx: server default)"
            if estimate >= 16 and prompt_count < self.truncation_ratio * estimate:
                reasons.append(
                    f"silent context truncation: prompt_eval_count {prompt_count} is far below "
                    f"the ~{estimate} tokens sent{ctx}; Ollama dropped the start of the prompt — "
                    "raise num_ctx"
                )
            else:
                found = self._longest_prefix_count(messages)
                if found is not None:
                    n, prior = found
                    added = estimate_prompt_tokens(messages[n:])
                    expected = prior + int(self.truncation_ratio * added)
                    if prompt_count < expected:
                        reasons.append(
                            f"silent context truncation: prompt_eval_count {prompt_count} is "
                            f"below the {prior} tokens an earlier request with the same "
                            f"conversation prefix was counted at, plus ~{added} tokens added "
                            f"since{ctx}; Ollama dropped the start of the prompt — raise num_ctx"
                        )
            self._remember(messages, prompt_count)
        return (bool(reasons), "; ".join(reasons) or None)

    def _longest_prefix_count(self, messages: list[dict[str, Any]]) -> tuple[int, int] | None:
        """(prefix length, prompt_eval_count) of the longest earlier prompt this one extends."""
        for n in range(len(messages), 0, -1):
            count = self._prefix_counts.get(digest(messages[:n]))
            if count is not None:
                return n, count
        return None

    def _remember(self, messages: list[dict[str, Any]], count: int) -> None:
        key = digest(messages)
        self._prefix_counts[key] = max(count, self._prefix_counts.get(key, 0))
        self._prefix_counts.move_to_end(key)
        while len(self._prefix_counts) > _PREFIX_MEMORY:
            self._prefix_counts.popitem(last=False)

    async def server_info(self) -> ServerInfo:
        """Version (/api/version), model facts (/api/show), loaded context (/api/ps)."""
        root = self.base_url
        version = await self._get_json(self.protocol.version_url(root))
        show = await self._post_json(f"{root}/api/show", {"model": self.model})
        ps = await self._get_json(f"{root}/api/ps")
        extra: dict[str, Any] = {"options": dict(self.options)}
        if self.think is not None:
            extra["think"] = self.think
        model_ctx = None
        spec: bool | None = None
        if isinstance(show, dict):
            info = show.get("model_info") or {}
            model_ctx = next(
                (
                    int(v)
                    for k, v in info.items()
                    if k.endswith(".context_length") and isinstance(v, int)
                ),
                None,
            )
            extra["capabilities"] = show.get("capabilities")
            extra["details"] = show.get("details")
            extra["model_context_length"] = model_ctx
            params = str(show.get("parameters") or "")
            extra["parameters"] = params or None
            for line in params.splitlines():
                key, _, value = line.strip().partition(" ")
                if key == "num_ctx" and value.strip().isdigit():
                    extra["modelfile_num_ctx"] = int(value.strip())
            if "draft" in params or any("draft" in k or "nextn" in k or "mtp" in k for k in info):
                spec = True
        loaded_ctx = None
        if isinstance(ps, dict):
            for entry in ps.get("models") or []:
                names = {entry.get("name"), entry.get("model")} if isinstance(entry, dict) else {}
                if self.model in names or f"{self.model}:latest" in names:
                    loaded_ctx = int_or_none(entry.get("context_length"))
        extra["loaded_context_length"] = loaded_ctx
        return ServerInfo(
            kind=self.kind,
            provider=self.provider,
            base_url=strip_credentials(self.base_url),
            model=self.model,
            version=version.get("version") if isinstance(version, dict) else None,
            # The context that applies: ours, else the loaded model's, the Modelfile's, the model's.
            max_context=(self.num_ctx or loaded_ctx or extra.get("modelfile_num_ctx") or model_ctx),
            spec_decode_seen=spec,
            extra=extra,
        )

    async def check_reachable(self) -> None:
        """Before any episode: Ollama answers and has the model pulled (one line)."""
        url = self.protocol.url(self.base_url, self.protocol.models_path)
        served = self.protocol.model_names(await self.get_json(url))
        if served is None:
            raise NotAnLLMServer(
                f"{url} is not Ollama's model list; is this "
                "an Ollama server? It listens on port 11434 by default"
            )
        if served and not {self.model, f"{self.model}:latest"} & set(served):
            raise unknown_model(
                self.model, served, self.base_url, self.protocol.pull_hint.format(model=self.model)
            )

    async def _get_json(self, url: str) -> Any:
        try:
            async with asyncio.timeout(5.0):
                response = await self.client.get(url, headers=self.auth_headers(), timeout=5.0)
            return response.json() if response.status_code == 200 else None
        except (httpx.HTTPError, ValueError, TimeoutError):
            return None

    async def _post_json(self, url: str, payload: dict[str, Any]) -> Any:
        try:
            async with asyncio.timeout(5.0):
                response = await self.client.post(
                    url, json=payload, headers=self.auth_headers(), timeout=5.0
                )
            return response.json() if response.status_code == 200 else None
        except (httpx.HTTPError, ValueError, TimeoutError):
            return None


def _rate(count: int | None, duration_ns: Any) -> float | None:
    """Ollama's own rate: count / (duration in ns / 1e9); None when either is missing or 0."""
    if count is None or not isinstance(duration_ns, int | float) or duration_ns <= 0:
        return None
    return count / (duration_ns / 1e9)
