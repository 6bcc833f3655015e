"""A kept-alive connection the server closed before answering (seen on llama-server after an
episode's request was cancelled) is retried, not an unhandled crash of the run."""

import json

import httpx

from agentbench.backends.base import ChatRequest, RetryPolicy
from agentbench.backends.openai_compat import OpenAICompatBackend

ANSWER = (
    "".join(
        f"data: {json.dumps(c)}\n\n"
        for c in (
            {"model": "m", "choices": [{"index": 0, "delta": {"content": "ok"}}]},
            {"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        )
    )
    + "data: [DONE]\n\n"
)


async def test_a_connection_closed_before_any_answer_is_retried() -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.")
        return httpx.Response(
            200, content=ANSWER.encode(), headers={"content-type": "text/event-stream"}
        )

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    backend = OpenAICompatBackend(
        "http://server/v1", "m", client=client, retry=RetryPolicy(max_retries=2, backoff_s=0.0)
    )
    completion = await backend.complete(ChatRequest(messages=[{"role": "user", "content": "hi"}]))
    await client.aclose()
    assert completion.content == "ok" and completion.retries == 1
    assert completion.retry_errors[0].startswith("connection_closed:")
