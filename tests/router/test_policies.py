"""The built-in routing policies: decisions, reasons, latching, seeding, spec parsing."""

from __future__ import annotations

import pytest

from router import (
    FRONTIER,
    LOCAL,
    LocalAnswer,
    PolicySpecError,
    StepContext,
    available_policies,
    build_policy,
    parse_spec,
)


def ctx(step: int = 0, kind: str = "execute", failures: int = 0, prompt: str = "fix the pod",
        **extra) -> StepContext:
    return StepContext(step, kind, [{"role": "system", "content": "s"},
                                    {"role": "user", "content": prompt}], [],
                       tool_failures=failures, extra=extra)


def make(spec: str):
    return build_policy(spec)()


def test_builtins_are_registered():
    assert {"always-local", "always-frontier", "escalate-on-invalid", "confidence",
            "plan-execute", "cascade-after-failure", "random", "external"} <= set(
        available_policies())


def test_escalate_on_invalid_reviews_and_gives_the_problem():
    policy = make("escalate-on-invalid")
    assert policy.reviews and policy.needs_frontier
    assert policy.choose(ctx()).target == LOCAL
    assert policy.review(ctx(), LocalAnswer(True)) is None
    decision = policy.review(ctx(), LocalAnswer(False, "unknown tool 'kubctl'"))
    assert decision is not None and decision.target == FRONTIER
    assert decision.reason == "invalid: unknown tool 'kubctl'"


def test_confidence_threshold_and_missing_logprobs():
    policy = make("confidence:threshold=-0.5")
    assert policy.needs_logprobs and policy.reviews
    assert policy.name == "confidence:threshold=-0.5"
    assert policy.review(ctx(), LocalAnswer(True, mean_logprob=-0.2)) is None
    low = policy.review(ctx(), LocalAnswer(True, mean_logprob=-0.9))
    assert low is not None and low.target == FRONTIER
    assert low.reason.startswith("low-confidence: mean logprob -0.900 < -0.5")
    assert policy.review(ctx(), LocalAnswer(True)) is None  # no logprobs: kept by default
    strict = make("confidence:threshold=-1,missing=escalate")
    missing = strict.review(ctx(), LocalAnswer(True))
    assert missing is not None and missing.reason.startswith("no-logprobs")
    # an invalid but confident answer is not this policy's business
    assert policy.review(ctx(), LocalAnswer(False, "x", mean_logprob=-0.1)) is None


def test_plan_execute_sends_plans_and_first_steps_up():
    policy = make("plan-execute")
    assert policy.choose(ctx(0)).target == FRONTIER
    assert policy.choose(ctx(0)).reason.startswith("plan:")
    assert policy.choose(ctx(1)).target == LOCAL
    assert policy.choose(ctx(5, kind="plan")).target == FRONTIER
    two = make("plan-execute:first_steps=2")
    assert [two.choose(ctx(i)).target for i in range(3)] == [FRONTIER, FRONTIER, LOCAL]


def test_cascade_after_failure_latches():
    policy = make("cascade-after-failure:failures=2")
    seq = [(0, 0), (1, 1), (2, 2), (3, 2), (4, 0)]  # (step, failures); failures never decrease
    decisions = [policy.choose(ctx(step, failures=f)) for step, f in seq]
    assert [d.target for d in decisions] == [LOCAL, LOCAL, FRONTIER, FRONTIER, FRONTIER]
    assert decisions[2].reason.startswith("tool-failures: 2 failing tool results >= 2")
    assert decisions[3].reason == "latched: escalated at step 3"
    fresh = build_policy("cascade-after-failure:failures=2")()  # a new episode starts local
    assert fresh.choose(ctx(0)).target == LOCAL


def test_random_is_seeded_per_task_and_step_and_near_p():
    a = make("random:p=0.3,seed=7")
    b = make("random:p=0.3,seed=7")
    prompts = [f"task {i}" for i in range(200)]
    da = [a.choose(ctx(s, prompt=p)).target for p in prompts for s in range(5)]
    db = [b.choose(ctx(s, prompt=p)).target for p in prompts for s in range(5)]
    assert da == db
    share = da.count(FRONTIER) / len(da)
    assert 0.25 < share < 0.35
    other = make("random:p=0.3,seed=8")
    assert [other.choose(ctx(s, prompt=p)).target for p in prompts for s in range(5)] != da
    reason = a.choose(ctx(0, prompt="x")).reason
    assert reason.startswith("random: draw ")
    # episode_key, when the caller sets one, replaces the prompt
    c = make("random:p=0.5,seed=0")
    keyed = [c.choose(ctx(0, episode_key=f"k{i}")).target for i in range(50)]
    assert len(set(keyed)) == 2
    assert make("random:p=0").choose(ctx()).target == LOCAL
    assert make("random:p=1").choose(ctx()).target == FRONTIER


def test_external_attributes_by_served_model():
    policy = make("external:frontier_models=oracle,openai/gpt-5")
    assert not policy.needs_frontier
    assert policy.choose(ctx()).target == LOCAL
    assert policy.attribute("oracle").target == FRONTIER
    assert policy.attribute("gpt-5").target == LOCAL  # listed with its prefix only
    assert policy.attribute("openai/gpt-5").target == FRONTIER
    assert policy.attribute("vendor/oracle").target == FRONTIER
    assert policy.attribute("noisy-0.5").target == LOCAL
    assert policy.attribute(None).reason == "external: served by unknown model"
    assert policy.attribute("oracle").reason == "external: served by oracle"


def test_parse_spec_list_values_and_errors():
    assert parse_spec("external:frontier_models=a,b , c") == ("external",
                                                             {"frontier_models": "a,b,c"})
    assert parse_spec("random:p=0.1,seed=0") == ("random", {"p": 0.1, "seed": 0})
    with pytest.raises(PolicySpecError, match="must be key=value"):
        parse_spec("random:oops")
    for spec, needle in [
        ("nope", "unknown router policy 'nope'"),
        ("random:q=1", "takes no parameter q"),
        ("random:p=2", "probability"),
        ("confidence:threshold=0.5", "log-probability"),
        ("confidence:threshold=abc", "log-probability"),
        ("cascade-after-failure:failures=0", ">= 1"),
        ("external", "frontier_models"),
        ("plan-execute:first_steps=-1", ">= 0"),
    ]:
        with pytest.raises(PolicySpecError, match=needle):
            build_policy(spec)


def test_router_never_imports_agentbench():
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2] / "router"
    for path in root.rglob("*.py"):
        for line in path.read_text().splitlines():
            code = line.strip()
            assert not code.startswith(("import agentbench", "from agentbench ",
                                        "from agentbench.")), path
