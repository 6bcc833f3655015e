"""What both protocols of the reference server share: its state, its token counts and its clock.

refserver.app serves the OpenAI protocol and refserver.ollama the Ollama one, from the same
state, the same tokenization of answers and the same timing schedule.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request

from agentbench.refserver.answers import Answer, filler_reasoning
from agentbench.refserver.faults import FaultPlan
from agentbench.refserver.schedule import Schedule, SpecCounters, ref_tokenize
from agentbench.tasks.model import Task


@dataclass
class RefServerState:
    tasks: list[Task]
    schedule: Schedule = field(default_factory=Schedule)
    noise: float = 0.2
    seed: int = 0
    spec: SpecCounters | None = None  # a drafter only when told (serve --draft-depth)
    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    authorization_seen: list[str] = field(default_factory=list)
    num_ctx: int | None = None  # Ollama protocol: silently truncating context (refserver.ollama)
    faults: FaultPlan | None = None


def prompt_tokens(messages: list[dict[str, Any]]) -> int:
    """The server's prompt count: content and tool-call text of every message, +3 per message."""
    total = 0
    for m in messages:
        content = m.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        total += 3 + len(ref_tokenize(content or ""))
        for call in m.get("tool_calls") or []:
            fn = call.get("function") or {}
            total += len(ref_tokenize(fn.get("name", "") + fn.get("arguments", "")))
    return total


def output_tokens(ans: Answer, schedule: Schedule) -> list[tuple[str, str, int]]:
    """(kind, text, tool index) per output token, in emission order."""
    out: list[tuple[str, str, int]] = []
    if schedule.reasoning_tokens:
        pieces = ref_tokenize(filler_reasoning(schedule.reasoning_tokens))
        if schedule.reasoning_style == "think":
            out += [("content", "<think>", 0)] + [("content", p, 0) for p in pieces]
            out += [("content", "</think>", 0)]
        else:
            out += [("reasoning", p, 0) for p in pieces]
    out += [("content", p, 0) for p in ref_tokenize(ans.content)]
    for i, (name, arguments) in enumerate(ans.tool_calls):
        out.append(("tool_name", name, i))
        out += [("tool_args", p, i) for p in ref_tokenize(arguments)]
    return out


async def sleep_until(deadline: float) -> None:
    """Sleep to within ~1 ms (the event loop's timer resolution), then yield until due."""
    delay = deadline - time.perf_counter()
    if delay > 0.002:
        await asyncio.sleep(delay - 0.0015)
    while time.perf_counter() < deadline:
        await asyncio.sleep(0)


async def json_object(request: Request) -> dict[str, Any] | None:
    """The request body as a JSON object; None when it is not one (the caller answers 400)."""
    try:
        body = await request.json()
    except (ValueError, RecursionError):  # not JSON (or not UTF-8), or nested past any use
        return None
    return body if isinstance(body, dict) else None


def body_problem(body: dict[str, Any], arguments: type = str) -> str | None:
    """What a real server would answer 400 to in a chat body (None: nothing); `arguments` is
    the type of a tool call's arguments (a JSON string for OpenAI, an object for Ollama)."""
    messages = body.get("messages")
    if not isinstance(messages, list):
        return "messages: expected an array of message objects"
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str):
            return f"messages[{i}]: expected an object with a string 'role'"
        content = m.get("content")
        if content is not None and not isinstance(content, str | list):
            return f"messages[{i}].content: expected a string, an array of parts or null"
        if isinstance(content, list) and not all(isinstance(p, dict) for p in content):
            return f"messages[{i}].content: expected an array of part objects"
        calls = m.get("tool_calls")
        if calls is not None and not isinstance(calls, list):
            return f"messages[{i}].tool_calls: expected an array"
        for j, c in enumerate(calls or []):
            fn = c.get("function") if isinstance(c, dict) else None
            if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
                return f"messages[{i}].tool_calls[{j}]: expected a function with a string name"
            if "arguments" in fn and not isinstance(fn["arguments"], arguments):
                return f"messages[{i}].tool_calls[{j}].function.arguments: wrong type"
    tools = body.get("tools")
    if tools is not None and not (
        isinstance(tools, list) and all(isinstance(t, dict) for t in tools)
    ):
        return "tools: expected an array of tool objects"
    for key in ("max_tokens", "max_completion_tokens"):
        value = body.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            return f"{key}: expected an integer"
    if not isinstance(body.get("stream", False), bool):
        return "stream: expected a boolean"
    return None
