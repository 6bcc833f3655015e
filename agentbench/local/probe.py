"""Is a server there, and what does it serve? One quick look, shared by `--local` and `doctor`.

`probe` asks a server for its model list and its version at its protocol's routes (`/models`
and `/version` on OpenAI-compatible servers, `/api/tags` and `/api/version` on Ollama), never
raises, and says in one line what it found.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx

from agentbench.backends.base import strip_credentials
from agentbench.backends.providers import ServerProtocol, protocol_of


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
    protocol = protocol_of(server)
    try:
        response = httpx.get(protocol.url(base_url, protocol.models_path), timeout=timeout)
        if response.status_code != 200:
            text = " ".join(response.text.split())[:160]
            return Probe(
                True,
                f"{shown} answers HTTP {response.status_code} on {protocol.models_path}: {text}",
            )
        listing = response.json()
        if not isinstance(listing, dict):
            raise ValueError(f"{protocol.models_path} answered no JSON object")
        names = protocol.model_names(listing) or []
        version = _version(protocol, base_url, timeout)
        label = protocol.brand or server
        label = f"{label} {version}" if version else label
        return Probe(True, f"{label} at {shown}", names)
    except httpx.ConnectError as exc:
        return Probe(False, f"{server} at {shown}: no answer (connection refused: {exc})")
    except (httpx.HTTPError, ValueError, AttributeError) as exc:
        return Probe(False, f"{server} at {shown}: no usable answer ({type(exc).__name__}: {exc})")


def _version(protocol: ServerProtocol, base_url: str, timeout: float) -> str | None:
    try:
        doc = httpx.get(protocol.version_url(base_url), timeout=timeout)
        return doc.json().get("version") if doc.status_code == 200 else None
    except (httpx.HTTPError, ValueError, AttributeError):
        return None
