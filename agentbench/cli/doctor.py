"""`agentbench doctor`: which local servers answer, what they serve, and whether tools and
reasoning come back the way agentbench reads them — with known failures explained.

    agentbench doctor                          every profile's usual addresses + the embedded extra
    agentbench doctor --local nemotron         that profile's candidates, then checks on the first
                                               one serving it (exit 1 when none does)
    agentbench doctor --base-url URL --model NAME     one server (ollama/NAME for Ollama's API)
    agentbench doctor --log vllm.log           also read a server's log (`docker logs … 2>&1 |
                                               agentbench doctor --log -`): the failures that stop
                                               a server from starting are only in its log

The checks on a served model are two tiny requests: a tool call forced by naming the function
(`tool_choice`; Ollama has none, so its tools capability is read and the call just offered), and
a short question whose reasoning must arrive apart from the answer (vLLM `reasoning` /
`reasoning_content`, Ollama `thinking`) rather than as raw `<think>` text.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
import typer
from rich.console import Console

from agentbench.backends.base import Backend, ChatRequest, RetryPolicy, strip_credentials
from agentbench.errors import BackendError, ConfigError
from agentbench.local.diagnose import Diagnosis, diagnose
from agentbench.local.profiles import Profile, expand, load_profiles

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
MARKS = {
    "ok": "[green]ok[/green]",
    "warn": "[yellow]warn[/yellow]",
    "fail": "[red]FAIL[/red]",
    "info": "[cyan]info[/cyan]",
    "skip": "[dim]skip[/dim]",
}


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


# ---------------------------------------------------------------------------------- probes


def check_embedded(report: DoctorReport, profiles: dict[str, Profile]) -> set[str]:
    """The llama-server build and each embedded profile's weights; the usable profiles."""
    from agentbench.local.llama_build import server_binary
    from agentbench.local.weights import installed_problem

    binary = server_binary()
    if binary.exists():
        report.add("llama-server", "ok", f"built: {binary}")
    else:
        report.add(
            "llama-server",
            "info",
            "not built yet: the first --local embedded* run "
            "builds it (about 10 minutes on 2 cores), or bash scripts/setup_llama_server.sh",
        )
    usable = set()
    for alias, profile in profiles.items():
        if not profile.embedded or profile.weights is None:
            continue
        keys = [k for k in (profile.weights, profile.draft_weights) if k]
        problem = next((p for p in map(installed_problem, keys) if p), None)
        if problem:
            report.add(f"weights of {alias}", "info", problem)
        else:
            report.add(f"weights of {alias}", "ok", "installed: " + ", ".join(keys))
            usable.add(alias)
    return usable


def probe(server: str, base_url: str, timeout: float = 3.0) -> tuple[bool, str, list[str]]:
    """(answers, one line about it, models served). Never raises."""
    shown = strip_credentials(base_url)
    try:
        if server == "ollama":
            from agentbench.backends.ollama import ollama_root

            root = ollama_root(base_url)
            version = httpx.get(f"{root}/api/version", timeout=timeout).json().get("version")
            tags = httpx.get(f"{root}/api/tags", timeout=timeout).json().get("models") or []
            names = [m.get("name", "") for m in tags if isinstance(m, dict)]
            return True, f"Ollama {version} at {shown}", names
        response = httpx.get(f"{base_url.rstrip('/')}/models", timeout=timeout)
        if response.status_code != 200:
            return (
                True,
                (
                    f"{shown} answers HTTP {response.status_code} on /models: "
                    f"{' '.join(response.text.split())[:160]}"
                ),
                [],
            )
        data = response.json().get("data") or []
        names = [m.get("id", "") for m in data if isinstance(m, dict)]
        root = base_url[:-3] if base_url.rstrip("/").endswith("/v1") else base_url
        version = None
        try:
            doc = httpx.get(f"{root.rstrip('/')}/version", timeout=timeout)
            version = doc.json().get("version") if doc.status_code == 200 else None
        except (httpx.HTTPError, ValueError, AttributeError):
            pass
        label = f"{server} {version}" if version else server
        return True, f"{label} at {shown}", names
    except httpx.ConnectError as exc:
        return False, f"{server} at {shown}: no answer (connection refused: {exc})", []
    except (httpx.HTTPError, ValueError, AttributeError) as exc:
        return False, f"{server} at {shown}: no usable answer ({type(exc).__name__}: {exc})", []


def _served(model: str, served: list[str]) -> bool:
    return model in served or f"{model}:latest" in served


# ---------------------------------------------------------------------------- model checks


async def check_model(report: DoctorReport, backend: Backend) -> None:
    """Serving record, a forced tool call, and reasoning parsing, on one served model."""
    from agentbench.backends.ollama import OllamaBackend

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
    if isinstance(backend, OllamaBackend):
        await _ollama_checks(report, backend, info.extra.get("capabilities") or [])
    else:
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
    client: httpx.AsyncClient = backend.client  # type: ignore[attr-defined]
    body = {
        "model": backend.model,
        "messages": THINK_PROMPT,
        "max_tokens": 256,
        "temperature": 0,
        "stream": False,
    }
    headers = backend._headers() if hasattr(backend, "_headers") else {}
    headers = {k: v for k, v in headers.items() if k.lower() == "authorization"}
    try:
        response = await client.post(
            f"{backend.base_url}/chat/completions",
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
            f"{backend.base_url}/api/chat", json=body, timeout=backend.retry.request_timeout_s
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


def _backend(server: str, base_url: str, model: str, timeout_s: float) -> Backend:
    retry = RetryPolicy(max_retries=0, request_timeout_s=timeout_s, connect_timeout_s=5.0)
    if server == "ollama":
        from agentbench.backends.ollama import OllamaBackend

        return OllamaBackend(base_url, model, retry=retry)
    from agentbench.backends.openai_compat import OpenAICompatBackend

    return OpenAICompatBackend(base_url, model, retry=retry)


async def _checks_on(
    report: DoctorReport, server: str, base_url: str, model: str, timeout_s: float
) -> None:
    backend = _backend(server, base_url, model, timeout_s)
    try:
        await check_model(report, backend)
    finally:
        await backend.aclose()


# ------------------------------------------------------------------------------- the flows


def check_logs(report: DoctorReport, logs: dict[str, str]) -> None:
    """Known signatures in server logs (the tail of each: the last start is what matters)."""
    for name, text in logs.items():
        tail = text[-200_000:]
        found = diagnose(tail)
        if found:
            check = report.add(f"log {name}", "fail", f"{len(found)} known failure signature(s)")
            check.diagnoses = found
        else:
            report.add(f"log {name}", "info", "no known failure signature")


def run_doctor(
    *,
    local: str | None = None,
    base_url: str | None = None,
    model: str | None = None,
    profiles_file: Path | None = None,
    env: dict[str, str] | None = None,
    timeout_s: float = 120.0,
    logs: dict[str, str] | None = None,
) -> DoctorReport:
    env = dict(os.environ if env is None else env)
    report = DoctorReport()
    if logs:
        check_logs(report, logs)
    profiles = load_profiles(profiles_file)
    usable = check_embedded(report, profiles)
    if base_url:
        if not model:
            raise ConfigError("--base-url needs --model NAME (ollama/NAME for Ollama's API)")
        server = "ollama" if model.startswith("ollama/") else "openai-compatible"
        name = model.split("/", 1)[1] if server == "ollama" else model
        report.target = f"{strip_credentials(base_url)} {model}"
        answers, line, served = probe(server, base_url)
        _report_probe(report, server, answers, line, served, [name])
        report.target_ok = answers and (not served or _served(name, served))
        if report.target_ok:
            asyncio.run(_checks_on(report, server, base_url, name, timeout_s))
        else:
            report.error = (
                f"{line}"
                if not answers
                else (f"{line}: it serves {', '.join(served) or 'no model'}, not {name}")
            )
        return report
    if local:
        profile = profiles.get(local)
        if profile is None:
            raise ConfigError(f"unknown --local alias '{local}'; known: {', '.join(profiles)}")
        report.target = f"--local {local}"
        if profile.embedded:
            report.target_ok = local in usable
            if local in usable:
                from agentbench.local.embedded import EmbeddedServer, launch_for

                with EmbeddedServer(launch_for(profile, local), env=env) as embedded:
                    asyncio.run(
                        _checks_on(
                            report, "llama.cpp", embedded.base_url, embedded.alias, timeout_s
                        )
                    )
            else:
                report.error = f"--local {local} needs its weights (see 'weights of {local}')"
            return report
        found = _probe_profile(report, profile, env)
        if found is None:
            tried = "; ".join(c.detail for c in report.checks if c.name.startswith("server at"))
            hint = f"\nTo start it:\n{profile.start_hint.rstrip()}" if profile.start_hint else ""
            report.error = f"no server answered for --local {local}; tried: {tried}{hint}"
            report.target_ok = False
            return report
        report.target_ok = True
        asyncio.run(_checks_on(report, *found, timeout_s))
        return report
    seen: set[tuple[str, str]] = set()
    for profile in profiles.values():
        for cand in profile.candidates:
            key = (cand.server, expand(cand.base_url, env))
            if key in seen:
                continue
            seen.add(key)
            answers, line, served = probe(*key)
            _report_probe(report, cand.server, answers, line, served, [])
    return report


def _probe_profile(
    report: DoctorReport, profile: Profile, env: dict[str, str]
) -> tuple[str, str, str] | None:
    found = None
    for cand in profile.candidates:
        url = expand(cand.base_url, env)
        answers, line, served = probe(cand.server, url)
        _report_probe(report, cand.server, answers, line, served, cand.models)
        match = next((m for m in cand.models if _served(m, served)), None)
        if found is None and answers and match:
            found = (cand.server, url, match)
    return found


def _report_probe(
    report: DoctorReport,
    server: str,
    answers: bool,
    line: str,
    served: list[str],
    wanted: list[str],
) -> None:
    name = f"server at {server}"
    if not answers:
        report.add(name, "fail" if wanted else "info", line, line)
        return
    models = ", ".join(served[:8]) + (" …" if len(served) > 8 else "") if served else "none"
    if wanted and served and not any(_served(m, served) for m in wanted):
        report.add(
            name,
            "warn",
            f"{line} answers, serves {models}; serves none of {wanted}",
            f"serves none of {wanted}",
        )
    else:
        report.add(name, "ok", f"{line} answers; models: {models}")


# ------------------------------------------------------------------------------------ CLI


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)


def render(report: DoctorReport, console: Console) -> None:
    console.print(f"[bold]agentbench doctor[/bold]{' — ' + report.target if report.target else ''}")
    explained: set[str] = set()
    for check in report.checks:
        console.print(
            f"  {MARKS.get(check.status, check.status)}  {check.name}: {check.detail}",
            highlight=False,
        )
        for d in check.diagnoses:
            text = f"{d.title} (see above)" if d.key in explained else d.render()
            explained.add(d.key)
            console.print(f"       → {text}", highlight=False)


def doctor(
    local: str = typer.Option(None, "--local", help="Check this profile alias (nemotron, …)."),
    base_url: str = typer.Option(None, "--base-url", help="Check one server (…/v1, or Ollama)."),
    model: str = typer.Option(None, "--model", help="Served model name (ollama/NAME: Ollama)."),
    profiles: Path = typer.Option(None, "--profiles", help="Extra model profiles (YAML)."),
    timeout: float = typer.Option(120.0, "--timeout", help="Seconds per test request."),
    json_out: Path = typer.Option(None, "--json", help="Write the findings here."),
    log: list[str] = typer.Option(None, "--log", help="A server log to read (- for stdin)."),
) -> None:
    """Which servers answer, what they serve, whether tool calls and reasoning work."""
    if local and (base_url or model):
        raise ConfigError("give either --local ALIAS or --base-url URL --model NAME, not both")
    console = Console(soft_wrap=True)
    logs: dict[str, str] = {}
    for item in log or []:
        if item == "-":
            logs["stdin"] = typer.get_text_stream("stdin").read()
            continue
        try:
            logs[item] = Path(item).read_text(errors="replace")
        except OSError as exc:
            raise ConfigError(f"--log {item}: cannot read it: {exc}") from exc
    report = run_doctor(
        local=local,
        base_url=base_url,
        model=model,
        profiles_file=profiles,
        timeout_s=timeout,
        logs=logs,
    )
    render(report, console)
    if json_out:
        json_out.write_text(json.dumps(asdict(report), indent=2, default=str))
    if report.target_ok is False:
        typer.echo(f"error: {report.error or 'the target is not usable'}", err=True)
        raise typer.Exit(1)
