"""OpenAI-compatible chat completions over SSE (vLLM, llama.cpp, SGLang, OpenAI, refserver).

We speak HTTP with httpx ourselves rather than through the openai SDK: timing needs the arrival
time of every SSE line (the first byte, the first reasoning delta, the first answer delta), and
the payload quirks of each server (reasoning vs reasoning_content, usage in a final chunk with no
choices, llama.cpp's `timings`) must be read raw. The SDK, which now runs on httpx2, hides both.
The chunks themselves are read by backends.sse.SseReader.
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

import httpx

from agentbench.backends.base import ChatRequest, RetryPolicy, strip_credentials
from agentbench.backends.http import HttpBackend, unknown_model
from agentbench.backends.limits import StreamLimits, trim_cut
from agentbench.backends.sse import SseReader, count
from agentbench.backends.stream import StreamAccumulator
from agentbench.errors import NotAnLLMServer, RetryableBackendError
from agentbench.records import Completion, ServerInfo, TokensMethod
from agentbench.tokens import estimate_tokens

ROUTER_HEADER = "x-model-router-selected-model"


class OpenAICompatBackend(HttpBackend):
    """Any server implementing POST /v1/chat/completions with `stream: true`."""

    provider = "openai"
    kind = "openai-compatible"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        headers: dict[str, str] | None = None,
        client: httpx.AsyncClient | None = None,
        retry: RetryPolicy | None = None,
        max_tokens_field: str = "max_tokens",
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            base_url,
            model,
            api_key=api_key,
            headers=headers,
            client=client,
            retry=retry,
            extra_body=extra_body,
        )
        self.max_tokens_field = max_tokens_field
        self._tokenizer_route: str | bool | None = None  # None: not probed; False: none

    def build_body(self, request: ChatRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": request.messages,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.max_tokens is not None:
            body[self.max_tokens_field] = request.max_tokens
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.tools:
            body["tools"] = request.tools
            if request.tool_choice is not None:
                body["tool_choice"] = request.tool_choice
        if request.logprobs:
            body["logprobs"] = True
        body.update(self.extra_body)
        body.update(request.extra_body)
        return body

    async def _complete_once(self, request: ChatRequest) -> Completion:
        url = f"{self.base_url}/chat/completions"
        reader = SseReader(strip_credentials(url), StreamLimits.for_max_tokens(request.max_tokens))
        result = await self.stream(
            url,
            self.build_body(request),
            reader,
            accept="text/event-stream",
            max_tokens=request.max_tokens,
        )
        acc = result.acc
        acc.finish(time.perf_counter_ns())
        if result.cut_reason is None and not reader.complete and acc.finish_reason is None:
            raise RetryableBackendError("stream_cut", f"{reader.url}: stream ended before [DONE]")
        completion = await self._finish(acc, reader.usage, reader.timings, reader.logprobs)
        if result.cut_reason:
            completion.finish_reason = completion.finish_reason or "length"
            completion.truncated, completion.truncation_reason = True, result.cut_reason
            trim_cut(completion)
        selected = result.headers.get(ROUTER_HEADER)
        if selected:
            completion.server_counters["selected_model"] = selected
            completion.model = selected
        return completion

    async def _finish(
        self,
        acc: StreamAccumulator,
        usage: dict[str, Any] | None,
        timings: dict[str, Any] | None,
        logprobs: list[float],
    ) -> Completion:
        tool_calls = acc.tool_calls()
        produced = acc.reasoning + acc.content + "".join(c.name + c.arguments for c in tool_calls)
        output_tokens: int | None
        method: TokensMethod
        counted = count(usage, "completion_tokens") if usage else None
        if counted is not None:
            output_tokens, method = counted, "usage"
        elif produced:
            output_tokens, method = await self.count_tokens(produced)
        else:
            output_tokens, method = 0, "none"
        reasoning_tokens, reasoning_method = await self._reasoning_tokens(acc, usage)
        prompt_tokens = count(usage, "prompt_tokens") if usage else None
        cached = count(usage, "prompt_tokens_details", "cached_tokens") if usage else None
        completion = Completion(
            model=acc.model or self.model,
            requested_model=self.model,
            prompt_tokens=prompt_tokens,
            cached_prompt_tokens=cached,
            prompt_tokens_method="usage" if prompt_tokens is not None else "none",
            output_tokens=output_tokens,
            reasoning_tokens=reasoning_tokens,
            tokens_method=method,
            reasoning_method=reasoning_method,
            **acc.timing(output_tokens, prompt_tokens, cached),
            finish_reason=acc.finish_reason,
            truncated=acc.finish_reason == "length",
            truncation_reason="finish_reason=length" if acc.finish_reason == "length" else None,
            content=acc.content,
            reasoning=acc.reasoning,
            tool_calls=tool_calls,
            tool_call_fragments=acc.fragments,
            usage=usage,
        )
        if logprobs:
            completion.mean_logprob = sum(logprobs) / len(logprobs)
            completion.min_logprob = min(logprobs)
        if timings:
            self._read_timings(completion, timings)
        return completion

    async def _reasoning_tokens(
        self, acc: StreamAccumulator, usage: dict[str, Any] | None
    ) -> tuple[int | None, TokensMethod]:
        counted = count(usage, "completion_tokens_details", "reasoning_tokens") if usage else None
        if counted is not None:
            return counted, "usage"
        if not acc.reasoning:
            return 0, "none"
        return await self.count_tokens(acc.reasoning)

    @staticmethod
    def _read_timings(completion: Completion, timings: dict[str, Any]) -> None:
        """llama.cpp's per-request `timings` (server view), recorded beside the client view."""
        completion.server_counters["timings"] = timings
        rate = timings.get("predicted_per_second")
        if isinstance(rate, int | float) and math.isfinite(rate) and rate > 0:
            completion.server_decode_tok_s = float(rate)
        rate = timings.get("prompt_per_second")
        if isinstance(rate, int | float) and math.isfinite(rate) and rate > 0:
            completion.server_prefill_tok_s = float(rate)

    async def count_tokens(self, text: str) -> tuple[int, TokensMethod]:
        """Server tokenizer (vLLM/llama.cpp `/tokenize`, llama-cpp-python `/extras/tokenize`)."""
        if self._tokenizer_route is not False:
            count = await self._server_tokencount(text)
            if count is not None:
                return count, "server_tokenizer"
        return estimate_tokens(text), "estimated"

    async def _server_tokencount(self, text: str) -> int | None:
        root = self.api_root()
        routes = {
            "vllm": (
                f"{root}/tokenize",
                {"model": self.model, "prompt": text, "add_special_tokens": False},
            ),
            "llama.cpp": (f"{root}/tokenize", {"content": text}),
            "llama-cpp-python": (f"{root}/extras/tokenize", {"input": text}),
        }
        order = [self._tokenizer_route] if isinstance(self._tokenizer_route, str) else list(routes)
        for name in order:
            url, payload = routes[name]
            try:
                data = await self.post_json(url, payload, timeout_s=10.0)
            except (httpx.HTTPError, ValueError, TimeoutError):
                data = None
            count = _tokencount(data)
            if count == 0 and text:
                count = None  # llama-server answers a vLLM-shaped body with no tokens at all
            if count is not None:
                self._tokenizer_route = name
                return count
        self._tokenizer_route = False
        return None

    async def check_reachable(self) -> None:
        """Before any episode: the base URL speaks the API and serves the model (one line)."""
        url = f"{self.base_url}/models"
        models = await self.get_json(url)
        entries = models.get("data") if isinstance(models, dict) else None
        if not isinstance(entries, list):
            raise NotAnLLMServer(
                f"{strip_credentials(url)} is not an OpenAI-compatible model list; check "
                "--base-url (it usually ends in /v1)"
            )
        served = [str(e.get("id")) for e in entries if isinstance(e, dict) and e.get("id")]
        if served and not _serves(entries, self.model):
            raise unknown_model(self.model, served, strip_credentials(self.base_url))

    async def server_info(self) -> ServerInfo:
        from agentbench.backends.introspect import describe_openai_server

        return await describe_openai_server(
            self.client, self.base_url, self.model, self.auth_headers()
        )


def _serves(entries: list[Any], model: str) -> bool:
    """Whether a /v1/models list admits `model`. llama.cpp and llama-cpp-python answer to any
    name; the reference server takes `POLICY-PARAM` variants of the policies it lists."""
    for e in entries:
        if not isinstance(e, dict):
            continue
        owner, name = e.get("owned_by"), str(e.get("id"))
        if model == name or owner in ("llamacpp", "me"):
            return True
        if owner == "agentbench-refserver" and re.fullmatch(
            re.escape(name) + r"[-:][0-9.]+", model
        ):
            return True
    return False


def _tokencount(data: Any) -> int | None:
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("count"), int):
        return int(data["count"])
    tokens = data.get("tokens")
    if isinstance(tokens, list):
        return len(tokens)
    return None
