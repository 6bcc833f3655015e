"""Is a server there, and what does it serve? One quick look, shared by `--local` and `doctor`.

`probe` asks a server for its model list (`/models` on OpenAI-compatible servers, `/api/tags` on
Ollama) and its version, never raises, and says in one line what it found.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx

from agentbench.backends.base import strip_credentials
from agentbench.backends.http import api_root
from agentbench.local.providers import protocol_of


@dataclass(frozen=True)
class Probe:
    answers: bool
    line: str  # one line for the user: what answered there, or why nothing did
    served: list[str] = field(default_factory=list)  # model names the server lists


def serves(model: str, served: list[str]) -> bool:
    """Whether `model` is among the served names (Ollama's `:latest` tag may be left off)."""
    return model in served or f"{model}:latest" in served


def probe(server: str, base_url: str, timeout: float = 3.0) -> Probe:
    """What answers at `base_url` for a server of kind `server`. Never raises."""
    shown = strip_credentials(base_url)
    try:
        if protocol_of(server) == "ollama":
            return _probe_ollama(base_url, shown, timeout)
        response = httpx.get(f"{base_url.rstrip('/')}/models", timeout=timeout)
        if response.status_code != 200:
            text = " ".join(response.text.split())[:160]
            return Probe(True, f"{shown} answers HTTP {response.status_code} on /models: {text}")
        data = response.json().get("data") or []
        names = [m.get("id", "") for m in data if isinstance(m, dict)]
        root = api_root(base_url)
        version = _version(f"{root.rstrip('/')}/version", timeout)
        label = f"{server} {version}" if version else server
        return Probe(True, f"{label} at {shown}", names)
    except httpx.ConnectError as exc:
        return Probe(False, f"{server} at {shown}: no answer (connection refused: {exc})")
    except (httpx.HTTPError, ValueError, AttributeError) as exc:
        return Probe(False, f"{server} at {shown}: no usable answer ({type(exc).__name__}: {exc})")


def _probe_ollama(base_url: str, shown: str, timeout: float) -> Probe:
    from agentbench.backends.ollama import ollama_root

    root = ollama_root(base_url)
    version = httpx.get(f"{root}/api/version", timeout=timeout).json().get("version")
    tags = httpx.get(f"{root}/api/tags", timeout=timeout).json().get("models") or []
    names = [m.get(key, "") for m in tags if isinstance(m, dict) for key in ("name", "model")]
    return Probe(True, f"Ollama {version} at {shown}", list(dict.fromkeys(n for n in names if n)))


def _version(url: str, timeout: float) -> str | None:
    try:
        doc = httpx.get(url, timeout=timeout)
        return doc.json().get("version") if doc.status_code == 200 else None
    except (httpx.HTTPError, ValueError, AttributeError):
        return None
