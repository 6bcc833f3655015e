"""Ollama's wire format: OpenAI-style chat messages in `/api/chat` shape going out, the NDJSON
stream coming in, and the prompt estimate that spots Ollama's silent context truncation
(agentbench.backends.ollama)."""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import httpx

from agentbench.backends.http import bad_stream, http_error, json_object
from agentbench.backends.providers import OLLAMA
from agentbench.backends.stream import Delta, Reported, StreamAccumulator, ToolDelta, typed
from agentbench.jsontext import loads
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
        parsed = loads(arguments or "{}")
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


class NdjsonReader:
    """Ollama's `/api/chat` stream: one JSON object a line, the last with `done: true`. Each
    line is one `Delta`; Ollama sends every tool call whole, so each is a new index."""

    def __init__(self, url: str, model: str) -> None:
        self.url = url
        self.model = model
        self.complete = False
        self.final: dict[str, Any] | None = None
        self.n_calls = 0

    def feed(self, line: str, now_ns: int, acc: StreamAccumulator) -> None:
        chunk = json_object(self.url, line, line, "a line")
        if chunk.get("error"):
            raise http_error(
                500, line, self.url, httpx.Headers(), model=self.model, protocol=OLLAMA
            )
        try:
            self._read(chunk, now_ns, acc)
        except (AttributeError, TypeError, ValueError, KeyError) as exc:
            raise bad_stream(self.url, line, f"a line of the wrong shape ({exc})") from exc
        if chunk.get("done"):
            for key in ("eval_count", "prompt_eval_count"):
                if chunk.get(key) is not None and int_or_none(chunk[key]) is None:
                    raise bad_stream(self.url, line, f"a {key} that is not a number")
            self.final = chunk
            self.complete = True

    def _read(self, chunk: dict[str, Any], now_ns: int, acc: StreamAccumulator) -> None:
        model = typed(chunk.get("model"), str, "model")
        typed(chunk.get("done_reason"), str, "done_reason")
        message = typed(chunk.get("message"), dict, "message") or {}
        calls = typed(message.get("tool_calls"), list, "message.tool_calls") or []
        delta = Delta(
            reasoning=typed(message.get("thinking"), str, "message.thinking") or "",
            content=typed(message.get("content"), str, "message.content") or "",
            tool_calls=tuple(self._call(i, call) for i, call in enumerate(calls, self.n_calls)),
            model=model,
        )
        self.n_calls += len(calls)
        acc.feed(delta, now_ns)

    @staticmethod
    def _call(index: int, call: dict[str, Any]) -> ToolDelta:
        fn = typed(call.get("function"), dict, "tool_calls[].function") or {}
        arguments = fn.get("arguments")
        text = (
            arguments
            if isinstance(arguments, str)
            else json.dumps(arguments if arguments is not None else {})
        )
        return ToolDelta(
            index,
            id=typed(call.get("id"), str, "tool_calls[].id"),
            name=typed(fn.get("name"), str, "tool_calls[].function.name") or "",
            arguments=text,
        )

    def reported(self, final: dict[str, Any]) -> Reported:
        """Ollama's eval counters of the `done` line (`final`)."""
        return Reported(
            "server_counter",
            output=int_or_none(final.get("eval_count")),
            prompt=int_or_none(final.get("prompt_eval_count")),
        )


def int_or_none(value: Any) -> int | None:
    """A whole-number counter, or None (a float of JSON's `1e999` is not one)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return int(value)
