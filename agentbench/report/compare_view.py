"""Rendering of `agentbench compare`: the text of a metric's cells (shared with the terminal
view, report.compare_terminal) and the self-contained HTML page.

Renders `metrics.compare.Comparison` records; every number and verdict comes from there.
"""

from __future__ import annotations

from pathlib import Path

from agentbench import __version__
from agentbench.figures import fmt
from agentbench.metrics.compare import NOT_COMPARED, Comparison, MetricComparison, PairComparison
from agentbench.report import plots
from agentbench.report.html import pareto_figure
from agentbench.report.page import esc, figure, fmt_ci, num_cell, page, table


def effect(m: MetricComparison) -> str:
    """The B-vs-A effect as text: percentage points, a difference, or a ratio, with its CI."""
    if m.value is None:
        return "n/a"
    ci = m.ci
    if m.kind == "ratio":
        # Near 1, two decimals would print a resolved 0.4% effect as x1.00 [1.00, 1.00].
        spec = ".3f" if 0.9 < m.value < 1.1 else ".2f"
        span = f" [{ci[0]:{spec}}, {ci[1]:{spec}}]" if ci else ""
        return f"×{m.value:{spec}}{span}"
    if m.metric == "success_rate":
        span = f" [{ci[0] * 100:+.1f}, {ci[1] * 100:+.1f}]" if ci else ""
        return f"{m.value * 100:+.1f} pp{span}"
    spec = ".6f" if m.metric == "cost_usd" else ".3f"
    span = f" [{ci[0]:+{spec}}, {ci[1]:+{spec}}]" if ci else ""
    return f"{m.value:+{spec}}{span}"


def side(m: MetricComparison, value: float | None) -> str:
    if value is None:
        return "unpriced" if m.metric == "cost_usd" else "n/a"
    if m.metric == "success_rate":
        return f"{value:.0%}"
    if m.metric == "cost_usd":
        return f"{value:.6f}"
    if m.metric == "mean_score":
        return f"{value:.2f}"
    if m.metric == "time_to_done_s":
        return f"{value:.3f} s"
    return f"{value:.1f}"


def better(m: MetricComparison) -> str:
    if m.better is None:
        return "—"
    return "A" if m.better == "a" else "B"


# ---------------------------------------------------------------- HTML


def _runs_html(comp: Comparison) -> str:
    rows = []
    for i, r in enumerate(comp.runs):
        s = r.summary
        name = "A" if i == 0 else (f"B{i}" if len(comp.runs) > 2 else "B")
        pareto = "yes" if comp.pareto and comp.pareto[i] else "no"
        rows.append(
            f'<tr><th scope="row">{name}</th><td title="{esc(r.run_id)}">{esc(r.label)}</td>'
            f"<td>{esc(r.server)}</td><td>{esc(r.router)}</td>"
            + num_cell(s.episodes, "d")
            + f'<td class="n" data-v="{s.success_rate}">{fmt(s.success_rate, ".0%")} '
            f'<span class="muted">{esc(fmt_ci(s.success_rate_ci))}</span></td>'
            + num_cell(s.thinking_tokens_per_step, ".1f")
            + num_cell(s.tokens_per_solved_task, ".0f")
            + num_cell(s.time_to_done_s_median)
            + num_cell(s.decode_tok_s_median, ".1f")
            + (
                num_cell(s.cost_usd, ".4f")
                if s.cost_usd is not None
                else '<td class="n muted">unpriced</td>'
            )
            + f"<td>{pareto}</td></tr>"
        )
    return table(
        [
            ("", False),
            ("run (hover for its id)", False),
            ("server", False),
            ("router", False),
            ("episodes", True),
            ("success (95% CI)", True),
            ("thinking tok/step", True),
            ("output tok/solved task", True),
            ("time-to-done median (s)", True),
            ("decode median (tok/s)", True),
            ("cost (USD)", True),
            ("Pareto", False),
        ],
        rows,
        table_id="runs",
    )


def _pair_html(i: int, pair: PairComparison, with_plots: bool = True) -> str:
    rows = []
    for m in pair.metrics:
        cls = {"resolved": "resolved", NOT_COMPARED: "muted"}.get(m.verdict, "unresolved")
        note = f'<br><span class="note">{esc(m.note)}</span>' if m.note else ""
        rows.append(
            f'<tr><td>{esc(m.label)}{note}</td><td class="n">{esc(side(m, m.a))}</td>'
            f'<td class="n">{esc(side(m, m.b))}</td><td class="n">{esc(effect(m))}</td>'
            f'<td class="n">{m.n_tasks}</td><td class="{cls}">{esc(m.verdict)}</td>'
            f"<td>{better(m)}</td></tr>"
        )
    metrics = table(
        [
            ("metric", False),
            ("A", True),
            ("B", True),
            ("B vs A [95% CI]", True),
            ("tasks", True),
            ("verdict", False),
            ("better", False),
        ],
        rows,
        table_id=f"metrics-{i}",
    )
    plot = ""
    if with_plots and plots.available():
        plot = figure(
            plots.paired_bars(
                [m.label for m in pair.metrics],
                [m.value for m in pair.metrics],
                [m.ci for m in pair.metrics],
                [m.kind for m in pair.metrics],
                "B / A with 95% paired bootstrap CI",
            ),
            "Ratios of B to A over paired tasks; circles (orange) are resolved, "
            "squares (blue) unresolved at this sample size.",
            f"plot-ratios-{i}",
        )
    task_rows = []
    for x in pair.tasks:
        fewer = {"a": "A", "b": "B", "same": "same", None: "—"}[x.fewer_tokens]
        task_rows.append(
            f"<tr><td>{esc(x.task_id)}</td><td>{esc(x.category)}</td><td>{esc(x.outcome)}</td>"
            + num_cell(x.success_a, ".0%")
            + num_cell(x.success_b, ".0%")
            + num_cell(x.reasoning_tokens_a, ".0f")
            + num_cell(x.reasoning_tokens_b, ".0f")
            + num_cell(x.thinking_ratio, ".2f")
            + num_cell(x.output_tokens_a, ".0f")
            + num_cell(x.output_tokens_b, ".0f")
            + num_cell(x.time_to_done_s_a)
            + num_cell(x.time_to_done_s_b)
            + f"<td>{fewer}</td></tr>"
        )
    tasks = table(
        [
            ("task", False),
            ("category", False),
            ("outcome", False),
            ("success A", True),
            ("success B", True),
            ("thinking tok A", True),
            ("thinking tok B", True),
            ("thinking B/A", True),
            ("output tok A", True),
            ("output tok B", True),
            ("time-to-done A (s)", True),
            ("time-to-done B (s)", True),
            ("fewer output tokens (both solved)", False),
        ],
        task_rows,
        sortable=True,
        table_id=f"pair-tasks-{i}",
        caption="Per task, mean per episode over repeats. Click a column to sort; "
        "sort by 'thinking B/A' to find where one run solved it with fewer "
        "tokens.",
    )
    unpaired = ""
    if pair.only_a or pair.only_b:
        unpaired = (
            f'<p class="note">Not paired (ran in one run only): A: '
            f"{esc(', '.join(pair.only_a) or 'none')}; B: "
            f"{esc(', '.join(pair.only_b) or 'none')}.</p>"
        )
    notes = "".join(f'<p class="note">Note: {esc(n)}.</p>' for n in pair.notes)
    return (
        f'<h2 id="pair-{i}">B = {esc(pair.label_b)} vs A = {esc(pair.label_a)}</h2>'
        f'<p class="sub">{pair.common_tasks} tasks in common, paired by task id; each '
        f"task's repeats averaged.</p>{metrics}{plot}<h3>Per task</h3>{tasks}{unpaired}"
        f"{notes}"
    )


def render_compare_html(comp: Comparison) -> str:
    return page(
        "agentbench compare",
        "".join(compare_sections(comp)),
        generator=f"agentbench {__version__} — self-contained report; no network needed.",
    )


def compare_sections(comp: Comparison, *, with_plots: bool = True) -> list[str]:
    """The compare page's sections, shared by `compare --html` and `agentbench view`."""
    parts = [
        "<h1>agentbench compare</h1>",
        f'<p class="sub">{len(comp.runs)} runs; each run after the first (A) is compared '
        "with A.</p>",
        '<h2 id="runs">Runs</h2>',
        _runs_html(comp),
    ]
    if with_plots and len(comp.runs) > 1 and plots.available():
        parts.append(
            pareto_figure(
                comp,
                "Each run's success rate against its cost (output tokens per episode when a run "
                "is unpriced); the dotted line joins the Pareto front.",
            )
        )
    parts += [_pair_html(i, p, with_plots) for i, p in enumerate(comp.pairs, 1)]
    parts.append(
        '<h2 id="definitions">How to read this</h2><p class="note">Verdict: '
        "'resolved' only when the 95% paired interval (success rate: Bonett-Price on "
        "per-task differences; other figures: bootstrap, tasks resampled, 2000 draws, "
        "seeded) of the difference excludes 0, or of the ratio excludes 1; otherwise "
        "'unresolved at this sample size' — more tasks or repeats are needed to tell. "
        "Differences are B − A averaged over tasks; ratios are mean(B) / mean(A) over "
        "the tasks where both have the figure.</p>"
    )
    return parts


def write_compare_html(path: Path, comp: Comparison) -> None:
    Path(path).write_text(render_compare_html(comp), encoding="utf-8")
