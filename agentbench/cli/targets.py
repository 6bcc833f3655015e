"""From CLI flags to connected backends: --local ALIAS | --model PROVIDER/MODEL | --base-url."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentbench.backends.base import Backend, RetryPolicy, strip_credentials
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.errors import ConfigError
from agentbench.local.embedded import EmbeddedServer, launch_for
from agentbench.local.profiles import find_served, load_profiles

PROVIDERS = {
    # provider -> (default base URL or env var holding it, API key env var, max-tokens field)
    "vllm": ("${VLLM_BASE_URL:-http://localhost:8000/v1}", None, "max_tokens"),
    "llamacpp": ("http://localhost:8080/v1", None, "max_tokens"),
    "sglang": ("http://localhost:30000/v1", None, "max_tokens"),
    "ollama": ("${OLLAMA_HOST:-http://localhost:11434}", None, "max_tokens"),
    "openai": ("https://api.openai.com/v1", "OPENAI_API_KEY", "max_completion_tokens"),
    "openrouter": ("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", "max_tokens"),
}


@dataclass
class Target:
    backend: Backend
    label: str  # how the user named it
    server_kind: str
    tool_mode: str | None = None
    max_tokens: int | None = None
    serving: dict[str, Any] | None = None  # how agentbench started the server, if it did


@dataclass(frozen=True)
class OllamaOptions:
    """Ollama-only request options (`--num-ctx`, `--think`)."""

    num_ctx: int | None = None
    think: bool | None = None


def _backend(
    server: str,
    base_url: str,
    model: str,
    api_key: str | None,
    field: str,
    retry: RetryPolicy,
    ollama: OllamaOptions | None = None,
) -> Backend:
    if server == "ollama":
        from agentbench.backends.ollama import OllamaBackend

        opts = ollama or OllamaOptions()
        return OllamaBackend(base_url, model, retry=retry, num_ctx=opts.num_ctx, think=opts.think)
    return OpenAICompatBackend(
        base_url, model, api_key=api_key, retry=retry, max_tokens_field=field
    )


@contextmanager
def open_target(
    *,
    local: str | None,
    model: str | None,
    base_url: str | None,
    api_key_env: str | None = None,
    profiles_file: Path | None = None,
    retry: RetryPolicy | None = None,
    ollama: OllamaOptions | None = None,
    draft_depth: int | None = None,
) -> Iterator[Target]:
    """Resolve the flags to a backend; an embedded server is started here and always stopped.

    The caller closes the backend inside its own event loop (httpx clients are loop-bound).
    """
    from agentbench.local.profiles import expand

    retry = retry or RetryPolicy()
    env = dict(os.environ)
    api_key = env.get(api_key_env) if api_key_env else None
    if api_key_env and not api_key:
        raise ConfigError(f"--api-key-env {api_key_env}: that environment variable is not set")
    given = sum(x is not None for x in (local, base_url)) + (model is not None and not base_url)
    if local and (model or base_url):
        raise ConfigError("give either --local ALIAS or --model/--base-url, not both")
    if given == 0:
        raise ConfigError(
            "name the model: --local ALIAS, --model PROVIDER/MODEL, or --base-url URL --model NAME"
        )
    if local:
        profiles = load_profiles(profiles_file)
        profile = profiles.get(local)
        if profile is None:
            raise ConfigError(f"unknown --local alias '{local}'; known: {', '.join(profiles)}")
        if profile.embedded:
            launch = launch_for(profile, local, draft_depth)
            with EmbeddedServer(launch, env=env) as embedded:
                yield Target(
                    OpenAICompatBackend(embedded.base_url, embedded.alias, retry=retry),
                    f"local:{local}",
                    "llama.cpp",
                    profile.tool_mode,
                    profile.max_tokens,
                    {**launch.describe(), "server_version": embedded.version},
                )
            return
        if draft_depth is not None:
            raise ConfigError(
                f"--draft-depth applies to embedded profiles; '{local}' is served "
                "by a server agentbench does not start"
            )
        found = find_served(local, profile, env)
        backend = _backend(
            found.server, found.base_url, found.model, api_key, "max_tokens", retry, ollama
        )
        yield Target(backend, f"local:{local}", found.server, profile.tool_mode, profile.max_tokens)
        return
    if model is None:
        raise ConfigError("--base-url needs --model NAME (the served model name)")
    if base_url:
        server = "ollama" if model.startswith("ollama/") else "openai-compatible"
        name = model.split("/", 1)[1] if model.startswith("ollama/") else model
        backend = _backend(server, base_url, name, api_key, "max_tokens", retry, ollama)
        label = f"{strip_credentials(base_url)} {model}"
    else:
        provider, sep, name = model.partition("/")
        if not sep or provider not in PROVIDERS:
            raise ConfigError(
                f"--model {model}: expected PROVIDER/MODEL with PROVIDER one of "
                f"{', '.join(PROVIDERS)}, or --base-url URL --model NAME"
            )
        url_template, key_var, field = PROVIDERS[provider]
        if key_var and not api_key:
            api_key = env.get(key_var)
            if not api_key:
                raise ConfigError(f"--model {model} needs an API key in ${key_var}")
        server = "ollama" if provider == "ollama" else provider
        backend = _backend(server, expand(url_template, env), name, api_key, field, retry, ollama)
        label = model
    yield Target(backend, label, server)
