"""The provider registry and the server probe that `--local`, `--model` and `doctor` share."""

from __future__ import annotations

import socket

import pytest

from agentbench.backends.ollama import OllamaBackend
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.backends.providers import (
    OLLAMA,
    OPENAI,
    PROVIDERS,
    OllamaOptions,
    build_backend,
    protocol_of,
    served_as,
)
from agentbench.errors import ServerUnavailable
from agentbench.local.probe import probe, serves
from agentbench.local.profiles import Profile, find_served


def test_every_provider_builds_the_backend_of_its_protocol() -> None:
    for name, provider in PROVIDERS.items():
        backend = build_backend(
            name, "http://127.0.0.1:9/v1", "m", max_tokens_field=provider.max_tokens_field
        )
        expected = OllamaBackend if provider.protocol is OLLAMA else OpenAICompatBackend
        assert isinstance(backend, expected), name
        assert backend.protocol is provider.protocol, name
    assert protocol_of("llama.cpp") is protocol_of("openai-compatible") is OPENAI
    assert protocol_of("ollama") is OLLAMA
    ollama = build_backend("ollama", "http://127.0.0.1:9", "m", ollama=OllamaOptions(num_ctx=512))
    assert isinstance(ollama, OllamaBackend) and ollama.num_ctx == 512
    assert PROVIDERS["openai"].api_key_env == "OPENAI_API_KEY"
    assert PROVIDERS["vllm"].api_key_env is None


def test_a_model_prefix_selects_ollamas_api_behind_a_base_url() -> None:
    assert served_as("ollama/qwen3:8b") == ("ollama", "qwen3:8b")
    assert served_as("qwen3:8b") == ("openai-compatible", "qwen3:8b")
    assert served_as("vllm/nemotron") == ("openai-compatible", "vllm/nemotron")


def test_each_protocol_knows_its_routes() -> None:
    assert OPENAI.url("http://h:8000/v1/", OPENAI.chat_path) == "http://h:8000/v1/chat/completions"
    assert OLLAMA.url("http://h:11434/v1", OLLAMA.chat_path) == "http://h:11434/api/chat"
    assert OLLAMA.url("http://h:11434/api", OLLAMA.models_path) == "http://h:11434/api/tags"
    assert OPENAI.version_url("http://h:8000/v1") == "http://h:8000/version"
    assert OLLAMA.openai_url("http://h:11434") == "http://h:11434/v1"
    assert OPENAI.openai_url("https://openrouter.ai/api/v1") == "https://openrouter.ai/api/v1"
    listing = {"models": [{"name": "a:latest", "model": "a:latest"}, {"name": "b"}, "junk"]}
    assert OLLAMA.model_names(listing) == ["a:latest", "b"]
    assert OPENAI.model_names(listing) is None


def test_probe_lists_what_the_reference_server_serves(refserver) -> None:
    found = probe("openai-compatible", refserver.base_url)
    assert found.answers and "oracle" in found.served
    assert found.line.startswith("openai-compatible ") and " at http://127.0.0.1:" in found.line
    root = refserver.base_url.removesuffix("/v1")
    on_ollama = probe("ollama", root)
    assert on_ollama.answers and serves("oracle", on_ollama.served)
    assert on_ollama.line.startswith("Ollama ")


def test_probe_of_a_closed_port_says_so_and_find_served_lists_it() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    found = probe("vllm", url, timeout=1.0)
    assert not found.answers and "no answer" in found.line and str(port) in found.line
    profile = Profile.model_validate(
        {"candidates": [{"server": "vllm", "base_url": url, "models": ["m"]}]}
    )
    with pytest.raises(ServerUnavailable, match=f"vllm at {url}: no answer"):
        find_served("x", profile, {})


def test_find_served_takes_the_first_candidate_serving_the_model(refserver) -> None:
    profile = Profile.model_validate(
        {
            "candidates": [
                {"server": "openai-compatible", "base_url": refserver.base_url, "models": ["nope"]},
                {
                    "server": "ollama",
                    "base_url": refserver.base_url.removesuffix("/v1"),
                    "models": ["nope", "oracle"],
                },
            ]
        }
    )
    found = find_served("x", profile, {})
    assert found.server == "ollama" and found.model == "oracle"
