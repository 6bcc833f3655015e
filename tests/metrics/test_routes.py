"""APGR, Pareto front, paired cost ratio, and the routes comparison on synthetic episodes."""

from __future__ import annotations

import pytest

from agentbench.metrics.routes import apgr, compare_routes
from agentbench.metrics.routing import trigger_of
from agentbench.metrics.stats import paired_ratio_ci, pareto_front
from agentbench.records import EpisodeResult, RouterDecisionRecord, RunRecord, StepRecord


def test_apgr_anchors_and_random_line():
    assert apgr([]) is None
    assert apgr([(0.5, 0.5)]) == pytest.approx(0.5)  # on the random diagonal
    assert apgr([(0.1, 0.9)]) == pytest.approx(0.1 * 0.45 + 0.9 * 0.95)
    assert apgr([(0.2, 0.2), (0.2, 0.4), (0.6, 0.6)]) == pytest.approx(
        0.2 * 0.15 + 0.4 * 0.45 + 0.4 * 0.8
    )
    assert apgr([(0.0, 0.5)]) == pytest.approx((0.25 + 1) / 2)  # x=0 averages with the anchor


def test_pareto_front():
    pts = [(1.0, 0.9), (0.1, 0.5), (0.5, 0.5), (0.2, 0.8), (0.2, 0.8)]
    assert pareto_front(pts) == [True, True, False, True, True]


def test_paired_ratio_ci():
    a = [1.0] * 20
    b = [0.25] * 20
    ci = paired_ratio_ci(a, b)
    assert ci.value == pytest.approx(0.25) and ci.low == pytest.approx(0.25)
    assert paired_ratio_ci([], []) is None and paired_ratio_ci([0.0], [1.0]) is None
    noisy = paired_ratio_ci([1.0, 2.0, 3.0, 4.0] * 5, [0.5, 0.1, 2.0, 0.3] * 5)
    assert noisy.low < noisy.value < noisy.high


def test_small_helpers():
    assert trigger_of("invalid: unknown tool") == "invalid"
    assert trigger_of("latched") == "latched" and trigger_of(None) == "unknown"


def _episode(
    run: str, task: str, ok: bool, targets: list[str], cost: float | None, reason: str = "plan: x"
) -> EpisodeResult:
    steps = [
        StepRecord(
            model="m",
            requested_model="m",
            index=i,
            t_start_s=0.0,
            target=t,
            prompt_tokens=100,
            output_tokens=10,
            cost_usd=None if cost is None else cost / len(targets),
            router=RouterDecisionRecord(target=t, policy="p", reason=reason),
        )
        for i, t in enumerate(targets)
    ]
    return EpisodeResult(
        run_id=run,
        task_id=task,
        category="c",
        difficulty="easy",
        step_kind="execute",
        repeat=0,
        status="ok" if ok else "wrong",
        score=1.0 if ok else 0.0,
        steps=steps,
        cost_usd=cost,
    )


def _run(
    run_id: str,
    router: str,
    outcomes: list[bool],
    targets: list[list[str]],
    costs: list[float | None],
) -> tuple[RunRecord, list[EpisodeResult]]:
    record = RunRecord(
        run_id=run_id,
        created_at=f"2026-01-01T00:00:0{len(run_id)}",
        config={"router": router, "model": "small", "frontier_model": "big"},
    )
    eps = [
        _episode(run_id, f"t{i:02d}", ok, tg, c)
        for i, (ok, tg, c) in enumerate(zip(outcomes, targets, costs, strict=True))
    ]
    return record, eps


def test_compare_routes_against_baselines_and_random():
    n = 20
    L, F = "local", "frontier"
    weak = _run("w", "always-local", [i < 10 for i in range(n)], [[L, L]] * n, [0.01] * n)
    strong = _run("s", "always-frontier", [True] * n, [[F, F]] * n, [1.0] * n)
    # a router that escalates one step in four episodes and recovers 8 of the 10 failures
    smart = _run(
        "smart",
        "plan-execute",
        [i < 18 for i in range(n)],
        [[F, L] if i % 2 else [L, L] for i in range(n)],
        [0.505 if i % 2 else 0.01 for i in range(n)],
    )
    rand = _run(
        "rnd",
        "random:p=0.25,seed=0",
        [i < 12 for i in range(n)],
        [[F, L] if i % 2 else [L, L] for i in range(n)],
        [0.505 if i % 2 else 0.01 for i in range(n)],
    )
    report = compare_routes([weak, strong, smart, rand])
    assert report.weak == "w" and report.strong == "s" and report.keys == n
    by = {p.run_id: p for p in report.runs}
    assert by["smart"].accuracy == pytest.approx(0.9)
    assert by["smart"].pgr == pytest.approx(0.8)
    assert by["smart"].escalation.rate_steps == pytest.approx(0.25)
    assert report.apgr["plan-execute"] == pytest.approx(0.25 * 0.4 + 0.75 * 0.9)
    assert report.apgr["random"] == pytest.approx(0.25 * 0.2 / 2 + 0.75 * (0.2 + 1) / 2)
    vs = by["smart"].vs_strong
    assert vs["accuracy_diff"]["value"] == pytest.approx(-0.1)
    assert vs["cost_ratio"]["value"] == pytest.approx((10 * 0.505 + 10 * 0.01) / 20)
    assert vs["cost_verdict"] == "resolved"
    assert "\u221274% cost" in by["smart"].sentence
    assert "25% of calls escalated" in by["smart"].sentence
    assert "\u221210.0 points" in by["smart"].sentence
    assert "vs always-frontier (n=20)" in by["smart"].sentence
    vr = by["smart"].vs_random
    assert vr["measured"]["run_id"] == "rnd" and vr["measured"]["same_rate"]
    assert vr["measured"]["accuracy_diff"]["value"] == pytest.approx(0.3)
    assert vr["expected_random_accuracy"] == pytest.approx(0.5 + 0.25 * 0.5)
    assert [p.run_id for p in report.runs if p.pareto] == ["w", "s", "smart"]
    assert report.pareto_axis == "cost_usd"


def test_compare_routes_with_unpriced_run_says_so():
    n = 4
    weak = _run("w", "always-local", [False] * n, [["local"]] * n, [None] * n)
    strong = _run("s", "always-frontier", [True] * n, [["frontier"]] * n, [1.0] * n)
    report = compare_routes([weak, strong])
    assert report.pareto_axis == "escalation_rate_calls"
    assert any("unpriced" in note for note in report.notes)
    assert report.runs[0].cost_usd is None
