"""A malformed tool call is answered with an error and the episode goes on (both tool modes);
tool-call turns are sent with content "" (never null); text-parsed calls are recorded as such."""

from typing import Any

from agentbench.agent.loop import Agent, AgentConfig
from agentbench.backends.base import Backend, ChatRequest
from agentbench.records import Completion, ServerInfo
from agentbench.tasks.loader import TaskSuite
from router import LOCAL, build_policy

TASK = "ops-crashloop-oomkilled"


class Replies(Backend):
    """Plays fixed answer texts in order and keeps every request it was sent."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__("replies://local", "replies")
        self.texts = texts
        self.requests: list[ChatRequest] = []

    async def _complete_once(self, request: ChatRequest) -> Completion:
        self.requests.append(request)
        text = self.texts[min(len(self.requests) - 1, len(self.texts) - 1)]
        return Completion(
            model="replies", requested_model="replies", content=text, finish_reason="stop"
        )

    async def server_info(self) -> ServerInfo:
        return ServerInfo(kind="replies", base_url=self.base_url, model=self.model)


async def episode(suite: TaskSuite, texts: list[str], **config: Any) -> tuple[Any, Replies]:
    backend = Replies(texts)
    agent = Agent(
        suite.select([TASK], None), {LOCAL: backend}, AgentConfig(simulate_latency=False, **config)
    )
    trace = await agent.run(suite.select([TASK], None).tasks[0], build_policy("always-local")())
    return trace, backend


async def test_prompt_mode_malformed_call_is_fed_back_and_the_episode_goes_on(suite) -> None:
    broken = '{"tool": "run_command", "parameters": {"cmd": "kubectl get pods -n web"'
    trace, backend = await episode(
        suite, [broken, '{"final_answer": "OOMKilled"}'], tool_mode="prompt"
    )
    assert trace.status == "answered" and trace.final_answer == "OOMKilled"
    assert trace.steps[0].invalid_tool_call and not trace.steps[0].tool_calls
    sent = backend.requests[1].messages
    assert sent[-2] == {"role": "assistant", "content": broken}
    assert sent[-1]["role"] == "user" and sent[-1]["content"].startswith("Error: your tool call")


async def test_native_malformed_call_uses_a_step_and_the_budget_still_ends_it(suite) -> None:
    broken = '```json\n{"name": "run_command", "arguments": {"cmd": "kubectl get\n```'
    trace, backend = await episode(suite, [broken], max_steps=3)
    assert trace.status == "budget_exhausted" and len(trace.steps) == 3
    assert all(s.invalid_tool_call for s in trace.steps)
    assert len(backend.requests) == 3


async def test_text_call_is_run_recorded_text_parsed_and_sent_back_with_empty_content(
    suite,
) -> None:
    fenced = (
        '```json\n{"name": "run_command", "arguments": {"cmd": "kubectl get pods -n web"}}\n```'
    )
    trace, backend = await episode(suite, [fenced, "The container was OOMKilled."])
    first = trace.steps[0]
    assert first.tool_call_method == "text_parsed" and first.tool_results[0].ok
    assert trace.final_answer == "The container was OOMKilled."
    assistant = [m for m in backend.requests[1].messages if m["role"] == "assistant"]
    assert assistant[0]["content"] == "" and assistant[0]["tool_calls"]
    assert backend.requests[1].messages[-1]["role"] == "tool"


async def test_the_flag_turns_text_parsing_off(suite) -> None:
    fenced = (
        '```json\n{"name": "run_command", "arguments": {"cmd": "kubectl get pods -n web"}}\n```'
    )
    trace, _ = await episode(suite, [fenced], text_tool_calls=False)
    assert trace.status == "answered" and not trace.steps[0].tool_calls
    assert trace.steps[0].tool_call_method is None
