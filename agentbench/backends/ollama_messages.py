"""OpenAI-style chat messages in Ollama's `/api/chat` shape, and the prompt estimate that
spots Ollama's silent context truncation (agentbench.backends.ollama)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from agentbench.tokens import estimate_tokens


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def _arguments_object(arguments: Any) -> dict[str, Any]:
    """OpenAI arguments (JSON text) -> Ollama arguments (an object). Invalid text -> {}."""
    if isinstance(arguments, dict):
        return arguments
    try:
        parsed = json.loads(arguments or "{}")
    except (TypeError, json.JSONDecodeError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def to_ollama_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """OpenAI chat messages -> Ollama /api/chat messages."""
    names: dict[str, str] = {}  # tool_call_id -> function name, for the `tool` turns
    out: list[dict[str, Any]] = []
    for m in messages:
        role = m.get("role", "user")
        msg: dict[str, Any] = {"role": role, "content": _text(m.get("content"))}
        if role == "assistant" and m.get("tool_calls"):
            calls = []
            for i, call in enumerate(m["tool_calls"]):
                fn = call.get("function") or {}
                if call.get("id"):
                    names[call["id"]] = fn.get("name", "")
                calls.append(
                    {
                        "function": {
                            "index": i,
                            "name": fn.get("name", ""),
                            "arguments": _arguments_object(fn.get("arguments")),
                        }
                    }
                )
            msg["tool_calls"] = calls
        if role == "assistant" and m.get("reasoning"):
            msg["thinking"] = m["reasoning"]
        if role == "tool":
            name = m.get("name") or names.get(m.get("tool_call_id") or "")
            if name:
                msg["tool_name"] = name
        out.append(msg)
    return out


def estimate_prompt_tokens(messages: list[dict[str, Any]]) -> int:
    """A low estimate of the prompt's tokens: message text and tool calls, +3 per message."""
    total = 0
    for m in messages:
        total += 3 + estimate_tokens(_text(m.get("content")))
        for call in m.get("tool_calls") or []:
            fn = call.get("function") or {}
            args = fn.get("arguments")
            total += estimate_tokens(
                fn.get("name", "") + (args if isinstance(args, str) else json.dumps(args or {}))
            )
    return total


def digest(messages: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
