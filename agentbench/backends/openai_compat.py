"""OpenAI-compatible chat completions over SSE (vLLM, llama.cpp, SGLang, OpenAI, refserver).

We speak HTTP with httpx ourselves rather than through the openai SDK: timing needs the arrival
time of every SSE line (the first byte, the first reasoning delta, the first answer delta), and
the payload quirks of each server (reasoning vs reasoning_content, usage in a final chunk with no
choices, llama.cpp's `timings`) must be read raw. The SDK, which now runs on httpx2, hides both.
The chunks themselves are read by backends.sse.SseReader into the one StreamAccumulator, and
the Completion is made by backends.stream.assemble; what stays here is this protocol's own: the
request body, the server tokenizer routes, llama.cpp's `timings` and the router header.
"""

from __future__ import annotations

import math
import re
import time
from typing import Any

import httpx

from agentbench.backends.base import ChatRequest, RetryPolicy, strip_credentials
from agentbench.backends.http import HttpBackend, unknown_model
from agentbench.backends.limits import trim_cut
from agentbench.backends.providers import OPENAI
from agentbench.backends.sse import SseReader
from agentbench.backends.stream import assemble
from agentbench.errors import NotAnLLMServer, RetryableBackendError
from agentbench.records import Completion, ServerInfo, TokensMethod
from agentbench.tokens import estimate_tokens

ROUTER_HEADER = "x-model-router-selected-model"


class OpenAICompatBackend(HttpBackend):
    """Any server implementing POST /v1/chat/completions with `stream: true`."""

    provider = "openai"
    protocol = OPENAI
    kind = OPENAI.kind

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
        url = self.protocol.url(self.base_url, self.protocol.chat_path)
        reader = SseReader(strip_credentials(url))
        result = await self.stream(
            url,
            self.build_body(request),
            reader,
            accept=self.protocol.accept,
            max_tokens=request.max_tokens,
        )
        acc = result.acc
        acc.finish(time.perf_counter_ns())
        if result.cut_reason is None and not reader.complete and acc.finish_reason is None:
            raise RetryableBackendError("stream_cut", f"{reader.url}: stream ended before [DONE]")
        completion = await assemble(
            acc, acc.answer(), reader.reported(), self.count_tokens, self.model, Completion
        )
        if reader.timings:
            self._read_timings(completion, reader.timings)
        if result.cut_reason:
            completion.finish_reason = completion.finish_reason or "length"
            completion.truncated, completion.truncation_reason = True, result.cut_reason
            trim_cut(completion)
        selected = result.headers.get(ROUTER_HEADER)
        if selected:
            completion.server_counters["selected_model"] = selected
            completion.model = selected
        return completion

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
        url = self.protocol.url(self.base_url, self.protocol.models_path)
        models = await self.get_json(url)
        entries = models.get(self.protocol.models_key) if isinstance(models, dict) else None
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
