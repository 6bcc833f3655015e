"""What an OpenAI-compatible server says about itself: kind, version, model, context, drafter."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from agentbench.backends.base import strip_credentials
from agentbench.backends.providers import api_root
from agentbench.records import ServerInfo

SPEC_DECODE_METRIC = "vllm:spec_decode_num_draft_tokens_total"


async def _get_json(client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> Any:
    try:
        async with asyncio.timeout(5.0):  # the whole call: keep-alives must not stretch it
            response = await client.get(url, headers=headers, timeout=5.0)
        if response.status_code != 200:
            return None
        return response.json()
    except (httpx.HTTPError, ValueError, TimeoutError):
        return None


async def _get_text(client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> str | None:
    try:
        async with asyncio.timeout(5.0):
            response = await client.get(url, headers=headers, timeout=5.0)
    except (httpx.HTTPError, TimeoutError):
        return None
    return response.text if response.status_code == 200 else None


def model_entry(models: Any, model: str) -> dict[str, Any] | None:
    if not isinstance(models, dict):
        return None
    entries = [m for m in models.get("data") or [] if isinstance(m, dict)]
    return next((m for m in entries if m.get("id") == model), None)


async def describe_openai_server(
    client: httpx.AsyncClient, base_url: str, model: str, headers: dict[str, str]
) -> ServerInfo:
    """Kind, version, model, context and drafter of an OpenAI-compatible server, as it says.

    vLLM: /version, /v1/models (max_model_len, owned_by "vllm"), /metrics (drafter counters).
    llama.cpp (C++ server): /props (build_info, default_generation_settings.n_ctx).
    llama-cpp-python: /v1/models owned_by "me", version from /openapi.json; it exposes no
    context size and sends no usage in streams (its counts come from /extras/tokenize).
    refserver: /version names itself.
    """
    root = api_root(base_url)
    models = await _get_json(client, f"{base_url}/models", headers)
    entry = model_entry(models, model) or {}
    version_doc = await _get_json(client, f"{root}/version", headers)
    props = await _get_json(client, f"{root}/props", headers)
    metrics = await _get_text(client, f"{root}/metrics", headers)
    kind, version, max_context = "openai-compatible", None, entry.get("max_model_len")
    owned_by = entry.get("owned_by")
    extra: dict[str, Any] = {}
    if models is not None and not entry:
        served = [m.get("id") for m in (models.get("data") or []) if isinstance(m, dict)]
        extra["served_models"] = served
    if isinstance(version_doc, dict) and version_doc.get("server") == "agentbench-refserver":
        kind, version = "refserver", version_doc.get("version")
        extra["policy"] = version_doc.get("policy")
        max_context = version_doc.get("max_context", max_context)
    elif owned_by == "vllm" or (metrics and "vllm:" in metrics):
        kind = "vllm"
        if isinstance(version_doc, dict):
            version = version_doc.get("version")
        extra["root"] = entry.get("root")
    elif isinstance(props, dict) and ("default_generation_settings" in props
                                      or "build_info" in props):
        kind = "llama.cpp"
        version = props.get("build_info")
        settings = props.get("default_generation_settings") or {}
        max_context = settings.get("n_ctx", max_context)
        meta = entry.get("meta") or {}
        if meta.get("n_ctx_train"):
            extra["n_ctx_train"] = meta["n_ctx_train"]
    elif owned_by == "me":
        kind = "llama-cpp-python"
        openapi = await _get_json(client, f"{root}/openapi.json", headers)
        if isinstance(openapi, dict):
            version = (openapi.get("info") or {}).get("version")
        extra["stream_usage"] = False
        extra["token_counts"] = "server tokenizer (/extras/tokenize): no usage in streams"
    spec = None
    if metrics is not None and kind in ("vllm", "refserver"):
        spec = SPEC_DECODE_METRIC in metrics
    return ServerInfo(
        kind=kind,
        base_url=strip_credentials(base_url),
        model=model,
        version=version,
        max_context=max_context,
        spec_decode_seen=spec,
        extra=extra,
    )
