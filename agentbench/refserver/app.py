"""The reference server: a real HTTP server on loopback with a scripted, known behaviour.

It speaks the OpenAI chat-completions protocol (streaming with usage, /v1/models, /tokenize,
/version, /metrics with vLLM's speculative-decoding counter names, token logprobs on request).
Its answers come from the
task files (refserver.answers) and its timing from a Schedule (refserver.schedule), so tests and
benchmarks know the truth they measure against. It is never presented as a model's result.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from agentbench import __version__
from agentbench.refserver.answers import POLICIES, answer, parse_policy
from agentbench.refserver.faults import mutate_answer
from agentbench.refserver.ollama import ollama_routes
from agentbench.refserver.schedule import ref_tokenize
from agentbench.refserver.state import (
    RefServerState,
    body_problem,
    json_object,
    output_tokens,
    prompt_tokens,
    sleep_until,
)
from agentbench.tasks.scripted import find_task


def _delta(tokens: list[tuple[str, str, int]], style: str, call_ids: list[str]) -> dict[str, Any]:
    delta: dict[str, Any] = {}
    calls: dict[int, dict[str, Any]] = {}
    for kind, text, index in tokens:
        if kind == "reasoning":
            delta[style] = delta.get(style, "") + text
        elif kind == "content":
            delta["content"] = delta.get("content", "") + text
        else:
            call = calls.setdefault(index, {"index": index, "function": {}})
            if kind == "tool_name":
                call.update(id=call_ids[index], type="function")
                call["function"]["name"] = text
            else:
                call["function"]["arguments"] = call["function"].get("arguments", "") + text
    if calls:
        delta["tool_calls"] = [calls[i] for i in sorted(calls)]
    return delta


def _logprobs(tokens: list[tuple[str, str, int]], value: float) -> dict[str, Any]:
    """OpenAI's `choices[].logprobs` for these tokens, each at `value` (refserver.answers)."""
    return {
        "content": [
            {"token": text, "logprob": value, "bytes": None, "top_logprobs": []}
            for _, text, _ in tokens
        ]
    }


def _error(status: int, message: str, kind: str = "BadRequestError") -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "code": status}}, status)


def build_app(state: RefServerState) -> Starlette:
    async def models(request: Request) -> Response:
        data = [
            {
                "id": name,
                "object": "model",
                "owned_by": "agentbench-refserver",
                "max_model_len": state.schedule.max_context,
            }
            for name in POLICIES
        ]
        return JSONResponse({"object": "list", "data": data})

    async def version(request: Request) -> Response:
        return JSONResponse(
            {
                "server": "agentbench-refserver",
                "version": __version__,
                "max_context": state.schedule.max_context,
            }
        )

    async def tokenize(request: Request) -> Response:
        body = await json_object(request)
        if body is None:
            return _error(400, "request body is not a JSON object")
        if "messages" in body:
            problem = body_problem(body)
            if problem:
                return _error(400, problem)
            count = prompt_tokens(body["messages"])
            return JSONResponse({"count": count, "max_model_len": state.schedule.max_context})
        text = body.get("prompt", body.get("content", body.get("input", "")))
        if not isinstance(text, str):
            return _error(400, "prompt: expected a string")
        pieces = ref_tokenize(text)
        return JSONResponse(
            {
                "count": len(pieces),
                "tokens": list(range(len(pieces))),
                "max_model_len": state.schedule.max_context,
            }
        )

    async def metrics(request: Request) -> Response:
        text = state.spec.render("refserver") if state.spec else ""
        return PlainTextResponse(f"agentbench_refserver_requests_total {state.requests}\n{text}")

    async def chat(request: Request) -> Response:
        arrived = time.perf_counter()
        body = await json_object(request)
        if body is None:
            return _error(400, "request body is not a JSON object")
        model = str(body.get("model", ""))
        try:
            parse_policy(model, state.noise)
        except ValueError:
            return _error(404, f"The model `{model}` does not exist.", "NotFoundError")
        problem = body_problem(body)
        if problem:
            return _error(400, problem)
        messages = body.get("messages") or []
        n_prompt = prompt_tokens(messages)
        if n_prompt > state.schedule.max_context:
            return _error(
                400,
                f"This model's maximum context length is "
                f"{state.schedule.max_context} tokens. However, your request has "
                f"{n_prompt} input tokens.",
            )
        state.requests += 1
        if request.headers.get("authorization"):
            state.authorization_seen.append(request.headers["authorization"])
        ans = answer(
            state.tasks,
            model,
            messages,
            bool(body.get("tools")),
            noise=state.noise,
            seed=state.seed,
        )
        fault = _fault(state, messages)
        if fault in ("http_429", "http_500", "http_503"):
            code = int(fault[-3:])
            return JSONResponse(
                {"error": {"message": f"injected fault {fault}", "code": code}},
                code,
                headers={"retry-after": "0"} if code == 429 else None,
            )
        if fault == "ttfb_timeout" and state.faults:
            await asyncio.sleep(state.faults.stall_s)
        if fault:
            ans = mutate_answer(ans, fault, _first_reference_call(state, messages))
        tokens = output_tokens(ans, state.schedule)
        logprob = ans.logprob if body.get("logprobs") else None
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        finish = "tool_calls" if ans.tool_calls else "stop"
        if isinstance(limit, int) and 0 < limit < len(tokens):
            tokens, finish = tokens[:limit], "length"
        call_ids = [f"call_{state.requests}_{i}" for i in range(len(ans.tool_calls))]
        meta = {
            "id": f"chatcmpl-ref{state.requests}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": "some-other-model" if fault == "wrong_model" else model,
        }
        reasoning = sum(1 for t in tokens if t[0] == "reasoning")
        if state.schedule.reasoning_style == "think":
            reasoning = min(len(tokens), state.schedule.reasoning_tokens + 2)
        usage = {
            "prompt_tokens": n_prompt,
            "completion_tokens": len(tokens),
            "total_tokens": n_prompt + len(tokens),
            "completion_tokens_details": {"reasoning_tokens": reasoning},
        }
        style = (
            "reasoning"
            if state.schedule.reasoning_style == "think"
            else state.schedule.reasoning_style
        )
        if not body.get("stream"):
            delay = state.schedule.ttft_s + max(len(tokens) - 1, 0) / state.schedule.rate_tok_s
            await sleep_until(arrived + delay)
            message = {"role": "assistant", **_delta(tokens, style, call_ids)}
            message.setdefault("content", None)
            choice = {"index": 0, "message": message, "finish_reason": finish}
            if logprob is not None:
                choice["logprobs"] = _logprobs(tokens, logprob)
            return JSONResponse(
                {**meta, "object": "chat.completion", "usage": usage, "choices": [choice]}
            )
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        return StreamingResponse(
            _stream(
                state,
                arrived,
                tokens,
                style,
                call_ids,
                meta,
                finish,
                usage if include_usage else None,
                fault,
                logprob,
            ),
            media_type="text/event-stream",
        )

    return Starlette(
        routes=[
            Route("/v1/models", models),
            Route("/version", version),
            Route("/tokenize", tokenize, methods=["POST"]),
            Route("/metrics", metrics),
            Route("/v1/chat/completions", chat, methods=["POST"]),
            *ollama_routes(state),
        ]
    )


def _fault(state: RefServerState, messages: list[dict[str, Any]]) -> str | None:
    if state.faults is None:
        return None
    task = find_task(state.tasks, messages)
    return state.faults.draw(state.requests, task.id if task else "?")


def _first_reference_call(
    state: RefServerState, messages: list[dict[str, Any]]
) -> tuple[str, str] | None:
    task = find_task(state.tasks, messages)
    for step in task.reference if task else []:
        for call in step.calls:
            return call.tool, json.dumps(call.args)
    return None


def _sse(payload: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(payload)}\n\n".encode()


async def _stream(
    state: RefServerState,
    arrived: float,
    tokens: list[tuple[str, str, int]],
    style: str,
    call_ids: list[str],
    meta: dict[str, Any],
    finish: str,
    usage: dict[str, Any] | None,
    fault: str | None = None,
    logprob: float | None = None,
) -> AsyncIterator[bytes]:
    state.in_flight += 1
    state.max_in_flight = max(state.max_in_flight, state.in_flight)
    try:
        yield _sse(
            {
                **meta,
                "choices": [
                    {
                        "index": 0,
                        "delta": {"role": "assistant", "content": ""},
                        "finish_reason": None,
                    }
                ],
            }
        )
        position = 0
        for size, offset in state.schedule.send_offsets(len(tokens)):
            chunk = tokens[position : position + size]
            position += size
            await sleep_until(arrived + offset)
            if fault and position > size:  # transport faults strike after the first chunk
                if fault == "reset":
                    raise ConnectionResetError("injected fault: reset")
                if fault == "cut":
                    return
                if fault == "stall" and state.faults:
                    await asyncio.sleep(state.faults.stall_s)
                if fault == "malformed":
                    yield b"data: {this is not json\n\n"
            if state.spec is not None:
                state.spec.record(size)
            choice = {"index": 0, "delta": _delta(chunk, style, call_ids), "finish_reason": None}
            if logprob is not None:
                choice["logprobs"] = _logprobs(chunk, logprob)
            yield _sse({**meta, "choices": [choice]})
        yield _sse({**meta, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
        if usage is not None:
            yield _sse({**meta, "choices": [], "usage": usage})
        yield b"data: [DONE]\n\n"
    finally:
        state.in_flight -= 1


class RefServer:
    """Runs the reference server in a background thread (for tests and benchmarks)."""

    def __init__(self, state: RefServerState, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        self.state = state
        # Injected resets make uvicorn log a traceback per fault; they are intended.
        level = "critical" if state.faults else "warning"
        config = uvicorn.Config(
            build_app(state),
            host=host,
            port=port,
            log_level=level,
            access_log=False,
            lifespan="off",
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def start(self) -> RefServer:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("reference server did not start")
            time.sleep(0.01)
        return self

    @property
    def port(self) -> int:
        sockets = self._server.servers[0].sockets
        return int(sockets[0].getsockname()[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def __enter__(self) -> RefServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
