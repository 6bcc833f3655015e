"""Prompt mode: tools described in the system prompt, calls answered as JSON in the text.

This is the seeds' agent prompt ("respond with the next tool call as JSON"), for servers or models
without native tool calling. The model answers `{"tool": NAME, "parameters": {...}}` (a list of
such objects for parallel calls) or `{"final_answer": "..."}`; text that holds no such JSON is
taken as the final answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agentbench.jsontext import json_candidates
from agentbench.tasks.model import ToolDef

PROMPT_MODE_INSTRUCTIONS = """You can use these tools:

{tools}

To call a tool, reply with only a JSON object, nothing around it:
{{"tool": "<tool name>", "parameters": {{<arguments>}}}}
Tool results come back in the next message. When you know the answer, reply with:
{{"final_answer": "<your answer>"}}"""


def prompt_mode_system(system_prompt: str, tools: list[ToolDef]) -> str:
    if not tools:
        return system_prompt + '\n\nNo tools are available. Reply with {"final_answer": "..."}.'
    described = "\n".join(
        f"- {t.name}: {t.description}\n  parameters (JSON Schema): {json.dumps(t.parameters)}"
        for t in tools
    )
    return system_prompt + "\n\n" + PROMPT_MODE_INSTRUCTIONS.format(tools=described)


@dataclass
class ParsedCall:
    name: str
    arguments: str  # JSON text of the arguments, as a native call would carry them


@dataclass
class ParsedReply:
    calls: list[ParsedCall]
    final_answer: str | None
    problem: str | None = None  # set when the text looked like a call but was not a valid one


_ARG_KEYS = ("parameters", "arguments", "args")


def _as_call(obj: Any, tools: frozenset[str]) -> ParsedCall | None:
    """A tool call: a name key plus an arguments key, or a bare name of an offered tool.

    A JSON final answer that merely has a `name` or `tool` field is not a call.
    """
    if not isinstance(obj, dict):
        return None
    name = obj.get("tool") or obj.get("name") or obj.get("function")
    if not isinstance(name, str):
        return None
    if not any(k in obj for k in _ARG_KEYS) and name not in tools:
        return None
    args: Any = next((obj[k] for k in _ARG_KEYS if k in obj), {})
    if isinstance(args, str):
        return ParsedCall(name, args)
    return ParsedCall(name, json.dumps(args))


def parse_reply(text: str, tools: frozenset[str] = frozenset()) -> ParsedReply:
    """Read a prompt-mode reply; `tools` are the names offered."""
    for value in json_candidates(text):
        if isinstance(value, dict) and "final_answer" in value:
            answer = value["final_answer"]
            return ParsedReply([], answer if isinstance(answer, str) else json.dumps(answer))
        items = value if isinstance(value, list) else [value]
        calls = [c for c in (_as_call(item, tools) for item in items) if c]
        if calls:
            return ParsedReply(calls, None)
    if re.search(r'"tool"\s*:', text):
        return ParsedReply([], None, problem="reply mentions a tool call but holds no valid JSON")
    return ParsedReply([], text.strip())


def tool_result_message(name: str, content: str) -> dict[str, Any]:
    """How a tool result is fed back in prompt mode (there is no tool role)."""
    return {"role": "user", "content": f"Tool result of {name}:\n{content}"}
