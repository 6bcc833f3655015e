"""metrics.compare: paired by task, repeats averaged, a verdict on every difference.

The end-to-end cases use real runs on the reference server, whose truth is known: `oracle`
solves every task, `wrong` none, `noisy-0.3` some; the thinking budget is set by the schedule.
"""

from __future__ import annotations

import pytest

from agentbench.metrics.compare import (
    NOT_COMPARED,
    compare_pair,
    compare_runs,
    paired_ratio_ci,
    pareto_front,
    task_figures,
)
from agentbench.metrics.stats import RESOLVED, UNRESOLVED
from agentbench.records import EpisodeResult, RunRecord, StepRecord

from ..report.runs import load, make_run, refserver, small_suite

ACCURACY = ("success_rate", "mean_score")


def by_key(pair):  # type: ignore[no-untyped-def]
    return {m.metric: m for m in pair.metrics}


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory):  # type: ignore[no-untyped-def]
    return small_suite(tmp_path_factory.mktemp("tasks"))


@pytest.fixture(scope="module")
def runs(tasks_dir, tmp_path_factory):  # type: ignore[no-untyped-def]
    """oracle twice on the same schedule, wrong and noisy-0.3; 3 repeats each."""
    db = tmp_path_factory.mktemp("compare") / "r.db"
    with refserver(tasks_dir, 24) as server:
        ids = {name: make_run(server, tasks_dir, db, model, repeats=3)
               for name, model in [("oracle", "oracle"), ("oracle2", "oracle"),
                                   ("wrong", "wrong"), ("noisy", "noisy-0.3")]}
    return {name: load(db, run_id) for name, run_id in ids.items()}


def test_oracle_vs_wrong_and_noisy_is_resolved(runs) -> None:  # type: ignore[no-untyped-def]
    for other in ("wrong", "noisy"):
        m = by_key(compare_pair(runs["oracle"], runs[other]))
        for key in ACCURACY:
            assert m[key].verdict == RESOLVED, (other, m[key])
            assert m[key].better == "a" and m[key].value < 0 and m[key].ci[1] < 0
    m = by_key(compare_pair(runs["oracle"], runs["wrong"]))
    assert m["success_rate"].n_tasks == len(runs["oracle"][1]) // 3 >= 5
    assert m["success_rate"].ci[1] <= -0.5  # wrong solves nothing the oracle solves


def test_same_schedule_twice_is_unresolved(runs) -> None:  # type: ignore[no-untyped-def]
    pair = compare_pair(runs["oracle"], runs["oracle2"])
    m = by_key(pair)
    for key in (*ACCURACY, "thinking_tokens_per_step", "tokens_per_solved_task"):
        assert m[key].verdict == UNRESOLVED, m[key]
        assert m[key].better is None
    assert m["thinking_tokens_per_step"].value == pytest.approx(1.0)
    assert m["cost_usd"].verdict == NOT_COMPARED  # the reference server is unpriced
    # Deterministic answers: the same outcome on every task, with the same tokens when solved.
    assert {t.outcome for t in pair.tasks} <= {"both solved", "neither"}
    assert sum(t.outcome == "both solved" for t in pair.tasks) >= 5
    assert all(t.fewer_tokens == "same" for t in pair.tasks if t.outcome == "both solved")


def test_same_answers_four_times_the_thinking(tasks_dir, tmp_path) -> None:
    """Seed 002's comparison: the same correct calls, one model thinking four times longer."""
    db = tmp_path / "r.db"
    with refserver(tasks_dir, 20) as server:
        terse = make_run(server, tasks_dir, db, "oracle", repeats=2)
    with refserver(tasks_dir, 80) as server:
        verbose = make_run(server, tasks_dir, db, "oracle", repeats=2)
    pair = compare_pair(load(db, terse), load(db, verbose))
    m = by_key(pair)
    assert m["success_rate"].verdict == UNRESOLVED
    think = m["thinking_tokens_per_step"]
    assert think.kind == "ratio" and think.value == pytest.approx(4.0)
    assert think.verdict == RESOLVED and think.better == "a"
    assert m["tokens_per_solved_task"].verdict == RESOLVED
    solved = [t for t in pair.tasks if t.outcome == "both solved"]
    assert len(solved) >= 5
    assert all(t.thinking_ratio == pytest.approx(4.0) and t.fewer_tokens == "a" for t in solved)


# ------------------------------------------------------------------ unit


def step(index: int, reasoning: int | None, output: int | None = 10) -> StepRecord:
    return StepRecord(model="m", requested_model="m", index=index, t_start_s=0.0,
                      reasoning_tokens=reasoning, output_tokens=output, decode_tok_s=100.0)


def episode(task: str, repeat: int, ok: bool, reasoning: int, run: str = "r",
            cost: float | None = None) -> EpisodeResult:
    steps = [step(0, reasoning).model_copy(update={"cost_usd": cost})]
    return EpisodeResult(run_id=run, task_id=task, category="c", difficulty="easy",
                         step_kind="execute", repeat=repeat, status="ok" if ok else "wrong",
                         score=1.0 if ok else 0.0, steps=steps, time_to_done_s=1.0,
                         output_tokens=10, reasoning_tokens=reasoning,
                         thinking_tokens_per_step=float(reasoning), cost_usd=cost)


def record(run_id: str) -> RunRecord:
    return RunRecord(run_id=run_id, created_at="2026-01-01T00:00:00+00:00")


def test_repeats_are_averaged_per_task_before_pairing() -> None:
    a = [episode("t1", r, ok=r < 2, reasoning=10) for r in range(3)] + [episode("t2", 0, True, 10)]
    figs = task_figures(a)
    assert figs["t1"].success_rate == pytest.approx(2 / 3) and figs["t1"].episodes == 3
    b = [episode("t1", 0, True, 30), episode("t3", 0, True, 5)]
    pair = compare_pair((record("A"), a), (record("B"), b))
    assert pair.common_tasks == 1 and pair.only_a == ["t2"] and pair.only_b == ["t3"]
    m = by_key(pair)
    assert m["success_rate"].value == pytest.approx(1 / 3)
    assert m["success_rate"].verdict == UNRESOLVED  # one task: never resolved
    assert m["thinking_tokens_per_step"].value == pytest.approx(3.0)


def test_zero_thinking_baseline_falls_back_to_difference() -> None:
    a = [episode(f"t{i}", 0, True, 0) for i in range(5)]
    b = [episode(f"t{i}", 0, True, 50 + i) for i in range(5)]
    m = by_key(compare_pair((record("A"), a), (record("B"), b)))["thinking_tokens_per_step"]
    assert m.kind == "difference" and m.value == pytest.approx(52.0)
    assert m.verdict == RESOLVED and m.better == "a" and m.note


def test_paired_ratio_ci() -> None:
    a, b = [10.0, 20.0, 30.0, 40.0], [20.0, 40.0, 60.0, 80.0]
    ci = paired_ratio_ci(a, b)
    assert ci is not None and (ci.value, ci.low, ci.high) == (2.0, 2.0, 2.0)
    assert paired_ratio_ci([0.0, 0.0], [1.0, 2.0]) is None
    noisy = paired_ratio_ci([10, 12, 9, 11, 10], [11, 10, 10, 12, 9])
    assert noisy is not None and noisy.low < 1 < noisy.high
    assert paired_ratio_ci(a, b) == paired_ratio_ci(a, b)  # seeded


def test_pareto_front() -> None:
    pts = [(1.0, 0.5), (2.0, 0.9), (3.0, 0.8), (0.5, 0.2), (None, 1.0)]
    assert pareto_front(pts) == [True, True, False, True, False]


def test_compare_runs_pairs_every_run_with_the_first() -> None:
    runs = [(record(x), [episode("t1", 0, ok, 10, run=x)]) for x, ok in
            [("A", True), ("B", False), ("C", True)]]
    comp = compare_runs(runs)
    assert [p.run_b for p in comp.pairs] == ["B", "C"]
    assert comp.pareto_axis == "output_tokens_per_episode"  # unpriced
    assert len(comp.pareto) == 3 and comp.pareto[0]


def test_priced_runs_compare_cost_in_dollars() -> None:
    a = [episode(f"t{i}", 0, True, 10, run="A", cost=0.010) for i in range(6)]
    b = [episode(f"t{i}", 0, i < 5, 10, run="B", cost=0.002) for i in range(6)]
    comp = compare_runs([(record("A"), a), (record("B"), b)])
    cost = by_key(comp.pairs[0])["cost_usd"]
    assert cost.value == pytest.approx(-0.008) and cost.verdict == RESOLVED
    assert cost.better == "b"
    assert comp.pareto_axis == "cost_usd_per_episode"
    assert comp.cost_axis_values == pytest.approx([0.010, 0.002])
    assert comp.pareto == [True, True]  # A more accurate, B cheaper
