"""The serving record for each server kind, from what each server says about itself."""

from __future__ import annotations

import httpx

from agentbench.backends.introspect import describe_openai_server


def client_for(routes: dict[str, object]) -> httpx.AsyncClient:
    def handler(request: httpx.Request) -> httpx.Response:
        body = routes.get(request.url.path)
        if body is None:
            return httpx.Response(404, json={"detail": "Not Found"})
        if isinstance(body, str):
            return httpx.Response(200, text=body)
        return httpx.Response(200, json=body)

    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


async def test_llama_cpp_server_props() -> None:
    client = client_for({
        "/v1/models": {"object": "list", "data": [{"id": "qwen", "object": "model",
                                                    "owned_by": "llamacpp",
                                                    "meta": {"n_ctx_train": 40960}}]},
        "/props": {"default_generation_settings": {"n_ctx": 8192}, "build_info": "b6100-1a2b3c"},
    })
    info = await describe_openai_server(client, "http://u:secret@127.0.0.1:8080/v1",
                                        "qwen", {})
    assert info.kind == "llama.cpp" and info.version == "b6100-1a2b3c"
    assert info.max_context == 8192 and info.extra["n_ctx_train"] == 40960
    assert info.base_url == "http://127.0.0.1:8080/v1"  # credentials stripped


async def test_llama_cpp_python_has_no_stream_usage() -> None:
    client = client_for({
        "/v1/models": {"object": "list", "data": [{"id": "smollm2-135m", "owned_by": "me",
                                                    "permissions": []}]},
        "/openapi.json": {"info": {"title": "llama.cpp Python API", "version": "0.3.36"}},
    })
    info = await describe_openai_server(client, "http://127.0.0.1:9/v1", "smollm2-135m", {})
    assert info.kind == "llama-cpp-python" and info.version == "0.3.36"
    assert info.extra["stream_usage"] is False and info.max_context is None


async def test_model_not_served_lists_what_is() -> None:
    client = client_for({"/v1/models": {"data": [{"id": "other", "owned_by": "vllm"}]}})
    info = await describe_openai_server(client, "http://127.0.0.1:9/v1", "nemotron", {})
    assert info.extra["served_models"] == ["other"]
