"""The backend interface: one async `complete(request) -> Completion` per protocol.

Retries live here, once for every protocol: retryable faults (429 honouring Retry-After, 5xx,
refused connections, timeouts, streams cut before their end) are retried with capped exponential
backoff; the partial answer of a failed attempt is discarded and the failure recorded on the
completion that finally succeeds. Model-side mistakes are not faults and are never retried.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentbench.errors import RetryableBackendError
from agentbench.records import Completion, ServerInfo, TokensMethod
from agentbench.records import strip_credentials as strip_credentials  # one home: records

if TYPE_CHECKING:
    from agentbench.backends.providers import ServerProtocol


@dataclass
class ChatRequest:
    """One model call. `tools` are OpenAI function schemas; None offers no tools."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] | None = None
    max_tokens: int | None = 1024
    temperature: float | None = 0.0
    logprobs: bool = False
    extra_body: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 3
    backoff_s: float = 0.5
    max_backoff_s: float = 8.0
    connect_timeout_s: float = 10.0
    request_timeout_s: float = 300.0  # one call, from sending to the last byte
    idle_timeout_s: float = 60.0  # between two stream events, once the first one arrived
    # False: a kept-alive connection pool (what real clients do); True: a new connection per
    # call, so every call pays connect (and TLS) in its connect_s (the cold path).
    new_connection_per_request: bool = False

    def delay(self, attempt: int, retry_after_s: float | None) -> float:
        if retry_after_s is not None:
            return min(max(retry_after_s, 0.0), 60.0)
        return min(self.backoff_s * (2**attempt), self.max_backoff_s)


class Backend(ABC):
    """A model server speaking one protocol."""

    provider: str = "openai"
    protocol: ServerProtocol | None = None  # the API it speaks on the wire (None: in-process)

    def __init__(self, base_url: str, model: str, retry: RetryPolicy | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.retry = retry or RetryPolicy()

    async def complete(self, request: ChatRequest) -> Completion:
        """One model call, retried on transient faults. Raises BackendError when it gives up."""
        errors: list[str] = []
        for attempt in range(self.retry.max_retries + 1):
            try:
                completion = await self._read_once(request)
            except RetryableBackendError as exc:
                errors.append(f"{exc.kind}: {exc}")
                if attempt == self.retry.max_retries:
                    raise
                await asyncio.sleep(self.retry.delay(attempt, exc.retry_after_s))
                continue
            completion.retries = attempt
            completion.retry_errors = errors
            return completion
        raise AssertionError("unreachable")

    async def _read_once(self, request: ChatRequest) -> Completion:
        """One attempt. A payload no adapter check foresaw fails the step as a bad stream (its
        message names the error), never the run: server output is untrusted input."""
        try:
            return await self._complete_once(request)
        except (
            ArithmeticError,
            AttributeError,
            LookupError,
            RecursionError,
            TypeError,
            ValueError,
        ) as exc:
            raise RetryableBackendError(
                "bad_stream",
                f"{strip_credentials(self.base_url)} sent a payload agentbench could not read "
                f"({type(exc).__name__}: {str(exc)[:200]})",
            ) from exc

    @abstractmethod
    async def _complete_once(self, request: ChatRequest) -> Completion: ...

    @abstractmethod
    async def server_info(self) -> ServerInfo: ...

    async def check_reachable(self) -> None:  # noqa: B027 - optional hook
        """Raise ServerUnavailable / NotAnLLMServer when the server cannot be used at all."""

    async def count_tokens(self, text: str) -> tuple[int, TokensMethod]:
        """Tokens in `text`: the server's tokenizer where it has one, else an estimate."""
        from agentbench.tokens import estimate_tokens

        return estimate_tokens(text), "estimated"

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        pass

    async def __aenter__(self) -> Backend:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
