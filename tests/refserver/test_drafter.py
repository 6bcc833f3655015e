"""The reference server claims a drafter only when told to (`refserver --draft-depth K`)."""

from __future__ import annotations

import httpx

from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.refserver.schedule import Schedule, SpecCounters

from ..e2e.cli import agentbench, one_error_line


async def test_no_drafter_unless_told(refserver_factory) -> None:
    plain = refserver_factory(Schedule(ttft_s=0.0, rate_tok_s=1e5, chunks=(1, 3, 2)))
    drafted = refserver_factory(Schedule(ttft_s=0.0, rate_tok_s=1e5), spec=SpecCounters())
    for server, seen in ((plain, False), (drafted, True)):
        root = server.base_url.removesuffix("/v1")
        metrics = httpx.get(f"{root}/metrics", timeout=5).text
        assert ("vllm:spec_decode_num_drafts_total" in metrics) is seen
        backend = OpenAICompatBackend(server.base_url, "oracle")
        try:
            assert (await backend.server_info()).spec_decode_seen is seen
        finally:
            await backend.aclose()


def test_acceptance_sets_a_chunk_pattern_with_that_share() -> None:
    for depth, share in ((3, 0.5), (4, 0.8), (2, 0.0)):
        spec = SpecCounters(depth=depth, accepted_per_pos=[0] * depth)
        for chunk in SpecCounters.chunks_for(depth, share):
            spec.record(chunk)
        assert abs(spec.accepted / spec.draft_tokens - share) < 0.01


def test_acceptance_without_a_drafter_is_refused(tmp_path) -> None:
    result = agentbench("refserver", "--tasks", str(tmp_path), "--acceptance", "0.5")
    assert result.returncode == 1
    assert "--acceptance needs --draft-depth" in one_error_line(result)
