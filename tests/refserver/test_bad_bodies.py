"""The reference server answers a malformed body as a real server does: a 400 with a JSON
error naming the field, never a 500 or a traceback."""

from __future__ import annotations

import httpx
import pytest

CHAT = "/v1/chat/completions"


@pytest.mark.parametrize(
    ("path", "body", "needle"),
    [
        (CHAT, {"model": "oracle", "messages": "x"}, "messages"),
        (CHAT, {"model": "oracle", "messages": ["x"]}, "messages[0]"),
        (CHAT, {"model": "oracle", "messages": [{"role": 1}]}, "messages[0]"),
        (CHAT, {"model": "oracle", "messages": [{"role": "user", "content": 5}]}, "content"),
        (
            CHAT,
            {
                "model": "oracle",
                "messages": [{"role": "assistant", "tool_calls": [{"function": 3}]}],
            },
            "tool_calls[0]",
        ),
        (CHAT, {"model": "oracle", "messages": [], "tools": "x"}, "tools"),
        (CHAT, {"model": "oracle", "messages": [], "max_tokens": "9"}, "max_tokens"),
        (CHAT, {"model": "oracle", "messages": [], "stream": "yes"}, "stream"),
        ("/tokenize", {"messages": "x"}, "messages"),
        ("/tokenize", {"prompt": 7}, "prompt"),
        ("/api/chat", {"model": "oracle", "messages": "x"}, "messages"),
    ],
)
def test_a_malformed_field_is_a_400_naming_it(refserver, path, body, needle) -> None:  # type: ignore[no-untyped-def]
    r = httpx.post(f"http://127.0.0.1:{refserver.port}{path}", json=body, timeout=10)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    message = error["message"] if isinstance(error, dict) else error
    assert needle in message and "Traceback" not in r.text


@pytest.mark.parametrize("path", [CHAT, "/tokenize", "/api/chat"])
@pytest.mark.parametrize("raw", [b"not json", b"\xff\xfe", b"[" * 100_000, b"[1, 2]"])
def test_a_body_that_is_not_a_json_object_is_a_400(refserver, path, raw) -> None:  # type: ignore[no-untyped-def]
    r = httpx.post(
        f"http://127.0.0.1:{refserver.port}{path}",
        content=raw,
        headers={"content-type": "application/json"},
        timeout=10,
    )
    assert r.status_code == 400 and "error" in r.json()
