"""Price table loading, overriding, lookup; per-step pricing rules."""

from __future__ import annotations

import pytest

from agentbench.cost import Pricing, episode_cost, load_prices, price_episode, price_step
from agentbench.errors import ConfigError
from agentbench.records import EpisodeResult, StepRecord


def step(**kw) -> StepRecord:
    base = {"model": "gpt-5", "requested_model": "gpt-5", "index": 0, "t_start_s": 0.0,
            "target": "frontier", "prompt_tokens": 2000, "cached_prompt_tokens": 1000,
            "output_tokens": 500, "reasoning_tokens": 300, "duration_s": 4.0}
    return StepRecord(**{**base, **kw})


def test_shipped_table_is_dated_and_complete():
    table = load_prices()
    assert table.written == "2026-11-29"
    assert len(table.models) >= 5
    for price in table.models.values():
        assert price.as_of and price.input > 0 and price.output >= price.input
        assert price.cached_input is None or price.cached_input <= price.input
    assert table.lookup("openai/gpt-5") is table.models["gpt-5"]
    assert table.lookup("claude-opus-4-1-20250805") is table.models["claude-opus-4-1"]
    assert table.lookup("no-such-model") is None and table.lookup(None) is None


def test_user_file_overrides_and_adds(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text("models:\n  gpt-5: {input: 1.0, output: 2.0, as_of: 2030-01-01}\n"
                 "  my-frontier: {input: 3, cached_input: 0.3, output: 15}\n")
    table = load_prices(f)
    assert table.models["gpt-5"].input == 1.0 and table.models["gpt-5"].as_of == "2030-01-01"
    assert table.models["gpt-5"].cached_input is None  # replaced whole, not merged key by key
    assert table.lookup("my-frontier").cached_input == 0.3
    assert "claude-haiku-4-5" in table.models  # the shipped entries stay
    assert table.sources[-1] == str(f)


@pytest.mark.parametrize("text, needle", [
    ("models: [1, 2]", "'models:' mapping"),
    ("models:\n  m: {output: 1}", "'input' is missing"),
    ("models:\n  m: {input: -1, output: 1}", "non-negative"),
    ("models:\n  m: {input: 1, output: 1, price: 3}", "unknown key"),
    ("models: {m: {input: 1, output: 1", "not valid YAML"),
])
def test_bad_price_files_are_one_line_errors(tmp_path, text, needle):
    f = tmp_path / "p.yaml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=needle):
        load_prices(f)
    with pytest.raises(ConfigError, match="cannot read"):
        load_prices(tmp_path / "missing.yaml")


def test_frontier_step_billing_rules():
    pricing = Pricing.build()
    priced = price_step(step(), pricing)
    # 1000 uncached x 1.25 + 1000 cached x 0.125 + 500 output (reasoning included) x 10
    assert priced.cost_usd == pytest.approx((1000 * 1.25 + 1000 * 0.125 + 500 * 10) / 1e6)
    assert "gpt-5 as of 2025-08-07" in priced.basis
    no_cache = price_step(step(cached_prompt_tokens=None), pricing)
    assert no_cache.cost_usd == pytest.approx((2000 * 1.25 + 500 * 10) / 1e6)
    # the served model (e.g. a router header) is priced before the requested one
    assert price_step(step(model="gpt-5-mini", requested_model="gpt-5"), pricing).cost_usd \
        == pytest.approx((1000 * 0.25 + 1000 * 0.025 + 500 * 2) / 1e6)
    unknown = price_step(step(model="x", requested_model="y"), pricing)
    assert unknown.cost_usd is None and "no price for model 'x'" in unknown.basis
    no_usage = price_step(step(prompt_tokens=None), pricing)
    assert no_usage.cost_usd is None and "no token usage" in no_usage.basis


def test_local_step_is_priced_only_at_a_declared_rate():
    unpriced = price_step(step(target="local", model="nemotron"), Pricing.build())
    assert unpriced.cost_usd is None and "--local-usd-per-hour" in unpriced.basis
    priced = price_step(step(target="local", model="nemotron"), Pricing.build(None, 1.8))
    assert priced.cost_usd == pytest.approx(4.0 * 1.8 / 3600)
    assert price_step(step(target="local", duration_s=None), Pricing.build(None, 1.8)).cost_usd \
        is None
    zero = price_step(step(target="local"), Pricing.build(None, 0.0))  # declared free: $0
    assert zero.cost_usd == 0.0
    with pytest.raises(ConfigError, match="local-usd-per-hour"):
        Pricing.build(None, -1.0)


def test_episode_totals_and_repricing():
    steps = [step(), step(target="local", discarded=True)]
    assert episode_cost(steps) is None  # before pricing: unpriced
    assert episode_cost([]) == 0.0  # no call made costs nothing
    episode = EpisodeResult(run_id="r", task_id="t", category="c", difficulty="easy",
                            step_kind="execute", repeat=0, status="ok", score=1.0, steps=steps)
    repriced = price_episode(episode, Pricing.build(None, 3.6))
    assert episode.cost_usd is None and episode.steps[0].cost_usd is None  # input untouched
    assert repriced.cost_usd == pytest.approx(repriced.steps[0].cost_usd + 4.0 / 1000)
    assert price_episode(episode, Pricing.build()).cost_usd is None
