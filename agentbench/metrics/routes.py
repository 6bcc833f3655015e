"""Comparing routed runs over one task set: cost vs accuracy against the baselines.

Each run is a point on the cost/accuracy plane; the always-local and always-frontier runs are
the weak and strong baselines. PGR = (accuracy - weak) / (strong - weak); APGR is the area under
PGR against the share of decisions escalated (metrics.routing defines the shares). A router is
compared with the strong baseline and with a random router at the same escalation share.

Comparisons pair episodes by (task id, repeat), so runs over the same task set with the same
repeats compare one to one; accuracy intervals are Wilson (clustered by task) and its differences
Bonett-Price on per-task differences (metrics.intervals); cost ratios are seeded bootstraps.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from agentbench.figures import pct, pct_change, signed
from agentbench.metrics.intervals import paired_rate_difference, rate_interval
from agentbench.metrics.routing import EscalationStats, escalation_stats
from agentbench.metrics.stats import (
    paired_ratio_ci,
    pareto_front,
    verdict,
)
from agentbench.records import EpisodeResult, RunRecord

WEAK = "always-local"
STRONG = "always-frontier"
RANDOM = "random"

Key = tuple[str, int]


def _by_task(eps: dict[Key, EpisodeResult], keys: list[Key], metric: str) -> list[list[float]]:
    """Outcomes grouped by task (sorted task ids), each task's repeats together."""
    groups: dict[str, list[float]] = {}
    for k in keys:
        groups.setdefault(k[0], []).append(_outcome(eps[k], metric))
    return [groups[t] for t in sorted(groups)]


def _outcome(e: EpisodeResult, metric: str) -> float:
    if metric == "score":
        return float(e.score or 0.0)
    return 1.0 if e.success else 0.0


class RunPoint(BaseModel):
    """One run on the cost/accuracy plane."""

    run_id: str
    router: str
    family: str
    model: str | None = None
    frontier_model: str | None = None
    note: str | None = None
    episodes: int
    accuracy: float | None
    accuracy_ci: list[float] | None = None
    cost_usd: float | None = None
    cost_usd_per_episode: float | None = None
    cost_usd_per_solved: float | None = None
    escalation: EscalationStats
    pareto: bool = False
    pgr: float | None = Field(default=None, description="(acc - weak) / (strong - weak).")
    vs_strong: dict[str, Any] | None = None
    vs_random: dict[str, Any] | None = None
    sentence: str | None = None


class RoutesReport(BaseModel):
    metric: str
    task_set: list[str]
    keys: int = Field(description="(task, repeat) pairs common to every run compared.")
    runs: list[RunPoint]
    weak: str | None = None
    strong: str | None = None
    pareto_axis: str = "cost_usd"
    apgr: dict[str, float | None] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)


def family_of(router: str) -> str:
    return router.split(":", 1)[0].strip()


def apgr(points: Sequence[tuple[float, float]]) -> float | None:
    """Area under PGR vs escalation share, anchors (0, 0) and (1, 1) added, trapezoids.

    A router no better than random scores about 0.5; 1.0 would recover the strong model's
    accuracy with no escalation at all. Points at the same x are averaged.
    """
    if not points:
        return None
    curve: dict[float, list[float]] = {0.0: [0.0], 1.0: [1.0]}
    for x, y in points:
        curve.setdefault(min(max(x, 0.0), 1.0), []).append(y)
    xs = sorted(curve)
    ys = [sum(curve[x]) / len(curve[x]) for x in xs]
    return sum((xs[i + 1] - xs[i]) * (ys[i] + ys[i + 1]) / 2 for i in range(len(xs) - 1))


def _pick(
    candidates: list[tuple[RunRecord, dict[Key, EpisodeResult]]], field: str, wanted: Counter[str]
) -> tuple[RunRecord, dict[Key, EpisodeResult]] | None:
    """The baseline whose model matches the router runs' most often, newest first."""
    if not candidates:
        return None
    ranked = sorted(
        candidates,
        key=lambda c: (wanted.get(str(c[0].config.get(field)), 0), c[0].created_at),
        reverse=True,
    )
    return ranked[0]


def compare_routes(
    runs: list[tuple[RunRecord, list[EpisodeResult]]], *, metric: str = "success", seed: int = 0
) -> RoutesReport:
    """Cost vs accuracy of runs over one task set, against the always-local/-frontier baselines."""
    indexed = [(r, {(e.task_id, e.repeat): e for e in eps}) for r, eps in runs]
    common: set[Key] | None = None
    for _, eps in indexed:
        common = set(eps) if common is None else common & set(eps)
    keys = sorted(common or set())
    notes: list[str] = []
    if any(len(eps) != len(keys) for _, eps in indexed):
        notes.append(
            f"compared on the {len(keys)} (task, repeat) episodes every run has; "
            "episodes only some runs have are left out"
        )
    routers = Counter(str(r.config.get("router", "?")) for r, _ in indexed)
    others = [
        (r, e) for r, e in indexed if family_of(str(r.config.get("router"))) not in (WEAK, STRONG)
    ]
    local_models = Counter(str(r.config.get("model")) for r, _ in others)
    frontier_models = Counter(str(r.config.get("frontier_model")) for r, _ in others)
    weak = _pick([c for c in indexed if c[0].config.get("router") == WEAK], "model", local_models)
    strong = _pick(
        [c for c in indexed if c[0].config.get("router") == STRONG],
        "frontier_model",
        frontier_models,
    )
    for name, count in routers.items():
        if count > 1 and name in (WEAK, STRONG):
            chosen = weak if name == WEAK else strong
            picked = chosen[0].run_id if chosen else "?"
            notes.append(f"{count} runs of {name}: the baseline is {picked}")
    if weak is None:
        notes.append("no always-local run over this task set: PGR/APGR need one")
    if strong is None:
        notes.append("no always-frontier run over this task set: the comparisons need one")

    def costs(eps: dict[Key, EpisodeResult]) -> list[float] | None:
        values = [eps[k].cost_usd for k in keys]
        return None if any(v is None for v in values) else [float(v or 0.0) for v in values]

    points: list[RunPoint] = []
    for record, eps in indexed:
        kept = [eps[k] for k in keys]
        acc = rate_interval(_by_task(eps, keys, metric))
        c = costs(eps)
        solved = sum(1 for e in kept if e.success)
        router = str(record.config.get("router", "?"))
        points.append(
            RunPoint(
                run_id=record.run_id,
                router=router,
                family=family_of(router),
                model=record.config.get("model"),
                frontier_model=record.config.get("frontier_model"),
                note=record.config.get("note"),
                episodes=len(kept),
                accuracy=acc.value if acc else None,
                accuracy_ci=[acc.low, acc.high] if acc else None,
                cost_usd=sum(c) if c is not None else None,
                cost_usd_per_episode=sum(c) / len(c) if c else None,
                cost_usd_per_solved=sum(c) / solved if c is not None and solved else None,
                escalation=escalation_stats(kept),
            )
        )
    by_id = {p.run_id: p for p in points}
    weak_p = by_id[weak[0].run_id] if weak else None
    strong_p = by_id[strong[0].run_id] if strong else None

    # Pareto front: on dollars when every run is priced, else on the frontier call share.
    axis = "cost_usd"
    if any(p.cost_usd is None for p in points):
        axis = "escalation_rate_calls"
        notes.append(
            "some runs are unpriced (see --local-usd-per-hour / --prices): the Pareto "
            "front uses the share of calls sent to the frontier instead of dollars"
        )
    plane = [
        ((p.cost_usd if axis == "cost_usd" else p.escalation.rate_calls) or 0.0, p.accuracy or 0.0)
        for p in points
    ]
    for p, on in zip(points, pareto_front(plane), strict=True):
        p.pareto = on

    # PGR and APGR per policy family.
    gap = None
    if weak_p and strong_p and weak_p.accuracy is not None and strong_p.accuracy is not None:
        gap = strong_p.accuracy - weak_p.accuracy
        if abs(gap) < 1e-12:
            notes.append("the baselines score the same: PGR and APGR are undefined")
            gap = None
        elif gap < 0:
            notes.append(
                "the local baseline beats the frontier baseline here: PGR is measured "
                "against a negative gap"
            )
    families: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for p in points:
        if gap is not None and p.accuracy is not None and weak_p and weak_p.accuracy is not None:
            p.pgr = (p.accuracy - weak_p.accuracy) / gap
            if p.family not in (WEAK, STRONG) and p.escalation.rate_steps is not None:
                families[p.family].append((p.escalation.rate_steps, p.pgr))
    report_apgr = {f: apgr(pts) for f, pts in sorted(families.items())}

    # Against the strong baseline, and against random control at the same escalation share.
    randoms = [p for p in points if p.family == RANDOM]
    for p in points:
        if p.family in (WEAK, STRONG):
            continue
        if strong_p is not None:
            p.vs_strong = _versus(p, strong_p, indexed, keys, metric, seed)
            p.sentence = _sentence(p, strong_p)
        if p.family != RANDOM:
            p.vs_random = _versus_random(p, randoms, weak_p, strong_p, indexed, keys, metric, seed)
    return RoutesReport(
        metric=metric,
        task_set=sorted({k[0] for k in keys}),
        keys=len(keys),
        runs=points,
        weak=weak_p.run_id if weak_p else None,
        strong=strong_p.run_id if strong_p else None,
        pareto_axis=axis,
        apgr=report_apgr,
        notes=notes,
    )


def _episodes_of(
    run_id: str, indexed: list[tuple[RunRecord, dict[Key, EpisodeResult]]]
) -> dict[Key, EpisodeResult]:
    return next(eps for r, eps in indexed if r.run_id == run_id)


def _versus(
    p: RunPoint,
    base: RunPoint,
    indexed: list[tuple[RunRecord, dict[Key, EpisodeResult]]],
    keys: list[Key],
    metric: str,
    seed: int,
) -> dict[str, Any]:
    mine, theirs = _episodes_of(p.run_id, indexed), _episodes_of(base.run_id, indexed)
    diff = paired_rate_difference(_by_task(theirs, keys, metric), _by_task(mine, keys, metric))
    out: dict[str, Any] = {
        "run_id": base.run_id,
        "accuracy_diff": diff.as_dict() if diff else None,
        "accuracy_verdict": verdict(diff),
        "cost_ratio": None,
        "cost_verdict": None,
    }
    ca = [theirs[k].cost_usd for k in keys]
    cb = [mine[k].cost_usd for k in keys]
    if all(c is not None for c in ca + cb):
        ratio = paired_ratio_ci(
            [float(c or 0.0) for c in ca], [float(c or 0.0) for c in cb], seed=seed
        )
        out["cost_ratio"] = ratio.as_dict() if ratio else None
        out["cost_verdict"] = verdict(ratio, null=1.0)
    return out


def _versus_random(
    p: RunPoint,
    randoms: list[RunPoint],
    weak: RunPoint | None,
    strong: RunPoint | None,
    indexed: list[tuple[RunRecord, dict[Key, EpisodeResult]]],
    keys: list[Key],
    metric: str,
    seed: int,
) -> dict[str, Any] | None:
    rate = p.escalation.rate_steps
    if rate is None:
        return None
    out: dict[str, Any] = {"rate_steps": rate, "expected_random_accuracy": None, "measured": None}
    if weak and strong and weak.accuracy is not None and strong.accuracy is not None:
        out["expected_random_accuracy"] = weak.accuracy + rate * (strong.accuracy - weak.accuracy)
    near = [r for r in randoms if r.escalation.rate_steps is not None]
    if near:
        best = min(near, key=lambda r: abs((r.escalation.rate_steps or 0.0) - rate))
        gap = abs((best.escalation.rate_steps or 0.0) - rate)
        vs = _versus(p, best, indexed, keys, metric, seed)
        out["measured"] = {
            "run_id": best.run_id,
            "router": best.router,
            "rate_steps": best.escalation.rate_steps,
            "rate_gap": gap,
            "same_rate": gap <= 0.05,
            "accuracy_diff": vs["accuracy_diff"],
            "accuracy_verdict": vs["accuracy_verdict"],
        }
    return out


def _sentence(p: RunPoint, strong: RunPoint) -> str:
    vs = p.vs_strong or {}
    parts = []
    ratio = vs.get("cost_ratio")
    if ratio:
        parts.append(
            f"{pct_change(ratio['value'])} cost (CI {pct_change(ratio['low'])} to "
            f"{pct_change(ratio['high'])}; {vs.get('cost_verdict')})"
        )
    else:
        parts.append("cost unpriced")
    parts.append(f"{pct(p.escalation.rate_calls)} of calls escalated")
    diff = vs.get("accuracy_diff")
    if diff:
        parts.append(
            f"{signed(diff['value'] * 100, '.1f')} points (CI "
            f"{signed(diff['low'] * 100, '.1f')} to {signed(diff['high'] * 100, '.1f')}; "
            f"{vs.get('accuracy_verdict')})"
        )
    return ", ".join(parts) + f" vs always-frontier (n={p.episodes})"
