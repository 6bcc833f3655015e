"""From CLI flags to connected backends: --local ALIAS | --model PROVIDER/MODEL | --base-url."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from agentbench.backends.base import Backend, RetryPolicy, strip_credentials
from agentbench.backends.providers import PROVIDERS, OllamaOptions, build_backend, served_as
from agentbench.cli.options import RequestOptions
from agentbench.cli.secrets import SECRETS, check_secret, check_url
from agentbench.errors import ConfigError
from agentbench.local.children import stale_warning
from agentbench.local.embedded import EmbeddedServer, launch_for
from agentbench.local.profiles import find_served, load_profiles
from agentbench.records import ServerInfo

__all__ = ["OllamaOptions", "Target", "mark_launched", "open_target"]


@dataclass
class Target:
    backend: Backend
    label: str  # how the user named it
    server_kind: str
    tool_mode: str | None = None
    max_tokens: int | None = None
    serving: dict[str, Any] | None = None  # how agentbench started the server, if it did


def mark_launched(server: ServerInfo, serving: dict[str, Any] | None) -> None:
    """Record how agentbench started the server: its drafter is then known, not guessed."""
    if serving:
        server.extra["launched"] = serving
        server.spec_decode_seen = bool(serving.get("draft_model"))


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
    request: RequestOptions | None = None,
    draft_depth: int | None = None,
    slots: int = 1,
    flag_names: tuple[str, str] = ("--base-url", "--api-key-env"),
) -> Iterator[Target]:
    """Resolve the flags to a backend; an embedded server is started here and always stopped.

    `flag_names` name the URL and key flags in errors (the frontier's have their own).

    The caller closes the backend inside its own event loop (httpx clients are loop-bound).
    """
    from agentbench.local.profiles import expand

    retry = retry or RetryPolicy()
    request = request or RequestOptions()
    sent: dict[str, Any] = {
        "headers": request.headers,
        "sampling": request.sampling(),
        "extra_body": request.extra_body,
    }
    url_flag, key_flag = flag_names
    check_url(base_url, url_flag)
    env = dict(os.environ)
    api_key = _key(env, api_key_env, key_flag) if api_key_env else None
    if api_key_env and not api_key:
        raise ConfigError(f"{key_flag} {api_key_env}: that environment variable is not set")
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
            stale = stale_warning()
            if stale:
                typer.echo(f"warning: {stale}", err=True)
            launch = launch_for(profile, local, draft_depth, slots)
            with EmbeddedServer(launch, env=env) as embedded:
                yield Target(
                    build_backend(
                        "llama.cpp", embedded.base_url, embedded.alias, retry=retry, **sent
                    ),
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
        backend = build_backend(
            found.server,
            found.base_url,
            found.model,
            retry=retry,
            api_key=api_key,
            ollama=ollama,
            **sent,
        )
        yield Target(backend, f"local:{local}", found.server, profile.tool_mode, profile.max_tokens)
        return
    if model is None:
        raise ConfigError("--base-url needs --model NAME (the served model name)")
    if base_url:
        server, name = served_as(model)
        backend = build_backend(
            server, base_url, name, retry=retry, api_key=api_key, ollama=ollama, **sent
        )
        label = f"{strip_credentials(base_url)} {model}"
    else:
        provider, sep, name = model.partition("/")
        spec = PROVIDERS.get(provider) if sep else None
        if spec is None:
            raise ConfigError(
                f"--model {model}: expected PROVIDER/MODEL with PROVIDER one of "
                f"{', '.join(PROVIDERS)}, or --base-url URL --model NAME"
            )
        if spec.api_key_env and not api_key:
            api_key = _key(env, spec.api_key_env, f"--model {model}")
            if not api_key:
                raise ConfigError(f"--model {model} needs an API key in ${spec.api_key_env}")
        server = provider
        backend = build_backend(
            provider,
            expand(spec.base_url, env),
            name,
            retry=retry,
            api_key=api_key,
            max_tokens_field=spec.max_tokens_field,
            ollama=ollama,
            **sent,
        )
        label = model
    yield Target(backend, label, server)


def _key(env: dict[str, str], name: str, flag: str) -> str | None:
    """The API key in $name: remembered as a secret, refused (unshown) if not header-safe."""
    value = env.get(name)
    if value:
        SECRETS.add(value)
        check_secret(value, f"the API key in ${name} ({flag})")
    return value
