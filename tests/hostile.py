"""A hostile "model" on loopback: an OpenAI-compatible streaming endpoint that plays an attack.

The attack is the model a run asks for (`--model long-line`); GET /v1/models lists them all, so
the real `agentbench run … --base-url http://127.0.0.1:PORT/v1 --model ATTACK` entry point plays
it. An attack sees the request (its tools and how many answers the conversation already holds):
the tool-call attacks call the task's first tool on the first step and, once a tool answered,
answer with that tool's output (as a model exfiltrating what it read would).

Bounds, whatever the client does: the server listens on 127.0.0.1 only; an attack writes at
most ~100 MB and a connection lives at most CONNECTION_S; requests over MAX_REQUEST_BYTES are
refused; the server stops itself LIFETIME_S after it started.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .loopback import serving

LIFETIME_S = 600.0
CONNECTION_S = 60.0
MAX_REQUEST_BYTES = 64 << 20
MB = 1 << 20
DONE = b"data: [DONE]\n\n"

Attack = Callable[[dict[str, Any]], Iterator[bytes]]


def sse(chunk: Any) -> bytes:
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def chunk(delta: dict[str, Any] | None = None, finish: Any = None, **top: Any) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta or {}, "finish_reason": finish}
    return {"id": "h", "object": "chat.completion.chunk", "model": "h", "choices": [choice], **top}


def answer(text: str) -> Iterator[bytes]:
    yield sse(chunk({"role": "assistant", "content": text}))
    yield sse(chunk(finish="stop"))
    yield DONE


def call(index: Any, name: str | None, arguments: str, id: str | None = None) -> dict[str, Any]:
    function: dict[str, Any] = {"arguments": arguments}
    if name is not None:
        function["name"] = name
    return {"index": index, "id": id, "type": "function", "function": function}


def calls(*parts: dict[str, Any]) -> Iterator[bytes]:
    for part in parts:
        yield sse(chunk({"tool_calls": [part]}))
    yield sse(chunk(finish="tool_calls"))
    yield DONE


def lines(*raw: bytes) -> Attack:
    """These SSE bytes as they are, then [DONE]."""
    return lambda body: iter([*raw, DONE])


def _tool(body: dict[str, Any]) -> str:
    tools = body.get("tools") or [{"function": {"name": "run_command"}}]
    return str(tools[0]["function"]["name"])


def _valid_arguments(body: dict[str, Any]) -> str:
    """Arguments the task's first tool accepts (its required properties, as harmless text)."""
    tools = body.get("tools") or [{"function": {}}]
    required = tools[0]["function"].get("parameters", {}).get("required", [])
    values = {"cmd": "echo hi", "query": "SELECT 1"}
    return json.dumps({key: values.get(key, "x") for key in required})


def _step(body: dict[str, Any]) -> int:
    return sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")


def _last_tool_output(body: dict[str, Any]) -> str:
    outputs = [m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "tool"]
    return outputs[-1] if outputs else ""


def tool_attack(arguments: dict[str, Any]) -> Attack:
    """Step 0: call the task's first tool with `arguments`; then answer with its output."""

    def play(body: dict[str, Any]) -> Iterator[bytes]:
        if _step(body) == 0:
            yield from calls(call(0, _tool(body), json.dumps(arguments), id="call_h0"))
        else:
            yield from answer(f"The tool said: {_last_tool_output(body)}")

    return play


def once(first: Attack) -> Attack:
    """`first` on the first step, then a plain answer (so a fed-back step ends the episode)."""

    def play(body: dict[str, Any]) -> Iterator[bytes]:
        yield from first(body) if _step(body) == 0 else answer("done")

    return play


def _flood(text: bool) -> Attack:
    """2,000 events of 30 KB: of answer text, or of a field nothing reads."""

    def play(_: dict[str, Any]) -> Iterator[bytes]:
        for _ in range(2_000):
            if text:
                yield sse(chunk({"content": "x" * 30_000}))
            else:
                yield sse(chunk({"content": "x"}, system_fingerprint="f" * 30_000))
        yield from answer("")

    return play


def _long_line(_: dict[str, Any]) -> Iterator[bytes]:
    yield b'data: {"choices": [{"index": 0, "delta": {"content": "'
    for _ in range(80):
        yield b"a" * MB
    yield b'"}}]}\n\n' + DONE


def _endless_line(_: dict[str, Any]) -> Iterator[bytes]:
    for _ in range(80):
        yield b"b" * MB


def _deep_chunk(_: dict[str, Any]) -> Iterator[bytes]:
    yield b'data: {"choices": [{"index": 0, "delta": {"content": "x"}, "extra": '
    yield b"[" * 100_000 + b"]" * 100_000 + b"}]}\n\n" + DONE


def _many_calls(n: int) -> Attack:
    def play(body: dict[str, Any]) -> Iterator[bytes]:
        name, args = _tool(body), _valid_arguments(body)
        yield from calls(*(call(i, name, args, id=f"call_{i}") for i in range(n)))

    return play


def _gzip_bomb(_: dict[str, Any]) -> Iterator[bytes]:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip stream
    yield packer.compress(b'data: {"choices": [{"index": 0, "delta": {"content": "')
    zeros = b"0" * MB
    for _ in range(256):
        if packed := packer.compress(zeros):
            yield packed
    yield packer.compress(b'"}}]}\n\n' + DONE) + packer.flush()


def _tool_call_arguments(arguments: str) -> Attack:
    return once(lambda body: calls(call(0, _tool(body), arguments, id="c0")))


def attacks(host_file: str) -> dict[str, Attack]:
    """Every attack by name; the SQL ones read `host_file` (a file the test wrote)."""
    long_number = '{"cmd": ' + "1" * 5_000 + "}"
    spaces = " " * 30_000  # under the text bound; the lazy tag regex took minutes on it
    return {
        # streams without bounds
        "flood": _flood(text=False),
        "text-flood": _flood(text=True),
        "long-line": _long_line,  # one 80 MB SSE line
        "endless-line": _endless_line,  # 80 MB, never a newline
        "gzip-bomb": _gzip_bomb,  # 256 MB behind content-encoding: gzip
        "many-calls": once(_many_calls(5_000)),
        "forty-calls": once(_many_calls(40)),
        # odd payloads
        "brackets-answer": lambda body: answer("[" * 50_000),
        "brackets-args": _tool_call_arguments("[" * 50_000),
        "long-number-args": _tool_call_arguments(long_number),
        "deep-chunk": _deep_chunk,
        "index-int-and-str": lambda body: calls(
            call(0, _tool(body), '{"cmd": ', id="c0"), call("0", None, '"ls"}')
        ),
        "model-type": lines(sse({**chunk({"content": "hi"}), "model": {"a": 1}})),
        "finish-type": lines(sse(chunk({"content": "hi"}, finish=["stop"]))),
        "non-object": lines(b'data: "just text"\n\n'),
        "choices-string": lines(sse({"choices": "abc"})),
        "negative-usage": lines(
            sse(chunk({"content": "hi"}, finish="stop")),
            sse({"choices": [], "usage": {"completion_tokens": -5, "prompt_tokens": 3}}),
        ),
        "lone-surrogate": lines(
            b'data: {"choices": [{"index": 0, "delta": {"content": "a\\ud800b"}}]}\n\n',
            sse(chunk(finish="stop")),
        ),
        "tag-spaces": once(lambda body: answer(f"<tool_call>{spaces}x{spaces}y")),
        # hostile tool calls that other parts of the harness bound (SQL sandbox, tool deadlines)
        "sql-read-text": tool_attack({"query": f"SELECT * FROM read_text('{host_file}')"}),
        "sql-read-csv": tool_attack({"query": f"SELECT * FROM read_csv('{host_file}')"}),
        "grep-redos": tool_attack({"cmd": "echo " + "a" * 40 + " | grep -E '(a+)+b'"}),
        "awk-field": tool_attack({"cmd": "echo x | awk '{$100000000=1}'"}),
    }


GZIPPED = {"gzip-bomb"}


async def _handle(
    plays: dict[str, Attack], reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    try:
        async with asyncio.timeout(CONNECTION_S):
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.decode("latin-1").split("\r\n"):
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            if length > MAX_REQUEST_BYTES:
                writer.write(b"HTTP/1.1 413 Too Large\r\ncontent-length: 0\r\n\r\n")
                return
            raw = await reader.readexactly(length) if length else b""
            if head.startswith(b"GET /v1/models"):
                models = [{"id": name, "object": "model", "owned_by": "hostile"} for name in plays]
                body = json.dumps({"object": "list", "data": models}).encode()
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n"
                    + f"content-length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                return
            request = json.loads(raw) if raw else {}
            attack = plays.get(request.get("model", "")) if isinstance(request, dict) else None
            if not head.startswith(b"POST /v1/chat/completions") or attack is None:
                writer.write(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
                return
            encoding = b"content-encoding: gzip\r\n" if request["model"] in GZIPPED else b""
            writer.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n"
                + encoding
                + b"\r\n"
            )
            for piece in attack(request):
                writer.write(piece)
                await writer.drain()
    except (ConnectionError, TimeoutError, asyncio.IncompleteReadError, ValueError):
        pass
    finally:
        writer.close()


@contextmanager
def hostile_server(host_file: str = "/etc/hostname") -> Iterator[str]:
    """Serve in a background thread until the block ends (or LIFETIME_S); yields …/v1."""
    plays = attacks(host_file)

    async def handle(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await _handle(plays, r, w)

    with serving(handle, LIFETIME_S) as url:
        yield url
