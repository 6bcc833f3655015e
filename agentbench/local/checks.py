"""The checks `agentbench doctor` runs on one served model, and the report they fill.

Two tiny requests: a tool call forced by naming the function (`tool_choice`; Ollama has none, so
its tools capability is read and the call just offered), and a short question whose reasoning
must arrive apart from the answer (vLLM `reasoning` / `reasoning_content`, Ollama `thinking`)
rather than as raw `<think>` text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from agentbench.backends.base import Backend, ChatRequest, RetryPolicy
from agentbench.backends.http import HttpBackend
from agentbench.backends.providers import OLLAMA, OPENAI, build_backend
from agentbench.errors import BackendError
from agentbench.local.diagnose import Diagnosis, diagnose

TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_pods",
        "description": "List the pods of a Kubernetes namespace.",
        "parameters": {
            "type": "object",
            "properties": {"namespace": {"type": "string"}},
            "required": ["namespace"],
        },
    },
}
TOOL_PROMPT = [
    {"role": "system", "content": "You operate a Kubernetes cluster through tools."},
    {"role": "user", "content": "List the pods in the namespace web."},
]
THINK_PROMPT = [{"role": "user", "content": "Is 91 a prime number? Think, then answer yes or no."}]


@dataclass
class Check:
    name: str
    status: str  # ok | warn | fail | info | skip
    detail: str
    diagnoses: list[Diagnosis] = field(default_factory=list)


@dataclass
class DoctorReport:
    checks: list[Check] = field(default_factory=list)
    target: str | None = None
    target_ok: bool | None = None  # None: no target asked for
    server: dict[str, Any] | None = None
    error: str | None = None

    def add(self, name: str, status: str, detail: str, evidence: str | None = None) -> Check:
        check = Check(name, status, detail, diagnose(evidence) if evidence else [])
        self.checks.append(check)
        return check


async def check_model(report: DoctorReport, backend: Backend) -> None:
    """Serving record, a forced tool call, and reasoning parsing, on one served model."""
    info = await backend.server_info()
    report.server = info.model_dump()
    report.add(
        "server",
        "ok",
        (
            f"{info.kind} {info.version or '(version not reported)'}, model {info.model}, context "
            f"{info.max_context or 'not reported'}, speculative decoding "
            f"{ {True: 'seen', False: 'not seen', None: 'unknown'}[info.spec_decode_seen] }"
        ),
    )
    checks = _CHECKS[(backend.protocol or OPENAI).name]
    await checks(report, backend, info.extra.get("capabilities") or [])


async def _openai_checks(report: DoctorReport, backend: Backend, capabilities: list[str]) -> None:
    await _tool_check(report, backend, {"type": "function", "function": {"name": "get_pods"}})
    await _openai_reasoning_check(report, backend)


async def _tool_check(
    report: DoctorReport, backend: Backend, tool_choice: str | dict[str, Any] | None
) -> None:
    how = "named function in tool_choice" if tool_choice else "tools offered (no tool_choice)"
    try:
        c = await backend.complete(
            ChatRequest(messages=TOOL_PROMPT, tools=[TOOL], tool_choice=tool_choice, max_tokens=96)
        )
    except BackendError as exc:
        report.add("tool calling", "fail", f"{how}: {exc}", str(exc))
        return
    if c.tool_calls and c.tool_calls[0].name != TOOL["function"]["name"]:
        report.add(
            "tool calling",
            "warn",
            (
                f"{how}: a tool call came back under the name {c.tool_calls[0].name[:80]!r}, not "
                f"'get_pods' (a server that repeats the name in every stream chunk garbles it; "
                "prefer --tool-mode prompt on this server)"
            ),
        )
    elif c.tool_calls and c.tool_calls[0].parsed is not None:
        call = c.tool_calls[0]
        report.add("tool calling", "ok", f"{how}: {call.name}({call.arguments})")
    elif c.tool_calls:
        report.add(
            "tool calling",
            "warn",
            f"{how}: a tool call came back but its arguments are "
            f"not a JSON object: {c.tool_calls[0].arguments[:120]!r}",
        )
    else:
        report.add(
            "tool calling",
            "fail",
            (
                f"{how}: answered in text, no tool_calls ({c.content.strip()[:100]!r}). vLLM needs "
                "--enable-auto-tool-choice and a --tool-call-parser matching the model's chat "
                "template; or use --tool-mode prompt"
            ),
        )


async def _openai_reasoning_check(report: DoctorReport, backend: Backend) -> None:
    if not isinstance(backend, HttpBackend):
        return
    client = backend.client
    body = {
        "model": backend.model,
        "messages": THINK_PROMPT,
        "max_tokens": 256,
        "temperature": 0,
        "stream": False,
    }
    headers = backend.auth_headers()
    try:
        response = await client.post(
            backend.protocol.url(backend.base_url, backend.protocol.chat_path),
            json=body,
            headers=headers,
            timeout=backend.retry.request_timeout_s,
        )
        message = (response.json().get("choices") or [{}])[0].get("message") or {}
    except (httpx.HTTPError, ValueError, AttributeError, IndexError) as exc:
        report.add("reasoning parsing", "warn", f"request failed: {exc}", str(exc))
        return
    reasoning = message.get("reasoning") or message.get("reasoning_content")
    content = message.get("content") or ""
    field_name = "reasoning" if message.get("reasoning") else "reasoning_content"
    if reasoning:
        report.add(
            "reasoning parsing",
            "ok",
            f"reasoning arrives apart from the answer (`{field_name}`, {len(reasoning)} chars)",
        )
    elif "<think>" in content or "</think>" in content:
        report.add(
            "reasoning parsing",
            "warn",
            (
                "reasoning arrives inline as <think>…</think> in the answer text: the server has "
                "no reasoning parser (vLLM: --reasoning-parser, e.g. nemotron_v3). agentbench "
                "splits it out itself, but the server's own token counts then mix thinking and "
                "answer"
            ),
        )
    else:
        report.add(
            "reasoning parsing",
            "info",
            "no reasoning came back: not a reasoning model, or thinking is off",
        )


async def _ollama_checks(report: DoctorReport, backend: Any, capabilities: list[str]) -> None:
    if capabilities and "tools" not in capabilities:
        report.add(
            "tool calling",
            "fail",
            f"Ollama lists no 'tools' capability for "
            f"{backend.model} (capabilities: {', '.join(capabilities)})",
        )
    else:
        await _tool_check(report, backend, None)
    if capabilities and "thinking" not in capabilities:
        report.add(
            "reasoning parsing",
            "info",
            f"Ollama lists no 'thinking' capability for {backend.model}",
        )
        return
    body = {
        "model": backend.model,
        "messages": THINK_PROMPT,
        "think": True,
        "stream": False,
        "options": {"num_predict": 256, "temperature": 0},
    }
    try:
        response = await backend.client.post(
            backend.protocol.url(backend.base_url, backend.protocol.chat_path),
            json=body,
            timeout=backend.retry.request_timeout_s,
        )
        data = response.json()
    except (httpx.HTTPError, ValueError) as exc:
        report.add("reasoning parsing", "warn", f"request failed: {exc}", str(exc))
        return
    if data.get("error"):
        report.add("reasoning parsing", "warn", f"Ollama: {data['error']}", str(data["error"]))
        return
    message = data.get("message") or {}
    if message.get("thinking"):
        report.add(
            "reasoning parsing",
            "ok",
            f"thinking arrives apart (`message.thinking`, "
            f"{len(message['thinking'])} chars; counted by estimate: Ollama's eval_count "
            "includes it)",
        )
    elif "<think>" in (message.get("content") or ""):
        report.add(
            "reasoning parsing",
            "warn",
            "thinking arrives inline as <think> text; "
            "upgrade Ollama (the `think` option parses it)",
        )
    else:
        report.add("reasoning parsing", "info", "no thinking came back (think=true)")
    prompt_count = data.get("prompt_eval_count")
    if isinstance(prompt_count, int):
        report.add(
            "context",
            "info",
            f"prompt_eval_count {prompt_count} for a ~20-token prompt; "
            "agentbench flags a step as truncated when this falls clearly below the "
            "prompt it sent (silent num_ctx truncation)",
        )


async def checks_on(
    report: DoctorReport, server: str, base_url: str, model: str, timeout_s: float
) -> None:
    retry = RetryPolicy(max_retries=0, request_timeout_s=timeout_s, connect_timeout_s=5.0)
    backend = build_backend(server, base_url, model, retry=retry)
    try:
        await check_model(report, backend)
    finally:
        await backend.aclose()


# The checks of each protocol (`ServerProtocol.name`): Ollama has no tool_choice but lists what
# a model can do, and thinks only when asked to (`think`).
_CHECKS = {OPENAI.name: _openai_checks, OLLAMA.name: _ollama_checks}
