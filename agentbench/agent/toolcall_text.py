"""Native tool calls that a server left in the text, and malformed calls fed back to the model.

A server parses tool calls out of the model's output with its own parser; when the model writes
a call in a format that parser does not expect (Qwen2.5-Coder on llama-cpp-python and on
llama-server writes fenced JSON), the call arrives as answer text and the episode would be scored
as "no call" — a verdict about the server's parser, not the model. In native mode we recognise
the known formats and record such a call as `text_parsed` (a flag turns this off):

- `<tool_call>{"name": …, "arguments": {…}}</tool_call>` (Qwen / Hermes templates; the closing
  tag may be missing when the stop token cut it);
- a fenced or bare JSON object `{"name": …, "arguments": {…}}` (or `"parameters"`), or a list
  of them — also with prose before or after it, and after a template's marker such as Mistral's
  `[TOOL_CALLS]` or Llama's `<|python_tag|>`;
- Llama 3's `<function=NAME>{…}</function>`.

Text that looked like a call but is not valid (unterminated JSON, no name) is a malformed call:
the loop answers it with an error message, as a real tool runtime would, and the episode goes on
within its step budget. Prompt mode's own format lives in agentbench.agent.prompting.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agentbench.jsontext import decode_at, json_values
from agentbench.records import StepRecord, ToolCallRecord
from agentbench.tasks.env import parse_arguments

_ARG_KEYS = ("arguments", "parameters")
_FUNCTION_NAME = re.compile(r"[\w.-]+>")
_MARKERS = re.compile(r"\[TOOL_CALLS\]|<\|python_tag\|>|<\|eom_id\|>|<\|eot_id\|>")
_LOOKS_LIKE_CALL = re.compile(r'"name"\s*:\s*"[^"]*"\s*,\s*"(?:arguments|parameters)"\s*:')
_FENCE_LANGUAGE = re.compile(r"[a-zA-Z]*")


def _blocks(text: str, opening: str, closing: str) -> tuple[list[tuple[str, str]], str]:
    """((head, body) of each `opening`…`closing` block, the text without them). The last block
    may be unclosed (a stop token cut it). str.find, not a lazy regex between `\\s*`s, which
    backtracks quadratically over a long run of spaces."""
    blocks: list[tuple[str, str]] = []
    kept: list[str] = []
    i = 0
    while (start := text.find(opening, i)) >= 0:
        kept.append(text[i:start])
        body = start + len(opening)
        end = text.find(closing, body)
        blocks.append((text[start:body], text[body : end if end >= 0 else len(text)].strip()))
        i = len(text) if end < 0 else end + len(closing)
    kept.append(text[i:])
    return blocks, "".join(kept)


def _fenced(text: str) -> list[tuple[str, str]]:
    """(body, the text without that block) of each ``` fenced block (its language tag dropped)."""
    out, i = [], 0
    while (start := text.find("```", i)) >= 0 and (end := text.find("```", start + 3)) >= 0:
        body = text[start + 3 : end]
        body = body[_FENCE_LANGUAGE.match(body).end() :]  # type: ignore[union-attr]
        out.append((body.strip(), text[:start] + text[end + 3 :]))
        i = end + 3
    return out


@dataclass
class TextCalls:
    """What a native answer's text holds: calls, the prose around them, or a malformed call."""

    calls: list[tuple[str, str]]  # (name, arguments as JSON text)
    rest: str
    problem: str | None = None


def _call(value: Any) -> tuple[str, str] | None:
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    key = next((k for k in _ARG_KEYS if k in value), None)
    if key is None:
        return None
    args = value[key]
    return value["name"], args if isinstance(args, str) else json.dumps(args)


def _calls_in(value: Any) -> list[tuple[str, str]] | None:
    items = value if isinstance(value, list) else [value]
    calls = [_call(item) for item in items]
    if not calls or any(c is None for c in calls):
        return None
    return [c for c in calls if c is not None]


def _decode(block: str) -> Any:
    """One JSON value, or several separated by whitespace (calls written one a line, as
    Qwen2.5-Coder-0.5B does for parallel calls) as a list; None when the text is not that."""
    values, i = [], 0
    block = block.strip()
    while i < len(block):
        try:
            value, i = decode_at(block, i)
        except json.JSONDecodeError:
            return None
        values.append(value)
        while i < len(block) and block[i].isspace():
            i += 1
    if not values:
        return None
    return values[0] if len(values) == 1 else values


def _embedded_calls(text: str) -> tuple[list[tuple[str, str]], str]:
    """Calls written as JSON anywhere in the text (prose around them is kept as the rest)."""
    calls: list[tuple[str, str]] = []
    kept: list[str] = []
    start = 0
    for begin, end, value in json_values(text):
        found = _calls_in(value)
        if found:
            calls += found
            kept.append(text[start:begin])
            start = end
    kept.append(text[start:])
    return calls, "".join(kept).strip() if calls else text


def read_text_calls(text: str) -> TextCalls:
    """The tool calls written in `text` in a known format; `problem` when one is malformed."""
    tagged, untagged = _blocks(text, "<tool_call>", "</tool_call>")
    if tagged:
        calls: list[tuple[str, str]] = []
        for _, block in tagged:
            found = _calls_in(_decode(block))
            if found is None:
                return TextCalls(
                    [],
                    text,
                    f"the <tool_call> block is not a valid call "
                    f'{{"name": …, "arguments": {{…}}}}: {block[:120]!r}',
                )
            calls += found
        return TextCalls(calls, untagged.strip())
    for block, rest in _fenced(text):
        found = _calls_in(_decode(block))
        if found:
            return TextCalls(found, rest.strip())
    tags, untagged = _function_blocks(text)
    if tags:
        calls = []
        for name, body in tags:
            args = _decode(body)
            if not isinstance(args, dict):
                return TextCalls([], text, f"the <function={name}> arguments are not a JSON object")
            calls.append((name, json.dumps(args)))
        return TextCalls(calls, untagged.strip())
    found, rest = _embedded_calls(_MARKERS.sub("", text))
    if found:
        return TextCalls(found, rest)
    if _LOOKS_LIKE_CALL.search(text):
        return TextCalls(
            [],
            text,
            'the tool call in the text is not valid JSON (expected {"name": …, "arguments": {…}})',
        )
    return TextCalls([], text)


def _function_blocks(text: str) -> tuple[list[tuple[str, str]], str]:
    """Llama 3's `<function=NAME>{…}</function>` blocks as (name, body), and the text without
    them; a `<function=` not followed by a name and `>` is left as text."""
    blocks, rest = _blocks(text, "<function=", "</function>")
    calls: list[tuple[str, str]] = []
    for _, body in blocks:
        name = _FUNCTION_NAME.match(body)
        if name is None:
            return [], text
        calls.append((name.group()[:-1], body[name.end() :].strip()))
    return calls, rest


def apply_text_calls(step: StepRecord) -> None:
    """Native mode: turn a call the server left as text into the step's tool calls."""
    if step.tool_calls or not step.content.strip():
        return
    found = read_text_calls(step.content)
    if found.problem:
        step.invalid_tool_call = found.problem
        return
    if not found.calls:
        return
    step.tool_calls = [
        ToolCallRecord(
            id=f"call_{step.index}_{i}", name=name, arguments=args, parsed=parse_arguments(args)[0]
        )
        for i, (name, args) in enumerate(found.calls)
    ]
    step.content = found.rest
    step.tool_call_method = "text_parsed"


def malformed_call_messages(step: StepRecord, native: bool) -> list[dict[str, Any]]:
    """The model's unreadable call and the runtime's error reply, for the next request."""
    problem = step.invalid_tool_call or "unreadable tool call"
    reply = (
        f"Error: your tool call could not be read ({problem}). Send the call again in the "
        "correct format, or give your final answer."
    )
    if not native:
        reply += ' Format: {"tool": "<tool name>", "parameters": {...}} or {"final_answer": "..."}'
    return [{"role": "assistant", "content": step.content}, {"role": "user", "content": reply}]
