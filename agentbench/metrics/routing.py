"""Routing economics: how often a router escalated, what that cost, and what it bought back.

Definitions (docs/router.md says the same for users):

- A *call* is one model request; an escalation after review makes two calls for one step (the
  discarded local answer and the frontier's), and both are paid for.
- `rate_calls`: frontier calls / all calls (discarded ones included). This is the results
  contract's `escalation_rate_calls`.
- `rate_steps`: kept steps answered by the frontier / kept steps: the share of *decisions* sent
  up, the x-axis of APGR (RouteLLM counts queries, each answered by one model).
- `rate_episodes`: episodes with at least one frontier call / episodes.
- Shares of tokens (prompt + output, every call) and of dollars (None when a call is unpriced).
- Trigger: the part of the router's reason before the first ':' (router/policies.py).
- Rescue (escalations after review only, where the local answer is known): the frontier's answer
  *changed* the step (other tool calls or another final answer) and its outcome was good (valid
  call, every tool result ok, not truncated) -> rescued; changed but bad -> not rescued; the same
  answer -> unchanged (the escalation bought nothing at this step).

Comparisons between runs pair episodes by (task id, repeat), so runs over the same task set with
the same repeats compare one to one; CIs are seeded bootstraps (metrics.stats).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, Field

from agentbench.metrics.stats import (
    bootstrap_ci,
    paired_diff_ci,
    paired_ratio_ci,
    pareto_front,
    verdict,
)
from agentbench.records import EpisodeResult, RunRecord, StepRecord

LOCAL = "local"
WEAK = "always-local"
STRONG = "always-frontier"
RANDOM = "random"
POSITION_CAP = 6  # positions >= this are pooled as "6+"


def trigger_of(reason: str | None) -> str:
    if not reason:
        return "unknown"
    return reason.split(":", 1)[0].strip() or "unknown"


def _tokens(step: StepRecord) -> int | None:
    if step.prompt_tokens is None and step.output_tokens is None:
        return None
    return (step.prompt_tokens or 0) + (step.output_tokens or 0)


def same_answer(a: StepRecord, b: StepRecord) -> bool:
    calls_a = [(c.name, c.parsed if c.parsed is not None else c.arguments) for c in a.tool_calls]
    calls_b = [(c.name, c.parsed if c.parsed is not None else c.arguments) for c in b.tool_calls]
    if calls_a or calls_b:
        return calls_a == calls_b
    return " ".join(a.content.split()) == " ".join(b.content.split())


def _good_outcome(step: StepRecord) -> bool:
    if step.truncated or step.invalid_tool_call or step.error:
        return False
    if step.tool_calls:
        return all(r.ok for r in step.tool_results) and len(step.tool_results) == len(
            step.tool_calls)
    return bool(step.content.strip())


class EscalationStats(BaseModel):
    """Escalation figures of one run."""

    calls: int = 0
    frontier_calls: int = 0
    discarded_calls: int = 0
    rate_calls: float | None = None
    steps: int = Field(default=0, description="Kept steps (one per decision).")
    frontier_steps: int = 0
    rate_steps: float | None = None
    episodes: int = 0
    episodes_escalated: int = 0
    rate_episodes: float | None = None
    tokens: int | None = None
    frontier_tokens: int | None = None
    share_tokens: float | None = None
    cost_usd: float | None = None
    frontier_cost_usd: float | None = None
    share_dollars: float | None = Field(default=None, description="None when a call is unpriced.")
    unpriced_calls: int = 0
    by_position: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Kept step position (1-based) -> steps, frontier, rate.")
    triggers: dict[str, int] = Field(default_factory=dict,
                                     description="Frontier calls per trigger of the reason.")
    review_escalations: int = 0
    rescued: int = 0
    not_rescued: int = 0
    unchanged: int = 0
    success_escalated: float | None = Field(
        default=None, description="Success rate of episodes with a frontier call.")
    success_not_escalated: float | None = None


def escalation_stats(episodes: Iterable[EpisodeResult]) -> EscalationStats:
    eps = list(episodes)
    out = EscalationStats(episodes=len(eps))
    token_total = token_frontier = 0
    tokens_known = True
    costs: list[float | None] = []
    frontier_costs: list[float | None] = []
    positions: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    triggers: Counter[str] = Counter()
    succ_esc: list[float] = []
    succ_not: list[float] = []
    for e in eps:
        position = 0
        pending_local: StepRecord | None = None
        escalated = False
        for step in e.steps:
            frontier = step.target != LOCAL
            out.calls += 1
            out.frontier_calls += frontier
            out.discarded_calls += step.discarded
            escalated |= frontier
            n = _tokens(step)
            if n is None:
                tokens_known = False
            else:
                token_total += n
                token_frontier += n if frontier else 0
            costs.append(step.cost_usd)
            if frontier:
                frontier_costs.append(step.cost_usd)
                triggers[trigger_of(step.router.reason if step.router else None)] += 1
            if step.discarded:
                pending_local = step if not frontier else None
                continue
            position += 1
            slot = positions[min(position, POSITION_CAP)]
            slot[0] += 1
            slot[1] += frontier
            out.steps += 1
            out.frontier_steps += frontier
            if pending_local is not None and frontier:
                out.review_escalations += 1
                if same_answer(pending_local, step):
                    out.unchanged += 1
                elif _good_outcome(step):
                    out.rescued += 1
                else:
                    out.not_rescued += 1
            pending_local = None
        out.episodes_escalated += escalated
        if e.score is not None:
            (succ_esc if escalated else succ_not).append(1.0 if e.success else 0.0)
    out.rate_calls = out.frontier_calls / out.calls if out.calls else None
    out.rate_steps = out.frontier_steps / out.steps if out.steps else None
    out.rate_episodes = out.episodes_escalated / len(eps) if eps else None
    if tokens_known and out.calls:
        out.tokens, out.frontier_tokens = token_total, token_frontier
        out.share_tokens = token_frontier / token_total if token_total else None
    out.unpriced_calls = sum(1 for c in costs if c is None)
    if costs and not out.unpriced_calls:
        out.cost_usd = sum(c for c in costs if c is not None)
        out.frontier_cost_usd = sum(c for c in frontier_costs if c is not None)
        out.share_dollars = out.frontier_cost_usd / out.cost_usd if out.cost_usd else None
    elif frontier_costs and all(c is not None for c in frontier_costs):
        out.frontier_cost_usd = sum(c for c in frontier_costs if c is not None)
    out.by_position = {
        (f"{p}+" if p == POSITION_CAP else str(p)): {"steps": s, "frontier": f,
                                                     "rate": f / s if s else None}
        for p, (s, f) in sorted(positions.items())
    }
    out.triggers = dict(triggers.most_common())
    out.success_escalated = sum(succ_esc) / len(succ_esc) if succ_esc else None
    out.success_not_escalated = sum(succ_not) / len(succ_not) if succ_not else None
    return out


# --- comparing runs --------------------------------------------------------------------------


Key = tuple[str, int]


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


def _pick(candidates: list[tuple[RunRecord, dict[Key, EpisodeResult]]], field: str,
          wanted: Counter[str]) -> tuple[RunRecord, dict[Key, EpisodeResult]] | None:
    """The baseline whose model matches the router runs' most often, newest first."""
    if not candidates:
        return None
    ranked = sorted(candidates, key=lambda c: (wanted.get(str(c[0].config.get(field)), 0),
                                               c[0].created_at), reverse=True)
    return ranked[0]


def _pct(x: float | None, spec: str = ".0%") -> str:
    return "n/a" if x is None else f"{x:{spec}}"


def compare_runs(
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
        notes.append(f"compared on the {len(keys)} (task, repeat) episodes every run has; "
                     "episodes only some runs have are left out")
    routers = Counter(str(r.config.get("router", "?")) for r, _ in indexed)
    others = [(r, e) for r, e in indexed if family_of(str(r.config.get("router"))) not in
              (WEAK, STRONG)]
    local_models = Counter(str(r.config.get("model")) for r, _ in others)
    frontier_models = Counter(str(r.config.get("frontier_model")) for r, _ in others)
    weak = _pick([c for c in indexed if c[0].config.get("router") == WEAK], "model", local_models)
    strong = _pick([c for c in indexed if c[0].config.get("router") == STRONG], "frontier_model",
                   frontier_models)
    for name, count in routers.items():
        if count > 1 and name in (WEAK, STRONG):
            chosen = weak if name == WEAK else strong
            picked = chosen[0].run_id if chosen else "?"
            notes.append(f"{count} runs of {name}: the baseline is {picked}")
    if weak is None:
        notes.append("no always-local run over this task set: PGR/APGR need one")
    if strong is None:
        notes.append("no always-frontier run over this task set: the comparisons need one")

    def outcomes(eps: dict[Key, EpisodeResult]) -> list[float]:
        return [_outcome(eps[k], metric) for k in keys]

    def costs(eps: dict[Key, EpisodeResult]) -> list[float] | None:
        values = [eps[k].cost_usd for k in keys]
        return None if any(v is None for v in values) else [float(v or 0.0) for v in values]

    points: list[RunPoint] = []
    for record, eps in indexed:
        kept = [eps[k] for k in keys]
        acc = bootstrap_ci(outcomes(eps), seed=seed)
        c = costs(eps)
        solved = sum(1 for e in kept if e.success)
        router = str(record.config.get("router", "?"))
        points.append(RunPoint(
            run_id=record.run_id, router=router, family=family_of(router),
            model=record.config.get("model"), frontier_model=record.config.get("frontier_model"),
            note=record.config.get("note"),
            episodes=len(kept), accuracy=acc.value if acc else None,
            accuracy_ci=[acc.low, acc.high] if acc else None,
            cost_usd=sum(c) if c is not None else None,
            cost_usd_per_episode=sum(c) / len(c) if c else None,
            cost_usd_per_solved=sum(c) / solved if c is not None and solved else None,
            escalation=escalation_stats(kept),
        ))
    by_id = {p.run_id: p for p in points}
    weak_p = by_id[weak[0].run_id] if weak else None
    strong_p = by_id[strong[0].run_id] if strong else None

    # Pareto front: on dollars when every run is priced, else on the frontier call share.
    axis = "cost_usd"
    if any(p.cost_usd is None for p in points):
        axis = "escalation_rate_calls"
        notes.append("some runs are unpriced (see --local-usd-per-hour / --prices): the Pareto "
                     "front uses the share of calls sent to the frontier instead of dollars")
    plane = [((p.cost_usd if axis == "cost_usd" else p.escalation.rate_calls) or 0.0,
              p.accuracy or 0.0) for p in points]
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
            notes.append("the local baseline beats the frontier baseline here: PGR is measured "
                         "against a negative gap")
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
            p.vs_random = _versus_random(p, randoms, weak_p, strong_p, indexed, keys, metric,
                                         seed)
    return RoutesReport(
        metric=metric, task_set=sorted({k[0] for k in keys}), keys=len(keys), runs=points,
        weak=weak_p.run_id if weak_p else None, strong=strong_p.run_id if strong_p else None,
        pareto_axis=axis, apgr=report_apgr, notes=notes,
    )


def _episodes_of(run_id: str, indexed: list[tuple[RunRecord, dict[Key, EpisodeResult]]]
                 ) -> dict[Key, EpisodeResult]:
    return next(eps for r, eps in indexed if r.run_id == run_id)


def _versus(p: RunPoint, base: RunPoint, indexed: list[tuple[RunRecord, dict[Key, EpisodeResult]]],
            keys: list[Key], metric: str, seed: int) -> dict[str, Any]:
    mine, theirs = _episodes_of(p.run_id, indexed), _episodes_of(base.run_id, indexed)
    a = [_outcome(theirs[k], metric) for k in keys]
    b = [_outcome(mine[k], metric) for k in keys]
    diff = paired_diff_ci(a, b, seed=seed)
    out: dict[str, Any] = {
        "run_id": base.run_id,
        "accuracy_diff": diff.as_dict() if diff else None,
        "accuracy_verdict": verdict(diff),
        "cost_ratio": None, "cost_verdict": None,
    }
    ca = [theirs[k].cost_usd for k in keys]
    cb = [mine[k].cost_usd for k in keys]
    if all(c is not None for c in ca + cb):
        ratio = paired_ratio_ci([float(c or 0.0) for c in ca], [float(c or 0.0) for c in cb],
                                seed=seed)
        out["cost_ratio"] = ratio.as_dict() if ratio else None
        out["cost_verdict"] = verdict(ratio, null=1.0)
    return out


def _versus_random(p: RunPoint, randoms: list[RunPoint], weak: RunPoint | None,
                   strong: RunPoint | None,
                   indexed: list[tuple[RunRecord, dict[Key, EpisodeResult]]], keys: list[Key],
                   metric: str, seed: int) -> dict[str, Any] | None:
    rate = p.escalation.rate_steps
    if rate is None:
        return None
    out: dict[str, Any] = {"rate_steps": rate, "expected_random_accuracy": None,
                           "measured": None}
    if weak and strong and weak.accuracy is not None and strong.accuracy is not None:
        out["expected_random_accuracy"] = weak.accuracy + rate * (strong.accuracy - weak.accuracy)
    near = [r for r in randoms if r.escalation.rate_steps is not None]
    if near:
        best = min(near, key=lambda r: abs((r.escalation.rate_steps or 0.0) - rate))
        gap = abs((best.escalation.rate_steps or 0.0) - rate)
        vs = _versus(p, best, indexed, keys, metric, seed)
        out["measured"] = {"run_id": best.run_id, "router": best.router,
                           "rate_steps": best.escalation.rate_steps, "rate_gap": gap,
                           "same_rate": gap <= 0.05, "accuracy_diff": vs["accuracy_diff"],
                           "accuracy_verdict": vs["accuracy_verdict"]}
    return out


def signed(value: float, spec: str) -> str:
    """`+3.0` / `−6.0` (a real minus sign)."""
    text = f"{value:+{spec}}"
    return text.replace("-", "\u2212")


def pct_change(ratio: float) -> str:
    """A cost ratio as a signed percent change; a tenth of a percent near -100% (a −99.7% cut
    is not free)."""
    change = (ratio - 1) * 100
    return signed(change, ".1f" if change < -99 and ratio > 0 else ".0f") + "%"


def _sentence(p: RunPoint, strong: RunPoint) -> str:
    vs = p.vs_strong or {}
    parts = []
    ratio = vs.get("cost_ratio")
    if ratio:
        parts.append(f"{pct_change(ratio['value'])} cost (CI {pct_change(ratio['low'])} to "
                     f"{pct_change(ratio['high'])}; {vs.get('cost_verdict')})")
    else:
        parts.append("cost unpriced")
    parts.append(f"{_pct(p.escalation.rate_calls)} of calls escalated")
    diff = vs.get("accuracy_diff")
    if diff:
        parts.append(f"{signed(diff['value'] * 100, '.1f')} points (CI "
                     f"{signed(diff['low'] * 100, '.1f')} to {signed(diff['high'] * 100, '.1f')}; "
                     f"{vs.get('accuracy_verdict')})")
    return ", ".join(parts) + f" vs always-frontier (n={p.episodes})"


# --- counterfactual replay of confidence thresholds (runs made with --record-both) ----------
