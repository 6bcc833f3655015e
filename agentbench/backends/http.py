"""The HTTP layer every streaming backend shares: one client, auth, the API root, deadlines,
and one mapping from HTTP and transport failures to agentbench's fault kinds.

A protocol adapter (OpenAI SSE, Ollama NDJSON) supplies only a `StreamReader` that turns one
line of its stream into `Delta`s for the `StreamAccumulator`; `HttpBackend.stream` does the rest.
What the error mapping must know of a protocol it reads from `ServerProtocol` (backends.providers).

The call's clock starts at the first request byte written, with connection set-up timed apart
(backends.clock); connections are kept alive unless `RetryPolicy.new_connection_per_request`.
Plain http:// streams go through the lean client of backends.wire, everything else httpx.

Deadlines of one call (see RetryPolicy):
    call deadline   `request_timeout_s` from sending the request to the stream's last byte;
                    nothing resets it.
    idle timeout    `idle_timeout_s` between two stream events once the first one arrived;
                    keep-alive comments (`: ping`) and blank lines are not events.
    runaway stream  a server that streams more than RUNAWAY_FACTOR x max_tokens token events
                    (it ignores max_tokens) is cut; the completion is recorded as truncated.
                    So is one past a bound of backends.limits (bytes per response and per
                    line, tool calls): lines are read from bytes, never more than one line held.
"""

from __future__ import annotations

import asyncio
import difflib
import json
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from agentbench.backends.base import Backend, RetryPolicy, strip_credentials
from agentbench.backends.clock import IdleTimer, SendClock, start_clock
from agentbench.backends.limits import StreamLimits, StreamOverLimit, bounded_lines
from agentbench.backends.providers import OPENAI, ServerProtocol, api_root
from agentbench.backends.stream import StreamAccumulator
from agentbench.backends.wire import WirePool, WireResponse, dump_json, load_json, wire_usable
from agentbench.errors import (
    BackendError,
    ConfigError,
    NotAnLLMServer,
    RetryableBackendError,
    ServerUnavailable,
)
from agentbench.jsontext import loads

RUNAWAY_FACTOR = 2


def _snippet(body: str) -> str:
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and parsed.get("error"):
        error = parsed["error"]
        body = str(error.get("message") or error) if isinstance(error, dict) else str(error)
    return " ".join(body.split())[:200]


def http_error(
    status: int,
    body: str,
    url: str,
    headers: Mapping[str, str],
    *,
    model: str = "",
    protocol: ServerProtocol = OPENAI,
) -> BackendError:
    """The one translation of a non-200 answer into a fault kind, with what to do."""
    snippet = _snippet(body)
    lowered = snippet.lower()
    too_old = protocol.upgrade is not None and (
        status == 412 or f"newer version of {protocol.name}" in lowered
    )
    if status == 429 or (status >= 500 and not (protocol.upgrade and "newer version" in lowered)):
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
    if too_old:
        return BackendError(
            f"{protocol.name}_too_old",
            f"{url}: this {protocol.brand or protocol.kind} is too old for model '{model}' "
            f"(HTTP {status}: {snippet[:160]}). Fix: {protocol.upgrade}.",
            status_code=status,
        )
    if "text/html" in headers.get("content-type", ""):
        return NotAnLLMServer(
            f"{url} answered an HTML page (HTTP {status}), not an LLM API; check --base-url "
            "(OpenAI-compatible servers usually end in /v1).",
            status_code=status,
        )
    if status == 404 and "model" in lowered:
        hint = protocol.pull_hint.format(model=model)
        return BackendError("model_not_found", f"{url}: {snippet}{hint}", status_code=status)
    if status == 404:
        what = protocol.missing_api
        return NotAnLLMServer(f"{url} answered HTTP 404: {what}.", status_code=status)
    if "context" in lowered and ("length" in lowered or "exceed" in lowered):
        return BackendError("context_length", f"{url}: {snippet}", status_code=status)
    return BackendError(
        f"http_{status}", f"{url} answered HTTP {status}: {snippet}", status_code=status
    )


def transport_error(exc: Exception, url: str) -> BackendError:
    """An httpx transport failure as a retryable fault kind."""
    if isinstance(exc, httpx.ConnectError):
        return RetryableBackendError("connection_refused", f"cannot connect to {url}: {exc}")
    if isinstance(exc, httpx.TimeoutException):
        return RetryableBackendError("timeout", f"{url}: no response in time")
    return RetryableBackendError("stream_cut", f"{url}: stream cut: {exc}")


def bad_stream(url: str, line: str, why: str) -> RetryableBackendError:
    """A stream payload we cannot read; the offending line is kept in the message."""
    return RetryableBackendError("bad_stream", f"{url} sent {why}: {line[:200]!r}")


def json_object(url: str, line: str, payload: str, what: str) -> dict[str, Any]:
    """A stream line's payload as a JSON object; else a bad stream naming `what` (a line, an
    SSE payload) and keeping the line."""
    try:
        value = loads(payload)
    except json.JSONDecodeError as exc:
        raise bad_stream(url, line, f"{what} that is not JSON ({exc.msg})") from exc
    if not isinstance(value, dict):
        raise bad_stream(url, line, f"{what} that is not a JSON object")
    return value


def unknown_model(model: str, served: Iterable[str], where: str, hint: str = "") -> ConfigError:
    names = sorted({s for s in served if s})
    close = difflib.get_close_matches(model, names, n=1, cutoff=0.5)
    mean = f"; did you mean '{close[0]}'?" if close else ""
    listed = ", ".join(names[:12]) + (" …" if len(names) > 12 else "") or "none"
    return ConfigError(f"model '{model}' is not served at {where} (served: {listed}){mean}{hint}")


class StreamReader(Protocol):
    """One protocol's stream payloads, fed line by line."""

    complete: bool  # the protocol's end marker ([DONE], `done: true`) was seen

    def feed(self, line: str, now_ns: int, acc: StreamAccumulator) -> None:
        """Read one non-blank line. Raise BackendError for a payload that cannot be read."""


@dataclass
class StreamResult:
    acc: StreamAccumulator
    headers: Mapping[str, str]  # look names up in lower case
    cut_reason: str | None = None  # set when agentbench cut a runaway stream


class HttpBackend(Backend):
    """A backend that streams over one httpx client it owns (or is given)."""

    protocol: ServerProtocol = OPENAI

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        headers: dict[str, str] | None = None,
        client: httpx.AsyncClient | None = None,
        retry: RetryPolicy | None = None,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(base_url, model, retry)
        self.api_key = api_key
        self.headers = dict(headers or {})
        self.extra_body = dict(extra_body or {})  # merged into every request body
        self._owns_client = client is None
        timeout = httpx.Timeout(self.retry.request_timeout_s, connect=self.retry.connect_timeout_s)
        # Kept alive by default, as the OpenAI SDK's client is; none kept = a new connection
        # for every call (--new-connection-per-request).
        keep = 0 if self.retry.new_connection_per_request else 256
        self.client = client or httpx.AsyncClient(
            timeout=timeout,
            limits=httpx.Limits(max_connections=None, max_keepalive_connections=keep),
        )
        self._urls: dict[str, httpx.URL] = {}
        # The streamed POST on plain http:// without a proxy: the lean client (backends.wire).
        self._wire = (
            WirePool(keepalive=keep > 0, connect_timeout_s=self.retry.connect_timeout_s)
            if client is None and wire_usable(self.base_url)
            else None
        )
        for name, value in self.auth_headers().items():
            if any(c in name + value for c in "\r\n\0"):
                raise ConfigError(f"header '{name[:40]}' holds a line break; give it on one line")

    @property
    def connection_policy(self) -> str:
        """`reused` (a kept-alive pool) or `new` (one connection per call), as stored."""
        return "new" if self.retry.new_connection_per_request else "reused"

    def auth_headers(self) -> dict[str, str]:
        """Headers every request carries: the user's `--header`s and the bearer token."""
        out = dict(self.headers)
        if self.api_key:
            out["authorization"] = f"Bearer {self.api_key}"
        return out

    def api_root(self) -> str:
        return api_root(self.base_url)

    async def stream(
        self,
        url: str,
        body: dict[str, Any],
        reader: StreamReader,
        *,
        accept: str,
        max_tokens: int | None,
    ) -> StreamResult:
        """POST `body` and feed every stream line to `reader`, under the call's deadlines."""
        shown = strip_credentials(url)
        loop = asyncio.get_running_loop()
        call_s, idle_s = self.retry.request_timeout_s, self.retry.idle_timeout_s
        deadline = loop.time() + call_s
        clock = SendClock()
        send = self._sender(url, body, {"accept": accept, **self.auth_headers()}, clock)
        limits = StreamLimits.for_max_tokens(max_tokens)
        handed_ns = time.perf_counter_ns()
        acc = StreamAccumulator(t_send_ns=handed_ns, limits=limits)
        result = StreamResult(acc, {})
        limit = RUNAWAY_FACTOR * max_tokens if max_tokens else None
        try:
            async with asyncio.timeout_at(deadline) as scope:
                timer = IdleTimer(scope, loop, deadline)
                try:
                    response = await send()
                except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
                    # e.g. a kept-alive connection the server closed (llama-server after a
                    # cancelled request): nothing was answered, so it is safe to send again
                    raise RetryableBackendError(
                        "connection_closed", f"{shown}: connection closed before any answer: {exc}"
                    ) from exc
                start_clock(acc, clock, handed_ns)
                result.headers = response.headers
                try:
                    await self._check_response(response, shown)
                    async for line in bounded_lines(response.aiter_bytes(), limits):
                        if not line.strip() or line.startswith(":"):
                            continue  # blank lines and keep-alive comments are not events
                        now = time.perf_counter_ns()
                        if reader.complete:
                            continue  # drain after the end marker: the connection is reused
                        acc.event(now)
                        try:
                            reader.feed(line, now, acc)
                        except (AttributeError, TypeError, ValueError, KeyError) as exc:
                            raise bad_stream(shown, line, "a payload of the wrong shape") from exc
                        # after the end marker, only a short drain is worth waiting for
                        timer.event(2.0 if reader.complete else idle_s)
                        if limit and acc.token_events > limit:
                            result.cut_reason = (
                                f"the server streamed over {limit} token events for "
                                f"max_tokens={max_tokens}; agentbench cut the stream"
                            )
                            break
                except StreamOverLimit as exc:  # bytes, a line, or tool calls past their bound
                    result.cut_reason = str(exc)
                finally:
                    await response.aclose()
        except TimeoutError as exc:
            if not reader.complete:
                if loop.time() >= deadline - 0.01:
                    raise RetryableBackendError(
                        "timeout",
                        f"{shown}: no complete answer within the call deadline of "
                        f"{call_s:g} s (--request-timeout)",
                    ) from exc
                raise RetryableBackendError(
                    "timeout", f"{shown}: no stream event for {idle_s:g} s (idle timeout)"
                ) from exc
        except httpx.HTTPError as exc:
            if not reader.complete:
                raise transport_error(exc, shown) from exc
        return result

    def _url(self, url: str) -> httpx.URL:
        """Parsed once per route (parsing costs more than the rest of a request's head)."""
        parsed = self._urls.get(url)
        if parsed is None:
            parsed = self._urls[url] = httpx.URL(url)
        return parsed

    def _sender(
        self, url: str, body: dict[str, Any], headers: dict[str, str], clock: SendClock
    ) -> Callable[[], Awaitable[httpx.Response | WireResponse]]:
        """The call's send, built before its clock starts (body encoded, request made)."""
        if self._wire is not None:
            wire, target, payload = self._wire, self._url(url), dump_json(body)
            return lambda: wire.post(target, headers, payload, clock)
        request = self.client.build_request("POST", url, json=body, headers=headers)
        request.extensions["trace"] = clock
        return lambda: self.client.send(request, stream=True)

    async def _check_response(self, response: httpx.Response | WireResponse, shown: str) -> None:
        if response.status_code != 200:
            text = (await response.aread()).decode("utf-8", "replace")
            raise http_error(
                response.status_code,
                text,
                shown,
                response.headers,
                model=self.model,
                protocol=self.protocol,
            )
        if "text/html" in response.headers.get("content-type", ""):
            raise NotAnLLMServer(f"{shown} answered an HTML page, not a stream of an LLM API.")

    async def post_json(self, url: str, payload: Any, timeout_s: float = 10.0) -> Any:
        """POST a JSON body, the answer's JSON on HTTP 200 else None (a helper route such as
        /tokenize: bench counts every prompt with it, so it takes the lean client too).
        Raises httpx.HTTPError, TimeoutError or ValueError when there is no such answer."""
        async with asyncio.timeout(timeout_s):
            if self._wire is None:
                response = await self.client.post(
                    url, json=payload, headers=self.auth_headers(), timeout=timeout_s
                )
                return response.json() if response.status_code == 200 else None
            answer = await self._wire.post(
                self._url(url), {"accept": "application/json", **self.auth_headers()},
                dump_json(payload),
            )  # fmt: skip
            try:
                body = await answer.aread()
            finally:
                await answer.aclose()
            return load_json(body) if answer.status_code == 200 else None

    async def get_json(self, url: str, timeout_s: float = 10.0) -> Any:
        """GET a JSON document for a pre-flight check; one line when it cannot be had."""
        shown = strip_credentials(url)
        try:
            async with asyncio.timeout(timeout_s):
                response = await self.client.get(
                    url, headers=self.auth_headers(), timeout=timeout_s
                )
        except TimeoutError as exc:
            raise ServerUnavailable(f"{shown}: no complete answer in {timeout_s:g} s") from exc
        except httpx.ConnectError as exc:
            raise ServerUnavailable(
                f"no server answers at {strip_credentials(self.base_url)} (connection refused); "
                "start it or check --base-url"
            ) from exc
        except httpx.HTTPError as exc:
            raise ServerUnavailable(f"{shown}: {type(exc).__name__}: {exc}") from exc
        if response.status_code != 200:
            raise http_error(
                response.status_code,
                response.text,
                shown,
                response.headers,
                model=self.model,
                protocol=self.protocol,
            )
        try:
            return response.json()
        except ValueError as exc:
            raise NotAnLLMServer(
                f"{shown} answered something that is not JSON; check --base-url", status_code=200
            ) from exc

    async def aclose(self) -> None:
        if self._wire is not None:
            await self._wire.aclose()
        if self._owns_client:
            await self.client.aclose()
