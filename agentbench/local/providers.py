"""The provider registry: how `--model PROVIDER/MODEL` and every served model become a backend.

A provider names a serving protocol (OpenAI-compatible or Ollama's own API), its usual address,
the environment variable holding its API key (None for local servers) and the request field that
caps the answer's length. `build_backend` is the one place a server kind turns into a backend:
`run`, `bench`, `doctor` and the profile lookup all go through it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agentbench.backends.base import Backend, RetryPolicy


@dataclass(frozen=True)
class Provider:
    name: str
    base_url: str  # the usual address; `${VAR:-default}` reads the environment the CLI passes
    api_key_env: str | None = None
    max_tokens_field: str = "max_tokens"
    protocol: str = "openai"  # openai | ollama


PROVIDERS: dict[str, Provider] = {}


def register_provider(provider: Provider) -> Provider:
    PROVIDERS[provider.name] = provider
    return provider


for _provider in (
    Provider("vllm", "${VLLM_BASE_URL:-http://localhost:8000/v1}"),
    Provider("llamacpp", "http://localhost:8080/v1"),
    Provider("sglang", "http://localhost:30000/v1"),
    Provider("ollama", "${OLLAMA_HOST:-http://localhost:11434}", protocol="ollama"),
    Provider("openai", "https://api.openai.com/v1", "OPENAI_API_KEY", "max_completion_tokens"),
    Provider("openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
):
    register_provider(_provider)


@dataclass(frozen=True)
class OllamaOptions:
    """Ollama-only request options (`--num-ctx`, `--think`)."""

    num_ctx: int | None = None
    think: bool | None = None


def protocol_of(server: str) -> str:
    """`ollama` for a server kind that speaks Ollama's API, else `openai`."""
    provider = PROVIDERS.get(server)
    return provider.protocol if provider else ("ollama" if server == "ollama" else "openai")


def build_backend(
    server: str,
    base_url: str,
    model: str,
    *,
    retry: RetryPolicy | None = None,
    api_key: str | None = None,
    max_tokens_field: str = "max_tokens",
    ollama: OllamaOptions | None = None,
    headers: dict[str, str] | None = None,
    sampling: dict[str, Any] | None = None,
    extra_body: dict[str, Any] | None = None,
) -> Backend:
    """A backend for `model` on a server of kind `server` (a provider name or a server kind
    such as `openai-compatible`, `llama.cpp`) at `base_url`. `headers`, `sampling` (top_p, seed,
    temperature) and `extra_body` are what the user asked to send with every request."""
    retry = retry or RetryPolicy()
    headers, sampling, extra_body = headers or {}, sampling or {}, extra_body or {}
    if protocol_of(server) == "ollama":
        from agentbench.backends.ollama import OllamaBackend

        opts = ollama or OllamaOptions()
        return OllamaBackend(
            base_url,
            model,
            retry=retry,
            headers=headers,
            num_ctx=opts.num_ctx,
            think=opts.think,
            options=sampling,
            extra_body=extra_body,
        )
    from agentbench.backends.openai_compat import OpenAICompatBackend

    return OpenAICompatBackend(
        base_url,
        model,
        api_key=api_key,
        headers=headers,
        retry=retry,
        max_tokens_field=max_tokens_field,
        extra_body={**sampling, **extra_body},
    )
