"""runner.RunConfig.agent_config: the one derivation of the agent loop's settings from a run."""

from __future__ import annotations

import dataclasses

from agentbench.agent.loop import AgentConfig
from agentbench.runner import RunConfig


def _config(**kw: object) -> RunConfig:
    return RunConfig(target="t", model="m", base_url="http://127.0.0.1:1/v1", **kw)  # type: ignore[arg-type]


def test_every_shared_setting_is_carried() -> None:
    run = _config(
        tool_mode="prompt", max_tokens=77, temperature=0.3, max_steps=4, episode_timeout_s=9.5,
        logprobs=True, text_tool_calls=False,
    )
    agent = run.agent_config()
    shared = {f.name for f in dataclasses.fields(AgentConfig)} & set(RunConfig.model_fields)
    assert shared >= {"max_tokens", "temperature", "max_steps", "episode_timeout_s", "logprobs",
                      "text_tool_calls", "tool_mode"}
    for name in shared:
        assert getattr(agent, name) == getattr(run, name), name


def test_a_fork_keeps_text_tool_calls_and_overrides_only_logprobs() -> None:
    run = _config(text_tool_calls=False, logprobs=False)
    fork = run.agent_config(logprobs=True)
    assert fork.logprobs is True and fork.text_tool_calls is False
    assert dataclasses.replace(fork, logprobs=False) == run.agent_config()


def test_unknown_tool_modes_fall_back_to_native() -> None:
    assert _config(tool_mode="native").agent_config().tool_mode == "native"
    assert _config(tool_mode="prompt").agent_config().tool_mode == "prompt"
