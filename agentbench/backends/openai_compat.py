"""OpenAI-compatible chat completions over SSE (vLLM, llama.cpp, SGLang, OpenAI, refserver).

We speak HTTP with httpx ourselves rather than through the openai SDK: timing needs the arrival
time of every SSE line (the first byte, the first reasoning delta, the first answer delta), and
the payload quirks of each server (reasoning vs reasoning_content, usage in a final chunk with no
choices, llama.cpp's `timings`) must be read raw. The SDK, which now runs on httpx2, hides both.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

import httpx

from agentbench.backends.base import Backend, ChatRequest, RetryPolicy, strip_credentials
from agentbench.backends.stream import StreamAccumulator
from agentbench.backends.tokens import estimate_tokens
from agentbench.errors import (
    BackendError,
    NotAnLLMServer,
    RetryableBackendError,
    ServerUnavailable,
)
from agentbench.records import Completion, ServerInfo, TokensMethod

ROUTER_HEADER = "x-model-router-selected-model"


def api_root(base_url: str) -> str:
    """`http://h:8000/v1` -> `http://h:8000` (vLLM and llama.cpp serve /tokenize at the root)."""
    return base_url[:-3] if base_url.endswith("/v1") else base_url


def classify_http_error(status: int, body: str, url: str, headers: httpx.Headers) -> BackendError:
    snippet = " ".join(body.split())[:200]
    if status == 429 or status >= 500:
        retry_after = headers.get("retry-after")
        try:
            delay = float(retry_after) if retry_after else None
        except ValueError:
            delay = None
        kind = "rate_limited" if status == 429 else f"http_{status}"
        return RetryableBackendError(
            kind,
            f"{url} answered HTTP {status}: {snippet}",
            status_code=status,
            retry_after_s=delay,
        )
    if status in (401, 403):
        return BackendError(
            "auth",
            f"{url} refused the credentials (HTTP {status}); check the API key variable.",
            status_code=status,
        )
    if "text/html" in headers.get("content-type", ""):
        return NotAnLLMServer(
            f"{url} answered an HTML page (HTTP {status}), not an OpenAI-compatible API; "
            "check --base-url (it usually ends in /v1).",
            status_code=status,
        )
    lowered = snippet.lower()
    if status == 404 and "model" in lowered:
        return BackendError("model_not_found", f"{url}: {snippet}", status_code=status)
    if status == 404:
        return NotAnLLMServer(
            f"{url} has no chat-completions endpoint (HTTP 404); is this an OpenAI-compatible "
            "server? vLLM and llama.cpp serve it under /v1.",
            status_code=status,
        )
    if "context" in lowered and ("length" in lowered or "exceed" in lowered):
        return BackendError("context_length", f"{url}: {snippet}", status_code=status)
    return BackendError(
        f"http_{status}", f"{url} answered HTTP {status}: {snippet}", status_code=status
    )


class OpenAICompatBackend(Backend):
    """Any server implementing POST /v1/chat/completions with `stream: true`."""

    provider = "openai"
    kind = "openai-compatible"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        client: httpx.AsyncClient | None = None,
        retry: RetryPolicy | None = None,
        max_tokens_field: str = "max_tokens",
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(base_url, model, retry)
        self._api_key = api_key
        self._owns_client = client is None
        timeout = httpx.Timeout(self.retry.request_timeout_s, connect=self.retry.connect_timeout_s)
        self.client = client or httpx.AsyncClient(
            timeout=timeout,
            limits=httpx.Limits(max_connections=None, max_keepalive_connections=256),
        )
        self.max_tokens_field = max_tokens_field
        self.extra_body = extra_body or {}
        self._tokenizer_route: str | bool | None = None  # None: not probed; False: none

    def _headers(self) -> dict[str, str]:
        headers = {"accept": "text/event-stream"}
        if self._api_key:
            headers["authorization"] = f"Bearer {self._api_key}"
        return headers

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
        http_request = self.client.build_request(
            "POST", url, json=self.build_body(request), headers=self._headers()
        )
        t_send = time.perf_counter_ns()
        acc = StreamAccumulator(t_send_ns=t_send)
        usage: dict[str, Any] | None = None
        timings: dict[str, Any] | None = None
        logprobs: list[float] = []
        done = False
        shown_url = strip_credentials(url)
        try:
            response = await self.client.send(http_request, stream=True)
        except httpx.ConnectError as exc:
            raise RetryableBackendError(
                "connection_refused", f"cannot connect to {shown_url}: {exc}"
            ) from exc
        except httpx.TimeoutException as exc:
            raise RetryableBackendError("timeout", f"{shown_url}: no response in time") from exc
        try:
            if response.status_code != 200:
                body = (await response.aread()).decode("utf-8", "replace")
                raise classify_http_error(response.status_code, body, shown_url, response.headers)
            ctype = response.headers.get("content-type", "")
            if "text/html" in ctype:
                raise NotAnLLMServer(f"{shown_url} answered an HTML page, not an SSE stream.")
            selected = response.headers.get(ROUTER_HEADER)
            async for line in response.aiter_lines():
                now = time.perf_counter_ns()
                if done or not line or line.startswith(":"):
                    continue  # after [DONE]: drain, so the connection can be kept alive
                acc.event(now)
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    done = True
                    continue
                try:
                    chunk = json.loads(data)
                except json.JSONDecodeError as exc:
                    raise RetryableBackendError(
                        "malformed_sse",
                        f"{shown_url} sent an SSE line that is not JSON: {data[:80]!r}",
                    ) from exc
                if "error" in chunk and not chunk.get("choices"):
                    raise RetryableBackendError(
                        "stream_error",
                        f"{shown_url} reported an error mid-stream: {str(chunk['error'])[:200]}",
                    )
                self._read_chunk(chunk, acc, now, logprobs)
                usage = chunk.get("usage") or usage
                timings = chunk.get("timings") or timings
        except httpx.TimeoutException as exc:
            raise RetryableBackendError("timeout", f"{shown_url}: stream stalled") from exc
        except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
            raise RetryableBackendError("stream_cut", f"{shown_url}: stream cut: {exc}") from exc
        finally:
            await response.aclose()
        end = time.perf_counter_ns()
        if not done and acc.finish_reason is None:
            raise RetryableBackendError("stream_cut", f"{shown_url}: stream ended before [DONE]")
        acc.finish(end)
        completion = await self._finish(acc, usage, timings, logprobs)
        if selected:
            completion.server_counters["selected_model"] = selected
            completion.model = selected
        return completion

    @staticmethod
    def _read_chunk(
        chunk: dict[str, Any], acc: StreamAccumulator, now: int, logprobs: list[float]
    ) -> None:
        acc.model = chunk.get("model") or acc.model
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            acc.add_reasoning(delta.get("reasoning") or delta.get("reasoning_content") or "", now)
            acc.add_content(delta.get("content") or "", now)
            for call in delta.get("tool_calls") or []:
                function = call.get("function") or {}
                acc.add_tool_fragment(
                    call.get("index", 0),
                    now,
                    id=call.get("id"),
                    name=function.get("name"),
                    arguments=function.get("arguments"),
                )
            if choice.get("finish_reason"):
                acc.finish_reason = choice["finish_reason"]
            for item in (choice.get("logprobs") or {}).get("content") or []:
                if isinstance(item.get("logprob"), int | float):
                    logprobs.append(float(item["logprob"]))

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
        if usage and usage.get("completion_tokens") is not None:
            output_tokens, method = int(usage["completion_tokens"]), "usage"
        elif produced:
            output_tokens, method = await self.count_tokens(produced)
        else:
            output_tokens, method = 0, "none"
        reasoning_tokens, reasoning_method = await self._reasoning_tokens(acc, usage)
        prompt_tokens = usage.get("prompt_tokens") if usage else None
        cached = ((usage or {}).get("prompt_tokens_details") or {}).get("cached_tokens")
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
        details = (usage or {}).get("completion_tokens_details") or {}
        if details.get("reasoning_tokens") is not None:
            return int(details["reasoning_tokens"]), "usage"
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
            count = await self._server_token_count(text)
            if count is not None:
                return count, "server_tokenizer"
        return estimate_tokens(text), "estimated"

    async def _server_token_count(self, text: str) -> int | None:
        root = api_root(self.base_url)
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
                response = await self.client.post(
                    url, json=payload, headers=self._headers(), timeout=10.0
                )
                data = response.json() if response.status_code == 200 else None
            except (httpx.HTTPError, ValueError):
                data = None
            count = _token_count(data)
            if count is not None:
                self._tokenizer_route = name
                return count
        self._tokenizer_route = False
        return None

    async def check_reachable(self) -> None:
        """Fail fast, with one clear line, when nothing (or no LLM API) answers at base_url."""
        url = f"{self.base_url}/models"
        shown = strip_credentials(url)
        try:
            response = await self.client.get(url, headers=self._headers(), timeout=10.0)
        except httpx.ConnectError as exc:
            raise ServerUnavailable(
                f"no server answers at {strip_credentials(self.base_url)} (connection refused); "
                "start it or check --base-url"
            ) from exc
        except httpx.HTTPError as exc:
            raise ServerUnavailable(f"{shown}: {type(exc).__name__}: {exc}") from exc
        if "text/html" in response.headers.get("content-type", ""):
            raise NotAnLLMServer(
                f"{shown} answered an HTML page, not an OpenAI-compatible API; check --base-url "
                "(it usually ends in /v1)",
                status_code=response.status_code,
            )
        if response.status_code in (401, 403):
            raise classify_http_error(response.status_code, response.text, shown, response.headers)

    async def server_info(self) -> ServerInfo:
        from agentbench.backends.introspect import describe_openai_server

        return await describe_openai_server(self.client, self.base_url, self.model, self._headers())

    async def aclose(self) -> None:
        if self._owns_client:
            await self.client.aclose()


def _token_count(data: Any) -> int | None:
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("count"), int):
        return int(data["count"])
    tokens = data.get("tokens")
    if isinstance(tokens, list):
        return len(tokens)
    return None
