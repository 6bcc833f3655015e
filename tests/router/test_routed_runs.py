"""Policies through the real agent loop and runner: what is recorded, discarded and paid."""

from __future__ import annotations

import pytest

from agentbench.cost import Pricing
from agentbench.cost.prices import ModelPrice, PriceTable
from agentbench.metrics.routing import escalation_stats
from agentbench.metrics.summary import summarize
from agentbench.runner import RunConfig, Runner
from agentbench.store import ResultStore
from router import FRONTIER, LOCAL, build_policy

from .conftest import FakeModel

FRONTIER_PRICE = ModelPrice("big", input=10.0, cached_input=1.0, output=50.0, as_of="test")


def pricing(local_rate: float | None = 3.6) -> Pricing:
    return Pricing(PriceTable(models={"big": FRONTIER_PRICE}), local_rate)


async def run_all(suite, tmp_path, spec: str, local: FakeModel, frontier: FakeModel,
                  price: Pricing | None = None, **config):
    factory = build_policy(spec)
    cfg = RunConfig(target="fake", model=local.model, base_url=local.base_url, router=spec,
                    frontier_model=frontier.model, logprobs=factory().needs_logprobs, **config)
    with ResultStore(tmp_path / "r.db") as store:
        runner = Runner(suite, {LOCAL: local, FRONTIER: frontier}, factory, cfg, store,
                        price or pricing())
        return [await runner.run_episode("run", t, 0) for t in suite.tasks]


async def test_escalate_on_invalid_records_and_pays_both_calls(router_suite, tmp_path):
    local = FakeModel(router_suite, "small", bad_steps=frozenset({1}))
    big = FakeModel(router_suite, "big")
    episodes = await run_all(router_suite, tmp_path, "escalate-on-invalid", local, big)
    for e in episodes:
        assert e.status == "ok", e.explanation
        discarded = [s for s in e.steps if s.discarded]
        assert len(discarded) == 1  # step 2 of every task: the bad local answer
        bad = discarded[0]
        assert bad.target == LOCAL and bad.tool_calls[0].name == "kubctl"
        after = e.steps[e.steps.index(bad) + 1]
        assert after.target == FRONTIER and not after.discarded
        assert after.router.reason == "invalid: unknown tool 'kubctl'"
        # every call is priced; the discarded one too
        assert bad.cost_usd == pytest.approx(1.8 * 3.6 / 3600)
        assert after.cost_usd == pytest.approx((800 * 10 + 200 * 1 + 100 * 50) / 1e6)
        assert e.cost_usd == pytest.approx(sum(s.cost_usd for s in e.steps))
    stats = escalation_stats(episodes)
    assert stats.frontier_calls == 3 and stats.review_escalations == 3
    assert stats.rescued == 3 and stats.unchanged == 0
    assert stats.triggers == {"invalid": 3}
    assert stats.by_position["2"]["frontier"] == 3 and stats.by_position["1"]["frontier"] == 0
    assert stats.rate_calls == pytest.approx(3 / stats.calls)
    assert stats.discarded_calls == 3
    summary = summarize(episodes)
    assert summary.cost_usd == pytest.approx(sum(e.cost_usd for e in episodes))
    assert summary.cost_usd_per_solved_task == pytest.approx(summary.cost_usd / 3)
    assert summary.unpriced_steps == 0 and summary.cost_note is None
    assert summary.escalation_share_dollars == pytest.approx(stats.share_dollars)
    assert summary.escalation_share_tokens == pytest.approx(stats.share_tokens)
    assert 0 < summary.escalation_share_tokens < 1


async def test_confidence_requests_logprobs_and_escalates_low_ones(router_suite, tmp_path):
    local = FakeModel(router_suite, "small", logprob=-0.1, low_logprob_steps=frozenset({0}))
    big = FakeModel(router_suite, "big")
    episodes = await run_all(router_suite, tmp_path, "confidence:threshold=-0.5", local, big)
    assert all(r.logprobs for r in local.requests)
    for e in episodes:
        assert e.steps[0].discarded and e.steps[0].target == LOCAL
        assert e.steps[1].target == FRONTIER
        assert e.steps[1].router.reason.startswith("low-confidence: mean logprob -3.000")
        assert all(s.target == LOCAL for s in e.steps[2:])
    stats = escalation_stats(episodes)
    assert stats.triggers == {"low-confidence": 3}
    assert stats.unchanged == 3  # same reference answer: the escalation bought nothing


async def test_plan_execute_and_cascade_and_unpriced_local(router_suite, tmp_path):
    local = FakeModel(router_suite, "small")
    big = FakeModel(router_suite, "big")
    episodes = await run_all(router_suite, tmp_path, "plan-execute", local, big,
                             pricing(local_rate=None))
    for e in episodes:
        targets = [s.target for s in e.steps]
        if e.step_kind == "plan":
            assert set(targets) == {FRONTIER}
        else:
            assert targets[0] == FRONTIER and set(targets[1:]) == {LOCAL}
        if LOCAL in targets:  # local calls unpriced: the episode is unpriced, not cheaper
            assert e.cost_usd is None
        else:
            assert e.cost_usd == pytest.approx(len(targets) * 0.0132)
        assert all(s.cost_usd is not None for s in e.steps if s.target == FRONTIER)
    summary = summarize(episodes)
    assert summary.cost_usd is None and summary.cost_usd_per_solved_task is None
    assert summary.cost_note.startswith("cost unpriced: ")
    assert "local call(s) unpriced (declare --local-usd-per-hour)" in summary.cost_note
    assert summary.unpriced_steps == sum(1 for e in episodes for s in e.steps
                                         if s.target == LOCAL)
    stats = escalation_stats(episodes)
    assert stats.share_dollars is None and stats.frontier_cost_usd is not None


async def test_cascade_latches_after_failing_tool_results(router_suite, tmp_path):
    local = FakeModel(router_suite, "small", bad_steps=frozenset({0, 1}))  # unknown tool twice
    big = FakeModel(router_suite, "big")
    episodes = await run_all(router_suite, tmp_path, "cascade-after-failure:failures=2",
                             local, big, max_steps=12)
    for e in episodes:
        targets = [s.target for s in e.steps]
        assert targets[:2] == [LOCAL, LOCAL] and set(targets[2:]) == {FRONTIER}, targets
        assert e.steps[2].router.reason.startswith("tool-failures: 2")
        assert all(s.router.reason.startswith("latched") for s in e.steps[3:])


async def test_always_frontier_with_unknown_model_is_unpriced(router_suite, tmp_path):
    local = FakeModel(router_suite, "small")
    other = FakeModel(router_suite, "mystery-model")
    episodes = await run_all(router_suite, tmp_path, "always-frontier", local, other)
    assert all(s.cost_usd is None for e in episodes for s in e.steps)
    assert all(e.cost_usd is None for e in episodes)


async def test_external_attribution_by_served_model(router_suite, tmp_path):
    """Behind one endpoint: the served model (as the router header reports it) decides."""

    class Alternating(FakeModel):
        async def _complete_once(self, request):
            completion = await super()._complete_once(request)
            served = "big" if len(self.requests) % 2 else "small"
            completion.model = served
            completion.server_counters["selected_model"] = served
            return completion

    endpoint = Alternating(router_suite, "auto")
    factory = build_policy("external:frontier_models=big")
    cfg = RunConfig(target="fake", model="auto", base_url=endpoint.base_url,
                    router="external:frontier_models=big")
    with ResultStore(tmp_path / "r.db") as store:
        runner = Runner(router_suite, {LOCAL: endpoint}, factory, cfg, store, pricing())
        episodes = [await runner.run_episode("run", t, 0) for t in router_suite.tasks]
    steps = [s for e in episodes for s in e.steps]
    assert len(steps) == len(endpoint.requests)
    for s in steps:
        assert s.target == (FRONTIER if s.model == "big" else LOCAL)
        assert s.router.target == s.target
        assert s.router.reason == f"external: served by {s.model}"
        assert s.requested_model == "auto"
    stats = escalation_stats(episodes)
    assert stats.frontier_calls == sum(1 for s in steps if s.model == "big") > 0
    assert stats.triggers == {"external": stats.frontier_calls}
