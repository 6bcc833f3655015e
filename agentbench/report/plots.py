"""Report plots: matplotlib figures rendered to inline SVG (text kept as text, no external refs).

Each function takes figures already computed by `agentbench.metrics` (or raw per-step records for
distributions) and returns an SVG string, or None when there is nothing to draw. matplotlib is
an optional dependency (extra `report`); `available()` says whether plots can be drawn.

Colours are the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies);
series also differ by hatch or marker so that colour is never the only cue.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from agentbench.metrics.compare import TaskFigures
from agentbench.metrics.summary import RunSummary

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
             "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
_counter = itertools.count()


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _figure(width_in: float = 7.0, height_in: float = 3.6) -> Figure:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width_in, height_in), layout="constrained")
    return fig


def _style(ax: Axes, title: str, xlabel: str, ylabel: str) -> None:
    ax.set_title(title, fontsize=11, loc="left")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def to_svg(fig: Figure, alt: str) -> str:
    """The figure as an inline <svg> element, ids unique within the page, with a <title>."""
    import matplotlib

    salt = f"ab{next(_counter)}"
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt,
                                "font.family": ["DejaVu Sans", "sans-serif"]}):
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    # Ids from separate figures must not collide once inlined in one page.
    svg = re.sub(r'id="([^"]+)"', rf'id="{salt}-\1"', svg)
    svg = re.sub(r'url\(#([^)]+)\)', rf'url(#{salt}-\1)', svg)
    svg = re.sub(r'xlink:href="#([^"]+)"', rf'xlink:href="#{salt}-\1"', svg)
    svg = re.sub(r'(<svg[^>]*?)\s+width="[^"]+"\s+height="[^"]+"', r"\1", svg, count=1)
    from html import escape

    return svg.replace(">", f' role="img" aria-label="{escape(alt)}"><title>{escape(alt)}</title>',
                       1)


def _short(name: str, width: int = 22) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def score_by_category(rows: dict[str, RunSummary]) -> str | None:
    """Horizontal grouped bars: success rate and mean score per category, with 95% CIs."""
    names = [c for c, s in rows.items() if s.success_rate is not None or s.mean_score is not None]
    if not names:
        return None
    fig = _figure(7.0, max(2.4, 0.55 * len(names) + 1.2))
    ax = fig.add_subplot()
    height = 0.38
    ys = list(range(len(names)))
    for k, (field, ci_field, label, hatch) in enumerate([
        ("success_rate", "success_rate_ci", "success rate", ""),
        ("mean_score", "mean_score_ci", "mean score", "//"),
    ]):
        vals = [getattr(rows[c], field) or 0.0 for c in names]
        cis = [getattr(rows[c], ci_field) for c in names]
        err = [[max(v - (ci[0] if ci else v), 0) for v, ci in zip(vals, cis, strict=True)],
               [max((ci[1] if ci else v) - v, 0) for v, ci in zip(vals, cis, strict=True)]]
        pos = [y + (k - 0.5) * height for y in ys]
        bars = ax.barh(pos, vals, height, label=label, color=OKABE_ITO[k], hatch=hatch,
                       edgecolor="white", xerr=err, capsize=3, error_kw={"elinewidth": 1})
        ax.bar_label(bars, labels=[f"{v:.2f}" for v in vals], padding=4, fontsize=7)
    ax.set_yticks(ys, [_short(n, 26) for n in names], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.15)
    _style(ax, "Score by category (error bars: 95% Wilson intervals)",
           "share of episodes solved / mean score (0-1)", "")
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=9)
    return to_svg(fig, "Bar chart of success rate and mean score per category with 95% CIs.")


def thinking_distribution(reasoning_per_step: Sequence[int], method: str | None) -> str | None:
    """Histogram of thinking (reasoning) tokens per step, over every step of the run."""
    if not reasoning_per_step:
        return None
    import statistics

    fig = _figure(7.0, 3.2)
    ax = fig.add_subplot()
    values = list(reasoning_per_step)
    lo, hi = min(values), max(values)
    bins: Any = 30
    if hi - lo < 30:
        # Few distinct counts: one bar per integer, with room either side.
        bins = [x - 0.5 for x in range(lo, hi + 2)]
        ax.set_xlim(lo - max(5, (hi - lo) // 2), hi + max(5, (hi - lo) // 2))
    ax.hist(values, bins=bins, color=OKABE_ITO[0], edgecolor="white")
    mid = statistics.median(values)
    ax.axvline(mid, color=OKABE_ITO[3], linestyle="--", linewidth=1.5,
               label=f"median {mid:g} tokens")
    _style(ax, f"Thinking tokens per step ({len(values)} steps; counted by {method or 'n/a'})",
           "thinking tokens in the step (tokens)", "steps (count)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=9)
    return to_svg(fig, "Histogram of thinking tokens per step.")


def time_split(tasks: Sequence[TaskFigures], what: str = "task") -> str | None:
    """Horizontal stacked bars per task (or category): mean time-to-done split into model,
    tool and router time, and whatever is left (client overhead)."""
    rows = [t for t in tasks if t.time_to_done_s is not None]
    if not rows:
        return None
    rows = sorted(rows, key=lambda t: t.time_to_done_s or 0.0)
    fig = _figure(7.0, max(2.4, 0.28 * len(rows) + 1.3))
    ax = fig.add_subplot()
    ys = list(range(len(rows)))
    left = [0.0] * len(rows)
    parts = [("model_time_s", "model", OKABE_ITO[0], ""),
             ("tool_time_s", "tools", OKABE_ITO[1], "//"),
             ("router_time_s", "router", OKABE_ITO[2], "..")]
    for field, label, colour, hatch in parts:
        vals = [getattr(t, field) or 0.0 for t in rows]
        ax.barh(ys, vals, left=left, label=label, color=colour, hatch=hatch, edgecolor="white")
        left = [a + b for a, b in zip(left, vals, strict=True)]
    other = [max((t.time_to_done_s or 0.0) - x, 0.0) for t, x in zip(rows, left, strict=True)]
    if any(o > 1e-3 for o in other):
        ax.barh(ys, other, left=left, label="other (not model, tool or router)", color="#bbbbbb",
                edgecolor="white")
    ax.set_yticks(ys, [_short(t.task_id, 30) for t in rows], fontsize=8)
    title = ("Time-to-done per task, mean over repeats" if what == "task"
             else "Time-to-done per category, mean per episode")
    _style(ax, title, "seconds (s)", "")
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower right", frameon=True, fontsize=8)
    return to_svg(fig, "Stacked bars of model, tool and router time per task.")


def decode_by_category(steps_by_category: dict[str, list[float]]) -> str | None:
    """Box plot of per-step decode rates per category (client clock)."""
    names = [c for c, v in steps_by_category.items() if v]
    if not names:
        return None
    fig = _figure(7.0, max(2.4, 0.42 * len(names) + 1.2))
    ax = fig.add_subplot()
    data = [steps_by_category[c] for c in names]
    style: dict[str, Any] = {"patch_artist": True, "widths": 0.55,
                             "medianprops": {"color": "#000000", "linewidth": 1.5}}
    try:
        box = ax.boxplot(data, orientation="horizontal", **style)
    except TypeError:  # matplotlib < 3.10
        box = ax.boxplot(data, vert=False, **style)
    for patch in box["boxes"]:
        patch.set_facecolor(OKABE_ITO[5])
    ax.set_yticks(range(1, len(names) + 1), [f"{_short(n)} (n={len(d)})"
                                              for n, d in zip(names, data, strict=True)],
                  fontsize=9)
    ax.invert_yaxis()
    _style(ax, "Decode speed by category (per step; box = quartiles, line = median)",
           "decode speed (tokens/s)", "")
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.grid(axis="y", visible=False)
    return to_svg(fig, "Box plot of decode tokens per second per category.")


def cost_accuracy(labels: Sequence[str], costs: Sequence[float | None],
                  accuracy: Sequence[float | None], cis: Sequence[list[float] | None],
                  pareto: Sequence[bool], axis: str) -> str | None:
    """One point per run: cost (or output tokens when unpriced) vs success rate; Pareto front."""
    pts = [(i, c, a) for i, (c, a) in enumerate(zip(costs, accuracy, strict=True))
           if c is not None and a is not None]
    if not pts:
        return None
    fig = _figure(7.0, 3.6)
    ax = fig.add_subplot()
    for i, c, a in pts:
        ci = cis[i]
        yerr = [[a - ci[0]], [ci[1] - a]] if ci else None
        ax.errorbar([c], [a], yerr=yerr, fmt=MARKERS[i % len(MARKERS)], markersize=8,
                    color=OKABE_ITO[i % len(OKABE_ITO)], capsize=3,
                    label=_short(labels[i], 40) + (" (Pareto)" if pareto[i] else ""))
    front = sorted((c, a) for i, c, a in pts if pareto[i])
    if len(front) > 1:
        ax.step([p[0] for p in front], [p[1] for p in front], where="post", color="#555555",
                linestyle=":", linewidth=1.2, label="Pareto front")
    xlabel = ("cost per episode (USD)" if axis == "cost_usd_per_episode"
              else "output tokens per episode (tokens; runs unpriced)")
    ax.set_ylim(-0.05, 1.05)
    _style(ax, "Cost vs accuracy (error bars: 95% CI of success rate)", xlabel,
           "success rate (share of episodes)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    return to_svg(fig, "Scatter of cost against success rate per run, with the Pareto front.")


def paired_bars(metric_labels: Sequence[str], values: Sequence[float | None],
                cis: Sequence[list[float] | None], kinds: Sequence[str], title: str) -> str | None:
    """Compare view: each metric's B-vs-A effect with its CI (ratios on a log axis around 1)."""
    rows = [(lbl, v, ci) for lbl, v, ci, k in zip(metric_labels, values, cis, kinds, strict=True)
            if v is not None and k == "ratio"]
    if not rows:
        return None
    fig = _figure(7.0, max(1.8, 0.38 * len(rows) + 1.0))
    ax = fig.add_subplot()
    ys = list(range(len(rows)))
    lo, hi = 1.0, 1.0
    for y, (_, v, ci) in zip(ys, rows, strict=True):
        err = [[v - ci[0]], [ci[1] - v]] if ci else None
        resolved = ci is not None and (ci[0] > 1 or ci[1] < 1)
        ax.errorbar([v], [y], xerr=err, fmt="o" if resolved else "s", capsize=4,
                    color=OKABE_ITO[3] if resolved else OKABE_ITO[0], markersize=7)
        lo, hi = min(lo, v, *(ci or [])), max(hi, v, *(ci or []))
    pad = max(0.05, 0.1 * (hi - lo))
    ax.set_xlim(lo - pad, hi + pad)
    ax.axvline(1.0, color="#555555", linewidth=1)
    ax.set_yticks(ys, [lbl for lbl, _, _ in rows], fontsize=8)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    _style(ax, title, "ratio B / A (1 = no difference)", "")
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.grid(axis="y", visible=False)
    return to_svg(fig, "Ratios of run B to run A with 95% CIs.")
