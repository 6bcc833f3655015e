"""The reference server's Ollama protocol: /api/chat, /api/version, /api/show, /api/tags, /api/ps.

Same answers and the same timing schedule as the OpenAI route (refserver.app), in Ollama's form:
`/api/chat` streams NDJSON (one JSON object a line, `done: true` on the last with the counters),
thinking in `message.thinking`, tool calls whole in one line with their arguments as an object
(Ollama parses a call before it emits it), and nanosecond counters that match the schedule:

    prompt_eval_duration = ttft_s            eval_duration = eval_count / rate_tok_s
    prompt_eval_count    = tokens kept       eval_count    = tokens generated

so `eval_count / eval_duration` is exactly the scheduled rate. Like Ollama, a prompt longer than
the context (`options.num_ctx`, else RefServerState.num_ctx, else the schedule's max_context) is
cut SILENTLY: the last num_ctx tokens are kept, no error is returned, and `prompt_eval_count`
reports what was kept. (The scripted answer still reads the whole conversation: the truncation is
visible only in the counters, which is exactly what a client must detect.)
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from agentbench.refserver.answers import POLICIES, answer, parse_policy
from agentbench.refserver.state import (
    RefServerState,
    body_problem,
    json_object,
    output_tokens,
    prompt_tokens,
    sleep_until,
)

OLLAMA_VERSION = "0.32.9"  # the version the refserver claims: the first to serve Nemotron 3.5


def policy_name(model: str) -> str:
    """`oracle:latest` -> `oracle` (Ollama names carry a tag); `noisy:0.2` stays as it is."""
    base, _, tag = model.partition(":")
    if base == "noisy" and re.fullmatch(r"[0-9.]+", tag):
        return model
    return base


def to_openai_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ollama messages (argument objects) -> the OpenAI form the answer policies read."""
    out = []
    for i, m in enumerate(messages):
        msg = {k: v for k, v in m.items() if k != "tool_calls"}
        if m.get("tool_calls"):
            msg["tool_calls"] = [
                {
                    "id": f"call_{i}_{j}",
                    "type": "function",
                    "function": {
                        "name": (c.get("function") or {}).get("name", ""),
                        "arguments": json.dumps((c.get("function") or {}).get("arguments") or {}),
                    },
                }
                for j, c in enumerate(m["tool_calls"])
            ]
        out.append(msg)
    return out


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status)


def context_for(state: RefServerState, body: dict[str, Any]) -> int:
    options = body.get("options") or {}
    if isinstance(options.get("num_ctx"), int) and options["num_ctx"] > 0:
        return int(options["num_ctx"])
    return state.num_ctx or state.schedule.max_context


def ollama_routes(state: RefServerState) -> list[Route]:
    def known(model: str) -> bool:
        try:
            parse_policy(policy_name(model), state.noise)
        except ValueError:
            return False
        return True

    async def root(request: Request) -> Response:
        return PlainTextResponse("Ollama is running")

    async def version(request: Request) -> Response:
        return JSONResponse({"version": OLLAMA_VERSION})

    def _entry(name: str) -> dict[str, Any]:
        return {
            "name": f"{name}:latest",
            "model": f"{name}:latest",
            "modified_at": _now(),
            "size": 0,
            "digest": "0" * 64,
            "details": {
                "format": "gguf",
                "family": "refserver",
                "parameter_size": "0B",
                "quantization_level": "none",
            },
        }

    async def tags(request: Request) -> Response:
        return JSONResponse({"models": [_entry(n) for n in POLICIES]})

    async def ps(request: Request) -> Response:
        ctx = state.num_ctx or state.schedule.max_context
        return JSONResponse(
            {
                "models": [
                    {**_entry(n), "size_vram": 0, "context_length": ctx, "expires_at": _now()}
                    for n in POLICIES
                ]
            }
        )

    async def show(request: Request) -> Response:
        body = await json_object(request)
        if body is None:
            return _error(400, "invalid JSON")
        model = str(body.get("model") or body.get("name") or "")
        if not known(model):
            return _error(404, f"model '{model}' not found")
        capabilities = ["completion", "tools"]
        if state.schedule.reasoning_tokens:
            capabilities.append("thinking")
        params = f"num_ctx {state.num_ctx}" if state.num_ctx else ""
        return JSONResponse(
            {
                "modelfile": f"# agentbench reference server: policy {policy_name(model)}",
                "parameters": params,
                "template": "{{ .Prompt }}",
                "details": _entry(policy_name(model))["details"],
                "model_info": {
                    "general.architecture": "refserver",
                    "refserver.context_length": state.schedule.max_context,
                },
                "capabilities": capabilities,
                "modified_at": _now(),
            }
        )

    async def chat(request: Request) -> Response:
        arrived = time.perf_counter()
        body = await json_object(request)
        if body is None:
            return _error(400, "invalid JSON")
        model = str(body.get("model", ""))
        if not known(model):
            return _error(404, f'model "{model}" not found, try pulling it first')
        problem = body_problem(body, arguments=dict)
        if problem:
            return _error(400, problem)
        messages = to_openai_messages(body.get("messages") or [])
        num_ctx = context_for(state, body)
        n_prompt = prompt_tokens(messages)
        kept = min(n_prompt, num_ctx)  # Ollama keeps the tail, silently
        state.requests += 1
        ans = answer(
            state.tasks,
            policy_name(model),
            messages,
            bool(body.get("tools")),
            noise=state.noise,
            seed=state.seed,
        )
        # Ollama returns thinking apart (`message.thinking`) whatever the OpenAI route's style.
        schedule = dataclasses.replace(state.schedule, reasoning_style="reasoning")
        tokens = output_tokens(ans, schedule)
        if body.get("think") is False:
            tokens = [t for t in tokens if t[0] != "reasoning"]
        limit = (body.get("options") or {}).get("num_predict")
        done_reason = "stop"
        if isinstance(limit, int) and 0 < limit < len(tokens):
            tokens, done_reason = tokens[:limit], "length"
        schedule = state.schedule
        counters = {
            "done_reason": done_reason,
            "load_duration": 0,
            "prompt_eval_count": kept,
            "prompt_eval_duration": int(schedule.ttft_s * 1e9),
            "eval_count": len(tokens),
            "eval_duration": int(len(tokens) / schedule.rate_tok_s * 1e9),
        }
        if not body.get("stream", True):
            delay = schedule.ttft_s + max(len(tokens) - 1, 0) / schedule.rate_tok_s
            await sleep_until(arrived + delay)
            message = _message(tokens)
            message.setdefault("content", "")
            return JSONResponse(
                {
                    "model": model,
                    "created_at": _now(),
                    "message": message,
                    "done": True,
                    **counters,
                    "total_duration": int((time.perf_counter() - arrived) * 1e9),
                }
            )
        return StreamingResponse(
            _stream(state, arrived, model, tokens, counters), media_type="application/x-ndjson"
        )

    return [
        Route("/", root),
        Route("/api/version", version),
        Route("/api/tags", tags),
        Route("/api/ps", ps),
        Route("/api/show", show, methods=["POST"]),
        Route("/api/chat", chat, methods=["POST"]),
    ]


def _message(tokens: list[tuple[str, str, int]]) -> dict[str, Any]:
    """The message of one NDJSON line: thinking, content, and only *complete* tool calls."""
    message: dict[str, Any] = {"role": "assistant", "content": ""}
    calls: dict[int, dict[str, Any]] = {}
    for kind, text, index in tokens:
        if kind == "reasoning":
            message["thinking"] = message.get("thinking", "") + text
        elif kind == "content":
            message["content"] += text
        else:
            call = calls.setdefault(index, {"name": "", "arguments": ""})
            call["name" if kind == "tool_name" else "arguments"] += text
    whole = []
    for index, c in sorted(calls.items()):
        try:
            arguments = json.loads(c["arguments"] or "{}")
        except json.JSONDecodeError:  # cut by num_predict: Ollama shows such text as content
            message["content"] += c["name"] + c["arguments"]
            continue
        whole.append(
            {
                "id": f"call_{index}",
                "function": {"index": index, "name": c["name"], "arguments": arguments},
            }
        )
    if whole:
        message["tool_calls"] = whole
    return message


def _line(payload: dict[str, Any]) -> bytes:
    return (json.dumps(payload) + "\n").encode()


async def _stream(
    state: RefServerState,
    arrived: float,
    model: str,
    tokens: list[tuple[str, str, int]],
    counters: dict[str, Any],
) -> AsyncIterator[bytes]:

    position = 0
    pending: list[tuple[str, str, int]] = []  # tool-call tokens held until the call is whole
    for size, offset in state.schedule.send_offsets(len(tokens)):
        chunk = tokens[position : position + size]
        position += size
        await sleep_until(arrived + offset)
        if state.spec is not None:
            state.spec.record(size)
        out = [t for t in chunk if not t[0].startswith("tool")]
        pending += [t for t in chunk if t[0].startswith("tool")]
        # A call is whole unless the next token still continues its arguments.
        following = tokens[position] if position < len(tokens) else None
        open_call = following[2] if following and following[0] == "tool_args" else None
        out += [t for t in pending if t[2] != open_call]
        pending = [t for t in pending if t[2] == open_call]
        if out:
            yield _line(
                {"model": model, "created_at": _now(), "message": _message(out), "done": False}
            )
    if pending:
        yield _line(
            {"model": model, "created_at": _now(), "message": _message(pending), "done": False}
        )
    yield _line(
        {
            "model": model,
            "created_at": _now(),
            "message": {"role": "assistant", "content": ""},
            "done": True,
            **counters,
            "total_duration": int((time.perf_counter() - arrived) * 1e9),
        }
    )
