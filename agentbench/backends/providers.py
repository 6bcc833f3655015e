"""Serving protocols and the provider registry: what agentbench knows of each API family, and
how `--model PROVIDER/MODEL` and every served model become a backend.

A `ServerProtocol` holds what differs between OpenAI-compatible servers and Ollama's native API and
is needed outside its adapter: where the chat, model-list and version routes live, how a model
list names its models, where an OpenAI-compatible endpoint is, whether requests take
`tool_choice`, and the hints its error answers call for. Code reads these attributes; it never
branches on a provider's name.

A `Provider` names a protocol, its usual address, the environment variable holding its API key
(None for local servers) and the request field that caps the answer's length. `build_backend`
is the one place a server kind turns into a backend: `run`, `bench`, `doctor` and the profile
lookup all go through it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentbench.backends.base import Backend, RetryPolicy

if TYPE_CHECKING:
    from collections.abc import Callable


def api_root(base_url: str) -> str:
    """`http://h:8000/v1` or `http://h:11434/api` -> the server root (where /tokenize,
    /metrics, /props and Ollama's /api/* live)."""
    url = base_url.rstrip("/")
    for suffix in ("/v1", "/api"):
        if url.endswith(suffix):
            return url[: -len(suffix)]
    return url


@dataclass(frozen=True)
class ServerProtocol:
    name: str  # openai | ollama: the backend that speaks it (build_backend)
    kind: str  # the server kind a server of no known make speaking it is recorded as
    brand: str | None  # the one product that speaks it, named in messages (None: many do)
    at_root: bool  # its routes hang off the server root, not the base URL (`…/v1`)
    chat_path: str
    accept: str  # the streamed answer's media type
    models_path: str
    models_key: str  # the model list's array
    model_keys: tuple[str, ...]  # the fields of an entry that name a model
    version_path: str  # at the server root
    openai_path: str | None  # where its OpenAI-compatible API is (None: the base URL)
    tool_choice: bool  # requests may force a tool
    model_prefix: str | None = None  # `--base-url URL --model PREFIX/NAME` selects it
    missing_api: str = ""  # what an HTTP 404 on its chat route means
    pull_hint: str = ""  # what to do about a model it does not serve ({model})
    upgrade: str | None = None  # how to upgrade a server too old for a model, if it says so

    def url(self, base_url: str, path: str) -> str:
        """The chat or model-list route of the server at `base_url`."""
        return (api_root(base_url) if self.at_root else base_url.rstrip("/")) + path

    def version_url(self, base_url: str) -> str:
        return api_root(base_url) + self.version_path

    def openai_url(self, base_url: str) -> str:
        """Where this server's OpenAI-compatible API lives."""
        if self.openai_path is None:
            return base_url.rstrip("/")
        return api_root(base_url) + self.openai_path

    def model_names(self, listing: Any) -> list[str] | None:
        """The names in a model list (None when it is not this protocol's model list)."""
        entries = listing.get(self.models_key) if isinstance(listing, dict) else None
        if not isinstance(entries, list):
            return None
        names = (
            str(e[k]) for e in entries if isinstance(e, dict) for k in self.model_keys if e.get(k)
        )
        return list(dict.fromkeys(names))


OPENAI = ServerProtocol(
    name="openai",
    kind="openai-compatible",
    brand=None,
    at_root=False,
    chat_path="/chat/completions",
    accept="text/event-stream",
    models_path="/models",
    models_key="data",
    model_keys=("id",),
    version_path="/version",
    openai_path=None,
    tool_choice=True,
    missing_api="no OpenAI-compatible API there; vLLM and llama.cpp serve it under /v1",
)
OLLAMA = ServerProtocol(
    name="ollama",
    kind="ollama",
    brand="Ollama",
    at_root=True,
    chat_path="/api/chat",
    accept="application/x-ndjson",
    models_path="/api/tags",
    models_key="models",
    model_keys=("name", "model"),
    version_path="/api/version",
    openai_path="/v1",
    tool_choice=False,  # Ollama takes OpenAI function schemas but has no tool_choice
    model_prefix="ollama/",
    missing_api="no /api/chat; is this an Ollama server? It listens on port 11434 by default",
    pull_hint="; run `ollama pull {model}` or check `ollama list`",
    upgrade=(
        "upgrade Ollama (curl -fsSL https://ollama.com/install.sh | sh, or pull a newer "
        "ollama/ollama image — ':latest' can lag behind a release), then `ollama pull` the "
        "model again"
    ),
)
PROTOCOLS = (OPENAI, OLLAMA)


@dataclass(frozen=True)
class Provider:
    name: str
    base_url: str  # the usual address; `${VAR:-default}` reads the environment the CLI passes
    api_key_env: str | None = None
    max_tokens_field: str = "max_tokens"
    protocol: ServerProtocol = OPENAI


PROVIDERS: dict[str, Provider] = {}


def register_provider(provider: Provider) -> Provider:
    PROVIDERS[provider.name] = provider
    return provider


for _provider in (
    Provider("vllm", "${VLLM_BASE_URL:-http://localhost:8000/v1}"),
    Provider("llamacpp", "http://localhost:8080/v1"),
    Provider("sglang", "http://localhost:30000/v1"),
    Provider("ollama", "${OLLAMA_HOST:-http://localhost:11434}", protocol=OLLAMA),
    Provider("openai", "https://api.openai.com/v1", "OPENAI_API_KEY", "max_completion_tokens"),
    Provider("openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
):
    register_provider(_provider)


def protocol_of(server: str) -> ServerProtocol:
    """The protocol of a provider or server kind (`openai-compatible`, `llama.cpp`, `ollama`…):
    a provider's own, else the one whose server kind it is, else OpenAI's."""
    provider = PROVIDERS.get(server)
    if provider is not None:
        return provider.protocol
    return next((p for p in PROTOCOLS if p.kind == server), OPENAI)


def served_as(model: str) -> tuple[str, str]:
    """`--base-url URL --model NAME`: (server kind, served name). A protocol's prefix selects
    it (`ollama/NAME`: Ollama's API); any other name is an OpenAI-compatible server's."""
    for protocol in PROTOCOLS:
        if protocol.model_prefix and model.startswith(protocol.model_prefix):
            return protocol.kind, model.removeprefix(protocol.model_prefix)
    return OPENAI.kind, model


@dataclass(frozen=True)
class OllamaOptions:
    """Ollama-only request options (`--num-ctx`, `--think`)."""

    num_ctx: int | None = None
    think: bool | None = None


def _ollama(
    url: str,
    model: str,
    *,
    retry: RetryPolicy,
    ollama: OllamaOptions | None,
    headers: dict[str, str],
    sampling: dict[str, Any],
    extra_body: dict[str, Any],
    **_: Any,
) -> Backend:
    from agentbench.backends.ollama import OllamaBackend

    opts = ollama or OllamaOptions()
    return OllamaBackend(
        url,
        model,
        retry=retry,
        headers=headers,
        num_ctx=opts.num_ctx,
        think=opts.think,
        options=sampling,
        extra_body=extra_body,
    )


def _openai(
    url: str,
    model: str,
    *,
    retry: RetryPolicy,
    api_key: str | None,
    max_tokens_field: str,
    headers: dict[str, str],
    sampling: dict[str, Any],
    extra_body: dict[str, Any],
    **_: Any,
) -> Backend:
    from agentbench.backends.openai_compat import OpenAICompatBackend

    return OpenAICompatBackend(
        url,
        model,
        api_key=api_key,
        headers=headers,
        retry=retry,
        max_tokens_field=max_tokens_field,
        extra_body={**sampling, **extra_body},
    )


# The backend that speaks each protocol (`ServerProtocol.name`).
_BUILDERS: dict[str, Callable[..., Backend]] = {OPENAI.name: _openai, OLLAMA.name: _ollama}


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
    build = _BUILDERS[protocol_of(server).name]
    return build(
        base_url,
        model,
        retry=retry or RetryPolicy(),
        api_key=api_key,
        max_tokens_field=max_tokens_field,
        ollama=ollama,
        headers=headers or {},
        sampling=sampling or {},
        extra_body=extra_body or {},
    )
