"""The agent loop run through LangChain: the router's `RoutedChatModel` over `ChatOpenAI` models.

`agentbench run … --agent langchain` measures the stack users deploy: a LangChain chat model per
target (`langchain_openai.ChatOpenAI` at the same base URL and model as the run's backends),
wrapped in `router.langchain.RoutedChatModel` with the run's router policy, the task's tools
bound. Tool calls still run in the simulated environment (never on the host), and the episode
trace has the same shape as the native loop's, so scoring and reports are unchanged.

Timing: agent.langchain_stream times every inner call from its stream
(docs/design.md#timing-and-tokens). The episode runs agent.episode's loop, as the native agent's.

The router's time (`router_time_s`) here is the routed call's wall time less its inner calls:
the policy and LangChain's own overhead together. Only OpenAI-compatible targets are supported
(Ollama through its `/v1` endpoint); prompt tool mode is not (tools are bound natively).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any

from agentbench.agent.episode import AgentConfig, EpisodeLoop, EpisodeState, call_id
from agentbench.agent.langchain_stream import CallTiming, StreamTimer, step_record
from agentbench.agent.toolcall_text import malformed_call_messages
from agentbench.backends.base import Backend, strip_credentials
from agentbench.backends.http import HttpBackend, http_error
from agentbench.backends.stream import StreamAccumulator
from agentbench.errors import BackendError, ConfigError
from agentbench.records import (
    EpisodeTrace,
    RequestRecord,
    RouterDecisionRecord,
    StepRecord,
    ToolCallRecord,
    ToolResultRecord,
)
from agentbench.tasks.loader import TaskSuite
from agentbench.tasks.model import Task
from router import FRONTIER, LOCAL, Policy

try:  # optional: the `langchain` extra
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import (
        BaseMessage,
        HumanMessage,
        SystemMessage,
        ToolMessage,
        convert_to_openai_messages,
    )
    from langchain_core.outputs import ChatResult
except ImportError:  # pragma: no cover - checked when the agent is built
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


@dataclass
class LangChainEpisode(EpisodeState):
    """An episode through LangChain: its messages, routed model and stream timer."""

    messages: list[Any] = field(default_factory=list)
    model: Any = None
    timer: StreamTimer = field(default_factory=StreamTimer)
    last_message: Any = None  # the kept AIMessage of the last step


class LangChainAgent(EpisodeLoop[LangChainEpisode]):
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
            if backend.protocol is None:
                raise ConfigError(
                    f"--agent langchain needs OpenAI-compatible targets; the {name} target is "
                    f"{backend.provider}"
                )

    # the chat models ---------------------------------------------------------------------------

    def _chat_model(self, backend: Backend, timer: StreamTimer, target: str) -> Any:
        from pydantic import SecretStr

        chat_openai = _chat_openai_class()

        # the OpenAI-compatible endpoint (Ollama's is beside its native API)
        protocol = backend.protocol
        base_url = protocol.openai_url(backend.base_url) if protocol else backend.base_url
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

    def _routed(self, task: Task, timer: StreamTimer, tools: list[dict[str, Any]]) -> Any:
        from router.langchain import RoutedChatModel

        local = self._chat_model(self.targets[LOCAL], timer, LOCAL)
        frontier_backend = self.targets.get(FRONTIER)
        frontier = (
            self._chat_model(frontier_backend, timer, FRONTIER)
            if frontier_backend is not None
            else _NoFrontier()
        )
        model = RoutedChatModel(
            local=local, frontier=frontier, policy=self.router_spec, step_kind=task.step_kind
        )
        return model.bind_tools(tools) if tools else model

    # the steps -------------------------------------------------------------------------------

    def start(self, task: Task, policy: Policy) -> LangChainEpisode:
        timer = StreamTimer()
        messages: list[BaseMessage] = [
            SystemMessage(self.suite.system_prompt_for(task)),
            HumanMessage(task.prompt),
        ]
        ctx = self.context(task, [])  # the tools offered; RoutedChatModel keeps its own context
        return LangChainEpisode(
            task, policy, self.environment(task), ctx,
            messages=messages, model=self._routed(task, timer, ctx.tools), timer=timer,
        )

    async def next_step(self, state: LangChainEpisode, trace: EpisodeTrace) -> StepRecord:
        """One routed call: every inner call it made becomes a step (all but the last
        discarded: the router escalated after its review)."""
        timer = state.timer
        first = len(timer.calls)
        started = time.perf_counter_ns()
        # what was sent, in the OpenAI format LangChain's chat model translates it to
        sent = RequestRecord(
            messages=convert_to_openai_messages(list(state.messages)),
            tools=state.ctx.tools or None,
            max_tokens=self.config.max_tokens,
            temperature=self.config.temperature,
            tool_mode="native",
        )
        try:
            message = await state.model.ainvoke(list(state.messages))
        except BackendError:
            raise
        except Exception as exc:
            raise _backend_error(exc) from exc
        state.last_message = message
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
        if not calls:  # no stream seen (should not happen with streaming=True)
            acc = StreamAccumulator(t_send_ns=started)
            acc.finish(started + wall_ns)
            calls = [CallTiming(acc)]
        for i, timing in enumerate(calls):
            last = i == len(calls) - 1
            target = targets[i - len(calls)]
            backend = self.targets.get(target) or self.targets[LOCAL]
            msg = message if last else timing.message
            step = await step_record(timing, msg, backend, target, state.t0_ns, len(trace.steps))
            step.router = RouterDecisionRecord(
                target=step.target,
                policy=record.get("policy") or state.policy.name,
                reason=(record.get("reason") or "") if last
                else "answer discarded by the policy's review",
                decision_s=overhead_s if last else 0.0,
            )
            step.discarded = not last
            step.request = sent
            trace.steps.append(step)
        return trace.steps[-1]

    def add_assistant(self, state: LangChainEpisode, step: StepRecord) -> None:
        state.messages.append(state.last_message)

    def add_malformed(self, state: LangChainEpisode, step: StepRecord) -> None:
        state.messages.append(state.last_message)
        reply = malformed_call_messages(step, native=True)[-1]["content"]
        state.messages.append(HumanMessage(content=reply))

    def add_tool_result(
        self, state: LangChainEpisode, step: StepRecord, index: int, call: ToolCallRecord,
        result: ToolResultRecord,
    ) -> None:
        state.messages.append(
            ToolMessage(
                content=result.output,
                tool_call_id=call_id(step, index, call),
                status="success" if result.ok else "error",
            )
        )
