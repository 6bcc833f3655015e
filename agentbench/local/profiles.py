"""Model profiles: `--local ALIAS` finds where the model is served, first answer wins.

The profile file ships with the package (agentbench/data/profiles.yaml) and a user file given
with --profiles overrides or adds aliases. `${VAR:-default}` in a base_url reads the environment
mapping passed in by the CLI (the library itself reads no environment).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field, ValidationError

from agentbench.errors import ConfigError, ServerUnavailable
from agentbench.local.probe import probe, serves


class Candidate(BaseModel):
    server: str = Field(pattern=r"^(vllm|ollama|llama\.cpp|openai-compatible)$")
    base_url: str
    models: list[str] = Field(min_length=1)


class Profile(BaseModel):
    description: str = ""
    embedded: bool = False
    tool_mode: str | None = None
    max_tokens: int | None = None
    candidates: list[Candidate] = Field(default_factory=list)
    start_hint: str | None = None


@dataclass(frozen=True)
class Found:
    server: str
    base_url: str
    model: str


_VAR = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")


def expand(text: str, env: Mapping[str, str]) -> str:
    return _VAR.sub(lambda m: env.get(m.group(1)) or (m.group(2) or ""), text)


def load_profiles(user_file: Path | None = None) -> dict[str, Profile]:
    raw: dict[str, Any] = yaml.safe_load(
        resources.files("agentbench.data").joinpath("profiles.yaml").read_text()
    )
    sources = [("agentbench/data/profiles.yaml", raw)]
    if user_file is not None:
        try:
            sources.append((str(user_file), yaml.safe_load(user_file.read_text()) or {}))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            raise ConfigError(f"{user_file}: cannot read profile file: {exc}") from exc
    profiles: dict[str, Profile] = {}
    for origin, data in sources:
        if not isinstance(data, dict):
            raise ConfigError(f"{origin}: a profile file maps aliases to profiles")
        for alias, spec in data.items():
            try:
                profiles[str(alias)] = Profile.model_validate(spec)
            except ValidationError as exc:
                err = exc.errors()[0]
                where = ".".join(str(p) for p in err["loc"])
                raise ConfigError(
                    f"{origin}: profile '{alias}', field '{where}': {err['msg']}"
                ) from exc
    return profiles


def find_served(alias: str, profile: Profile, env: Mapping[str, str]) -> Found:
    """The first candidate that answers with one of the profile's model names."""
    tried = []
    for cand in profile.candidates:
        url = expand(cand.base_url, env)
        found = probe(cand.server, url, timeout=2.0)
        if not found.answers:
            tried.append(found.line)
            continue
        match = next((m for m in cand.models if serves(m, found.served)), None)
        if match:
            return Found(cand.server, url, match)
        tried.append(f"{found.line}: answers, but serves none of {cand.models}")
    hint = f"\nTo start it:\n{profile.start_hint.rstrip()}" if profile.start_hint else ""
    raise ServerUnavailable(
        f"no server answered for --local {alias}; tried: " + "; ".join(tried) + hint
    )
