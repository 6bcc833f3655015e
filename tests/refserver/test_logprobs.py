"""Token logprobs from the reference server: deterministic, and unsure on planted mistakes."""

import json

import httpx

from agentbench.refserver.answers import step_logprob
from agentbench.tasks.scripted import noisy_step, step_at

TASK = "ops-crashloop-oomkilled"


def request(server, suite, model: str, *, stream: bool, logprobs: bool = True) -> dict:
    task = next(t for t in suite.tasks if t.id == TASK)
    body = {"model": model, "stream": stream, "logprobs": logprobs,
            "stream_options": {"include_usage": True},
            "messages": [{"role": "user", "content": task.prompt}],
            "tools": [suite.tools[n].openai_schema() for n in task.tools]}
    with httpx.Client() as client:
        response = client.post(server.base_url + "/chat/completions", json=body)
    response.raise_for_status()
    if not stream:
        return response.json()
    chunks = [line[6:] for line in response.text.splitlines() if line.startswith("data: {")]
    parsed = [json.loads(c) for c in chunks]
    entries = [e for c in parsed for ch in c["choices"]
               for e in (ch.get("logprobs") or {}).get("content") or []]
    return {"entries": entries, "usage": parsed[-1]["usage"], "chunks": parsed}


def test_streamed_and_whole_answers_carry_one_logprob_per_token(refserver, suite):
    streamed = request(refserver, suite, "oracle", stream=True)
    assert len(streamed["entries"]) == streamed["usage"]["completion_tokens"] > 0
    assert {e["logprob"] for e in streamed["entries"]} == {-0.1}
    assert all(e["bytes"] is None and e["top_logprobs"] == [] for e in streamed["entries"])
    whole = request(refserver, suite, "wrong", stream=False)
    entries = whole["choices"][0]["logprobs"]["content"]
    assert len(entries) == whole["usage"]["completion_tokens"]
    assert {e["logprob"] for e in entries} == {-1.5}
    plain = request(refserver, suite, "oracle", stream=True, logprobs=False)
    assert plain["entries"] == [] and not any("logprobs" in ch for c in plain["chunks"]
                                              for ch in c["choices"])


def test_noisy_mistakes_are_less_confident_than_reference_steps(suite):
    mistakes, reference = [], []
    for task in suite.tasks:
        for index in range(4):
            value = step_logprob(task, "noisy", 0.5, 0, index)
            assert value == step_logprob(task, "noisy", 0.5, 0, index)
            replaced = noisy_step(task, index, 0.5, 0) is not step_at(task.reference, index)
            (mistakes if replaced else reference).append(value)
    assert mistakes and reference
    assert all(-2.2 <= v <= -0.6 for v in mistakes) and all(-0.9 <= v <= -0.05 for v in reference)
    assert sum(mistakes) / len(mistakes) < -1.2 < -0.6 < sum(reference) / len(reference)
    # imperfect separation: some values fall in the overlap
    assert any(v < -0.6 for v in reference) or any(v > -0.9 for v in mistakes)
