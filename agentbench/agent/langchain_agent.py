"""The agent loop run through LangChain: the router's `RoutedChatModel` over `ChatOpenAI` models.

`agentbench run … --agent langchain` measures the stack users deploy: a LangChain chat model per
target (`langchain_openai.ChatOpenAI` at the same base URL and model as the run's backends),
wrapped in `router.langchain.RoutedChatModel` with the run's router policy, the task's tools
bound. Tool calls still run in the simulated environment (never on the host), and the episode
trace has the same shape as the native loop's, so scoring and reports are unchanged.

Timing. `RoutedChatModel` has no streaming path of its own (its `astream` yields one chunk at the
end), so each inner `ChatOpenAI` is built with `streaming=True`: its SSE stream is read by the
openai SDK, and every chunk reaches `on_llm_new_token` of a callback handler attached to the
inner models, where it is timestamped with `perf_counter_ns`. `t_send` is taken at
`on_chat_model_start` (just before the SDK builds and writes the request), the stream end at
`on_llm_end`. Offsets follow DESIGN.md: ttft_s is the first chunk carrying text, reasoning or a
tool-call fragment, ttfa_s the first carrying text or a tool-call fragment. The SDK parses each
SSE line before LangChain sees it, so these figures include the stack's own overhead: that is
what a LangChain deployment sees. Tokens come from `usage_metadata` (`stream_usage=True`), else
an estimate marked `estimated`; chunks are never counted as tokens.

The router's time (`router_time_s`) here is the routed call's wall time less its inner calls:
the policy and LangChain's own overhead together. Only OpenAI-compatible targets are supported
(Ollama through its `/v1` endpoint); prompt tool mode is not (tools are bound natively).
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from agentbench.agent.loop import AgentConfig, EpisodeRunner, EpisodeTrace
from agentbench.backends.base import Backend, strip_credentials
from agentbench.backends.http import HttpBackend, http_error
from agentbench.backends.ollama import OllamaBackend
from agentbench.backends.stream import StreamAccumulator
from agentbench.backends.tokens import estimate_tokens
from agentbench.errors import BackendError, ConfigError
from agentbench.records import (
    RouterDecisionRecord,
    StepRecord,
    TokensMethod,
    ToolCallRecord,
    ToolResultRecord,
)
from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task
from router import FRONTIER, LOCAL, Policy

try:  # optional: the `langchain` extra
    from langchain_core.callbacks import AsyncCallbackHandler
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import (
        AIMessage,
        BaseMessage,
        HumanMessage,
        SystemMessage,
        ToolMessage,
    )
    from langchain_core.outputs import ChatResult
except ImportError:  # pragma: no cover - checked when the agent is built
    AsyncCallbackHandler = object  # type: ignore[assignment,misc]
    BaseChatModel = object  # type: ignore[assignment,misc]


def langchain_missing() -> str | None:
    """Why `--agent langchain` cannot run here, or None."""
    try:
        import langchain_core  # noqa: F401
        import langchain_openai  # noqa: F401

        import router.langchain  # noqa: F401
    except ImportError as exc:
        return (
            f"--agent langchain needs langchain-core and langchain-openai ({exc.name} is missing): "
            "pip install 'agentbench-local[langchain]'"
        )
    return None


# --- per-call timing from the inner models' streams ----------------------------------------------


@dataclass
class _CallTiming:
    """One inner ChatOpenAI call: its stream, timed on arrival as the native backend times SSE."""

    acc: StreamAccumulator
    logprobs: list[float] = field(default_factory=list)
    message: Any = None  # the aggregated AIMessage (on_llm_end)
    error: BaseException | None = None


def _reasoning_text(message: Any) -> str:
    extra = getattr(message, "additional_kwargs", None) or {}
    text = extra.get("reasoning_content") or extra.get("reasoning") or ""
    if isinstance(text, str) and text:
        return text
    content = getattr(message, "content", None)
    if isinstance(content, list):
        return "".join(
            str(b.get("reasoning") or b.get("text") or "")
            for b in content
            if isinstance(b, dict) and b.get("type") in ("reasoning", "thinking")
        )
    return ""


def _answer_text(message: Any) -> str:
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return content
    return "".join(
        b if isinstance(b, str) else str(b.get("text") or "")
        for b in content or []
        if isinstance(b, str) or (isinstance(b, dict) and b.get("type") == "text")
    )


class StreamTimer(AsyncCallbackHandler):  # type: ignore[misc,valid-type]
    """Timestamps the chunks of every call made by the models it is attached to (one episode)."""

    raise_error = True

    def __init__(self) -> None:
        self.calls: list[_CallTiming] = []
        self._open: dict[UUID, _CallTiming] = {}

    async def on_chat_model_start(
        self, serialized: Any, messages: Any, *, run_id: UUID, **kwargs: Any
    ) -> None:
        timing = _CallTiming(StreamAccumulator(t_send_ns=time.perf_counter_ns()))
        self._open[run_id] = timing
        self.calls.append(timing)

    async def on_llm_new_token(  # type: ignore[override]
        self, token: Any, *, chunk: Any = None, run_id: UUID, **kwargs: Any
    ) -> None:
        now = time.perf_counter_ns()
        timing = self._open.get(run_id)
        if timing is None:
            return
        acc = timing.acc
        acc.event(now)
        message = getattr(chunk, "message", None)
        if message is None:
            acc.add_content(str(token or ""), now)
            return
        acc.add_reasoning(_reasoning_text(message), now)
        acc.add_content(_answer_text(message), now)
        for frag in getattr(message, "tool_call_chunks", None) or []:
            acc.add_tool_fragment(
                int(frag.get("index") or 0),
                now,
                id=frag.get("id"),
                name=frag.get("name"),
                arguments=frag.get("args"),
            )
        for item in (kwargs.get("logprobs") or {}).get("content") or []:
            if isinstance(item, dict) and isinstance(item.get("logprob"), int | float):
                timing.logprobs.append(float(item["logprob"]))

    async def on_llm_end(self, response: Any, *, run_id: UUID, **kwargs: Any) -> None:
        now = time.perf_counter_ns()
        timing = self._open.pop(run_id, None)
        if timing is None:
            return
        timing.acc.finish(now)
        generations = getattr(response, "generations", None) or [[]]
        if generations and generations[0]:
            timing.message = getattr(generations[0][0], "message", None)

    async def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        timing = self._open.pop(run_id, None)
        if timing is not None:
            timing.acc.finish(time.perf_counter_ns())
            timing.error = error


@functools.cache
def _chat_openai_class() -> type:
    """`ChatOpenAI`, reading the reasoning deltas it drops (`reasoning_content`, `reasoning`:
    vLLM, llama.cpp, SGLang) into `additional_kwargs["reasoning_content"]`, so that ttft_s and
    reasoning text are measured as in the native loop. Requests are unchanged: ChatOpenAI does
    not send that key back in the history."""
    from langchain_openai import ChatOpenAI

    class ReasoningChatOpenAI(ChatOpenAI):
        def _convert_chunk_to_generation_chunk(
            self, chunk: dict, default_chunk_class: type, base_generation_info: dict | None
        ) -> Any:
            out = super()._convert_chunk_to_generation_chunk(
                chunk, default_chunk_class, base_generation_info
            )
            choices = chunk.get("choices") or []
            delta = (choices[0].get("delta") or {}) if choices else {}
            text = delta.get("reasoning_content") or delta.get("reasoning")
            if out is not None and isinstance(text, str) and text:
                out.message.additional_kwargs["reasoning_content"] = text
            return out

    return ReasoningChatOpenAI


class _NoFrontier(BaseChatModel):  # type: ignore[misc,valid-type]
    """Stands in for an unconfigured frontier: a call to it is a `no_target` fault."""

    @property
    def _llm_type(self) -> str:
        return "agentbench-no-frontier"

    def bind_tools(self, tools: Any, **kwargs: Any) -> _NoFrontier:  # type: ignore[override]
        return self

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        raise BackendError("no_target", "the router chose 'frontier', which is not configured")


def _backend_error(exc: Exception) -> BackendError:
    """An openai SDK fault as agentbench's fault kinds."""
    if isinstance(exc, BackendError):
        return exc
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return BackendError("timeout", f"no response in time: {exc}")
    if isinstance(exc, openai.APIConnectionError):
        return BackendError("connection_refused", f"cannot connect: {exc}")
    if isinstance(exc, openai.APIStatusError):
        response = exc.response
        url = strip_credentials(str(response.request.url))
        return http_error(exc.status_code, response.text, url, response.headers)
    return BackendError("langchain", f"{type(exc).__name__}: {exc}"[:300])


# --- the agent ---------------------------------------------------------------------------------


class LangChainAgent(EpisodeRunner):
    """Runs episodes through a LangChain tool-calling loop on `RoutedChatModel`.

    Same interface as `Agent`: `await run(task, policy) -> EpisodeTrace`. The policy object is
    used for its name only: `RoutedChatModel` builds its own instance from `router_spec`, one per
    episode (the same spec and seed as the native loop's per-episode policy).
    """

    def __init__(
        self,
        suite: TaskSuite,
        targets: dict[str, Backend],
        config: AgentConfig | None = None,
        router_spec: str = "always-local",
    ) -> None:
        problem = langchain_missing()
        if problem:
            raise ConfigError(problem)
        self.suite = suite
        self.targets = targets
        self.config = config or AgentConfig()
        if self.config.tool_mode != "native":
            raise ConfigError("--agent langchain binds tools natively; drop --tool-mode prompt")
        self.router_spec = router_spec
        from router import build_policy

        self._needs_logprobs = build_policy(router_spec)().needs_logprobs
        for name, backend in targets.items():
            if backend.provider not in ("openai", "ollama"):
                raise ConfigError(
                    f"--agent langchain needs OpenAI-compatible targets; the {name} target is "
                    f"{backend.provider}"
                )

    # the chat models ---------------------------------------------------------------------------

    def _chat_model(self, backend: Backend, timer: StreamTimer, target: str) -> Any:
        from pydantic import SecretStr

        chat_openai = _chat_openai_class()

        base_url = backend.base_url
        if isinstance(backend, OllamaBackend):  # Ollama's OpenAI-compatible endpoint
            base_url = backend.openai_base_url()
        kwargs: dict[str, Any] = {}
        if self.config.max_tokens is not None:
            kwargs["max_tokens"] = self.config.max_tokens
        if self.config.temperature is not None:
            kwargs["temperature"] = self.config.temperature
        if self.config.logprobs and self._needs_logprobs and target == LOCAL:
            kwargs["logprobs"] = True
        if isinstance(backend, HttpBackend):
            if backend.extra_body:
                kwargs["extra_body"] = dict(backend.extra_body)
            if backend.headers:
                kwargs["default_headers"] = dict(backend.headers)
        retry = backend.retry
        return chat_openai(
            model=backend.model,
            base_url=base_url,
            # never fall back to OPENAI_API_KEY: a local server gets a placeholder
            api_key=SecretStr(
                (backend.api_key if isinstance(backend, HttpBackend) else None) or "not-needed"
            ),
            streaming=True,
            stream_usage=True,
            max_retries=retry.max_retries,
            timeout=retry.request_timeout_s,
            callbacks=[timer],
            **kwargs,
        )

    def _routed(self, task: Task, timer: StreamTimer) -> Any:
        from router.langchain import RoutedChatModel

        local = self._chat_model(self.targets[LOCAL], timer, LOCAL)
        frontier_backend = self.targets.get(FRONTIER)
        frontier = (
            self._chat_model(frontier_backend, timer, FRONTIER)
            if frontier_backend is not None
            else _NoFrontier()
        )
        tools = [self.suite.tools[n].openai_schema() for n in task.tools]
        model = RoutedChatModel(
            local=local, frontier=frontier, policy=self.router_spec, step_kind=task.step_kind
        )
        return model.bind_tools(tools) if tools else model

    # the loop -----------------------------------------------------------------------------------

    async def _run(self, task: Task, policy: Policy, trace: EpisodeTrace) -> None:
        env = SimulatedEnvironment(task, self.suite.tools, self.suite.grammar)
        timer = StreamTimer()
        model = self._routed(task, timer)
        messages: list[BaseMessage] = [
            SystemMessage(self.suite.system_prompt_for(task)),
            HumanMessage(task.prompt),
        ]
        budget = self.config.max_steps or task.max_steps
        t0 = time.perf_counter_ns()
        try:
            while sum(1 for s in trace.steps if not s.discarded) < budget:
                step, message = await self._step(model, messages, timer, trace, t0, policy.name)
                if step.truncated:
                    trace.status = "truncated"
                    break
                if not step.tool_calls:
                    trace.final_answer = step.content
                    trace.status = "answered"
                    break
                messages.append(message)
                await self._run_tools(env, step, messages)
            else:
                trace.status = "budget_exhausted"
        except BackendError as exc:
            trace.status = f"backend_error:{exc.kind}"
            trace.error = str(exc)
        finally:
            trace.state = env.state
            trace.time_to_done_s = (time.perf_counter_ns() - t0) / 1e9

    async def _step(
        self,
        model: Any,
        messages: list[BaseMessage],
        timer: StreamTimer,
        trace: EpisodeTrace,
        t0: int,
        policy_name: str,
    ) -> tuple[StepRecord, AIMessage]:
        first = len(timer.calls)
        started = time.perf_counter_ns()
        try:
            message = await model.ainvoke(list(messages))
        except BackendError:
            raise
        except Exception as exc:
            raise _backend_error(exc) from exc
        wall_ns = time.perf_counter_ns() - started
        calls = timer.calls[first:]
        inner_ns = sum((c.acc.t_end_ns or c.acc.t_send_ns) - c.acc.t_send_ns for c in calls)
        overhead_s = max(0.0, (wall_ns - inner_ns) / 1e9)
        trace.router_time_s += overhead_s
        record = (message.response_metadata or {}).get("router") or {}
        routed = record.get("calls") or []
        targets = [c.get("target") or LOCAL for c in routed] or [LOCAL]
        # The router's call list and the timer's calls are in the same order; a discarded
        # (escalated) answer is every call but the last.
        while len(targets) < len(calls):
            targets.insert(0, LOCAL)
        steps: list[StepRecord] = []
        for i, timing in enumerate(calls):
            last = i == len(calls) - 1
            msg = message if last else timing.message
            step = await self._record(timing, msg, targets[i - len(calls)], t0, len(trace.steps))
            kept_reason = record.get("reason") or ""
            step.router = RouterDecisionRecord(
                target=step.target,
                policy=record.get("policy") or policy_name,
                reason=kept_reason if last else "answer discarded by the policy's review",
                decision_s=overhead_s if last else 0.0,
            )
            step.discarded = not last
            trace.steps.append(step)
            steps.append(step)
        if not steps:  # no stream seen (should not happen with streaming=True)
            acc = StreamAccumulator(t_send_ns=started)
            acc.finish(started + wall_ns)
            step = await self._record(
                _CallTiming(acc), message, targets[-1], t0, len(trace.steps)
            )
            trace.steps.append(step)
            steps.append(step)
        return steps[-1], message

    async def _record(
        self, timing: _CallTiming, message: Any, target: str, t0: int, index: int
    ) -> StepRecord:
        backend = self.targets.get(target) or self.targets[LOCAL]
        meta = getattr(message, "response_metadata", None) or {}
        usage = getattr(message, "usage_metadata", None) or {}
        acc = timing.acc
        content = acc.content if acc.token_events else _answer_text(message)
        reasoning = acc.reasoning or _reasoning_text(message)
        tool_calls = self._tool_calls(timing, message)
        produced = reasoning + content + "".join(c.name + c.arguments for c in tool_calls)
        output_tokens: int | None
        method: TokensMethod
        if usage.get("output_tokens") is not None:
            output_tokens, method = int(usage["output_tokens"]), "usage"
        elif produced:
            output_tokens, method = estimate_tokens(produced), "estimated"
        else:
            output_tokens, method = 0, "none"
        reasoning_tokens: int | None
        reasoning_method: TokensMethod
        details = usage.get("output_token_details") or {}
        if details.get("reasoning") is not None and (details["reasoning"] or not reasoning):
            reasoning_tokens, reasoning_method = int(details["reasoning"]), "usage"
        elif reasoning:
            reasoning_tokens, reasoning_method = estimate_tokens(reasoning), "estimated"
        else:
            reasoning_tokens, reasoning_method = 0, "none"
        prompt_tokens = usage.get("input_tokens")
        cached = (usage.get("input_token_details") or {}).get("cache_read")
        finish = meta.get("finish_reason")
        step = StepRecord(
            model=meta.get("model_name") or meta.get("model") or backend.model,
            requested_model=backend.model,
            prompt_tokens=prompt_tokens,
            cached_prompt_tokens=cached,
            prompt_tokens_method="usage" if prompt_tokens is not None else "none",
            output_tokens=output_tokens,
            reasoning_tokens=reasoning_tokens,
            tokens_method=method,
            reasoning_method=reasoning_method,
            **acc.timing(output_tokens, prompt_tokens, cached),
            finish_reason=finish,
            truncated=finish == "length",
            truncation_reason="finish_reason=length" if finish == "length" else None,
            content=content,
            reasoning=reasoning,
            tool_calls=tool_calls,
            index=index,
            target=target,
            t_start_s=(acc.t_send_ns - t0) / 1e9,
        )
        if timing.logprobs:
            step.mean_logprob = sum(timing.logprobs) / len(timing.logprobs)
            step.min_logprob = min(timing.logprobs)
        step.server_counters["agent"] = "langchain"
        return step

    @staticmethod
    def _tool_calls(timing: _CallTiming, message: Any) -> list[ToolCallRecord]:
        """The calls as streamed (raw argument text), else as LangChain parsed them."""
        out = timing.acc.tool_calls()
        if out:
            return out
        for call in getattr(message, "tool_calls", None) or []:
            text = json.dumps(call.get("args") or {})
            out.append(
                ToolCallRecord(id=call.get("id"), name=call["name"], arguments=text,
                               parsed=call.get("args"))
            )
        for call in getattr(message, "invalid_tool_calls", None) or []:
            out.append(
                ToolCallRecord(id=call.get("id"), name=call.get("name") or "",
                               arguments=call.get("args") or "", parsed=None)
            )
        return out

    async def _run_tools(
        self, env: SimulatedEnvironment, step: StepRecord, messages: list[BaseMessage]
    ) -> None:
        started = time.perf_counter()
        for i, call in enumerate(step.tool_calls):
            result = env.execute(call.name, call.arguments)
            if result.latency_s and self.config.simulate_latency:
                await asyncio.sleep(result.latency_s)
            if result.kind in ("unknown_tool", "invalid_arguments") and not step.invalid_tool_call:
                step.invalid_tool_call = result.output
            step.tool_results.append(
                ToolResultRecord(
                    name=call.name,
                    output=result.content(),
                    ok=result.ok,
                    kind=result.kind,
                    latency_s=result.latency_s,
                )
            )
            messages.append(
                ToolMessage(
                    content=result.content(),
                    tool_call_id=call.id or f"call_{step.index}_{i}",
                    status="success" if result.ok else "error",
                )
            )
        step.tool_time_s = time.perf_counter() - started
